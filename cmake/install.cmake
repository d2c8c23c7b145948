include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS topoplan topoplan_io topoplan_udgoap topoplan_udgoap_io topoplan_sim topoplan_sim_io EXPORT topoplanTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/topoplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT topoplanTargets NAMESPACE topoplan:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
configure_package_config_file(cmake/topoplanConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/topoplanConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/topoplanConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/topoplanConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/topoplanConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/topoplan)
