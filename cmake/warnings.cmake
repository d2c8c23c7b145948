# Warnings for the project's own targets (not for users who add it as a subproject).
function(topoplan_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor)
  # GCC 12 at -O3 (the Release build, the default) reports -Wrestrict in libstdc++'s std::string
  # concatenation and -Wnonnull in std::vector's copy assignment (memmove of a possibly empty
  # range), false positives of its inliner (seen with Debian's GCC 12.2); with TOPOPLAN_WERROR
  # they stopped the Release build in seven files that only join strings and copy vectors. Debug
  # and RelWithDebInfo (the CI and sanitizer builds) keep both warnings.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-Wno-restrict -Wno-nonnull>)
  endif()
  if(TOPOPLAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
