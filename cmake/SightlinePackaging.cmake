# Desktop integration and the CPack packages (DEB and TGZ). Include it from the top-level
# CMakeLists.txt after the add_subdirectory() of model, collector, views and app, and before
# the tests (tests/packaging checks SIGHTLINE_PACKAGING).
#
# What a package holds is what `cmake --install` installs:
#   bin/sightline, bin/sightline-ui                      (app/cli, app/ui)
#   lib/sightline/libsightline-inject.so                 (collector/inject; `sightline profile`
#                                                         finds it at ../lib/sightline/ from bin/)
#   share/applications/sightline-ui.desktop              (opens .rep files from a file manager)
#   share/icons/hicolor/scalable/apps/sightline-ui.svg
#   share/metainfo/<id>.metainfo.xml                     (AppStream)
#   share/mime/packages/sightline.xml                    (application/x-sightline-report)
#   share/sightline/samples/sample.rep                   (the bundled sample report)
# The DEB installs under /usr; Debian's desktop-file-utils, shared-mime-info and icon-cache
# triggers pick up the desktop entry, the MIME type and the icon, so no maintainer scripts.
# Build the packages with `cpack -G DEB` or `cpack -G TGZ` in the build folder.

set(SIGHTLINE_PACKAGING ON)
set(sightline_desktop "${PROJECT_SOURCE_DIR}/resources/desktop")
set(SIGHTLINE_APPSTREAM_ID "invalid.example.Sightline" CACHE INTERNAL "AppStream component id")

if(SIGHTLINE_BUILD_GUI)
    install(FILES "${sightline_desktop}/sightline-ui.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
    install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/sightline.svg"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps" RENAME sightline-ui.svg)
    install(FILES "${sightline_desktop}/${SIGHTLINE_APPSTREAM_ID}.metainfo.xml"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
    install(FILES "${sightline_desktop}/sightline.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages")
endif()
install(FILES "${PROJECT_SOURCE_DIR}/resources/samples/sample.rep" DESTINATION "${CMAKE_INSTALL_DATADIR}/sightline/samples")

# Package metadata.
set(CPACK_PACKAGE_NAME "sightline")
set(CPACK_PACKAGE_VENDOR "Sightline")
set(CPACK_PACKAGE_CONTACT "Sightline maintainers <maintainers@example.invalid>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}: collector, CLI and Qt viewer")
set(CPACK_PACKAGE_DESCRIPTION
    "Sightline records what an unmodified program does on the CPU and the GPU (CUDA kernels, memory\n"
    "copies, CUDA API calls, NVTX ranges, OS runtime calls) with `sightline profile`, and shows the\n"
    "report on a fast timeline (sightline-ui) that opens reports from remote servers over SSH or HTTPS.")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")

# TGZ: sightline-0.1.0-Linux-x86_64.tar.gz holding sightline-0.1.0-Linux-x86_64/{bin,lib,share}.
set(CPACK_PACKAGE_FILE_NAME "sightline-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")

# DEB: sightline_0.1.0_amd64.deb, installing under /usr.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Opening remote reports uses the system OpenSSH client.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client")
find_program(SIGHTLINE_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(SIGHTLINE_DPKG_SHLIBDEPS)
    # The library dependencies, read from the binaries by dpkg-shlibdeps (package dpkg-dev).
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
    message(STATUS "dpkg-shlibdeps not found (apt install dpkg-dev): the DEB lists Debian 12's library packages by name")
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
        "libc6, libstdc++6, libprotobuf32, libzstd1, libsqlite3-0, zlib1g, libqt6core6, libqt6gui6, libqt6widgets6, libqt6network6, libqt6concurrent6, libqcustomplot2.1-qt6")
endif()

include(CPack)
