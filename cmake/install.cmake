include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Two export sets: topoplanTargets (no third-party dependency) and topoplanIoTargets (toml++),
# so that find_package(topoplan) asks for toml++ only when the io component is wanted.
install(TARGETS topoplan_runtime topoplan_tools topoplan topoplan_udgoap topoplan_sim topoplan_agents EXPORT topoplanTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/topoplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT topoplanTargets NAMESPACE topoplan:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
if(TOPOPLAN_WITH_IO)
  install(TARGETS topoplan_io topoplan_udgoap_io topoplan_sim_io EXPORT topoplanIoTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT topoplanIoTargets NAMESPACE topoplan::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
endif()
configure_package_config_file(cmake/topoplanConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/topoplanConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/topoplanConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/topoplanConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/topoplanConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
