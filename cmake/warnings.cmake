# Warnings for the project's own targets (not for users who add it as a subproject).
function(topoplan_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor)
  if(TOPOPLAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
