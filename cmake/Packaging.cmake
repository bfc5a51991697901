# The Debian package: `cpack -G DEB` in a build directory writes ratelab_<version>_amd64.deb with
# everything cmake/Install.cmake installs under /usr. Included after Install.cmake.
#
# Dependencies are computed by dpkg-shlibdeps (from dpkg-dev) from the libraries the programs
# really link, so they follow the code instead of a hand-kept list. The desktop, MIME, icon and
# manual databases are refreshed by the file triggers of desktop-file-utils, shared-mime-info,
# hicolor-icon-theme and man-db, so the package needs no maintainer scripts.

set(RATELAB_PACKAGE_MAINTAINER "RateLab maintainers <maintainers@ratelab.invalid>"
    CACHE STRING "Maintainer named in the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ratelab)
set(CPACK_PACKAGE_VENDOR RateLab)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${RATELAB_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "simulator and visualiser of rate-limiting algorithms")
set(CPACK_PACKAGE_DESCRIPTION
    "RateLab runs six rate-limiting algorithms (fixed window, sliding log,
sliding counter, token bucket, leaky bucket and GCRA) side by side over one
request trace, and shows which requests each one accepts or rejects, and why.
.
This package contains the desktop application, ratelab, with an editable
timeline, a playback clock, a comparison table and charts; the command-line
tool, ratelab-cli, which simulates, validates, generates, imports and renders
traces without a display; and example traces that each teach one behaviour.
Trace files (*.ratelab.json) are registered as application/x-ratelab-trace
and open in RateLab.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Only the files meant for users; install rules without a component stay out.
set(CPACK_COMPONENTS_ALL ${RATELAB_INSTALL_COMPONENT})
set(CPACK_DEB_COMPONENT_INSTALL OFF)

set(CPACK_DEBIAN_PACKAGE_NAME ratelab)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RATELAB_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

# Without dpkg-shlibdeps (dpkg-dev) or file, CPack would quietly build a package that depends on
# nothing; this check runs when cpack does, and refuses instead.
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_BINARY_DIR}/RateLabCPackChecks.cmake")
file(CONFIGURE OUTPUT "${CPACK_PROJECT_CONFIG_FILE}" @ONLY CONTENT [[
if(CPACK_GENERATOR STREQUAL "DEB")
  foreach(tool IN ITEMS dpkg-shlibdeps file)
    find_program(tool_path_${tool} ${tool})
    if(NOT tool_path_${tool})
      message(FATAL_ERROR "RateLab: ${tool} is needed to compute the package's dependencies; "
                          "install it with ./ratelab.sh deps")
    endif()
  endforeach()
endif()
]])

include(CPack)
