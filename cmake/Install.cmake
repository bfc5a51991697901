# Where `cmake --install` (and so the .deb) puts RateLab. Included at the end of the top-level
# CMakeLists.txt, after every target is defined, so the whole installed layout is described here:
#
#   bin/ratelab, bin/ratelab-cli                     the programs
#   share/applications/ratelab.desktop               the desktop entry (opens traces)
#   share/icons/hicolor/{NxN,scalable}/apps/         the application icon
#   share/mime/packages/ratelab.xml                  the trace file type, application/x-ratelab-trace
#   share/man/man1/ratelab-cli.1.gz, ratelab.1.gz    the manual pages
#   share/ratelab/traces/*.json                      the bundled example traces
#   share/doc/ratelab/                               the README
#
# The GUI's pieces are installed when the build has the GUI (RATELAB_BUILD_GUI); every other piece
# always is, and one that is missing fails the build. All rules use the "runtime" component, which
# is what the package contains; anything installed without a component stays out of the .deb.

set(RATELAB_RESOURCES "${PROJECT_SOURCE_DIR}/resources")
set(RATELAB_INSTALL_COMPONENT runtime)

set(RATELAB_PROGRAMS ratelab-cli)
if(RATELAB_BUILD_GUI)
  list(APPEND RATELAB_PROGRAMS ratelab)
endif()
install(TARGETS ${RATELAB_PROGRAMS} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
        COMPONENT ${RATELAB_INSTALL_COMPONENT})

# --- Manual pages: the version is filled in, then gzip -n keeps the output reproducible. -------
function(ratelab_install_man_page program)
  set(source "${RATELAB_RESOURCES}/man/${program}.1.in")
  set(page "${PROJECT_BINARY_DIR}/man/${program}.1")
  configure_file("${source}" "${page}" @ONLY)
  add_custom_command(
    OUTPUT "${page}.gz"
    COMMAND gzip -9 -n -f -k "${page}"
    DEPENDS "${page}" "${source}"
    COMMENT "Compressing the ${program}(1) manual page"
    VERBATIM)
  add_custom_target(${program}_man_page ALL DEPENDS "${page}.gz")
  install(FILES "${page}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1"
          COMPONENT ${RATELAB_INSTALL_COMPONENT})
endfunction()

ratelab_install_man_page(ratelab-cli)

# --- Example traces (only the top level: anything in sub-folders is not a bundled example). ----
file(GLOB RATELAB_BUNDLED_TRACES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/traces/*.json")
if(RATELAB_BUNDLED_TRACES)
  install(FILES ${RATELAB_BUNDLED_TRACES} DESTINATION "${CMAKE_INSTALL_DATADIR}/ratelab/traces"
          COMPONENT ${RATELAB_INSTALL_COMPONENT})
endif()

# --- The bundled lessons (resources/lessons/, checked by tests/io/lesson_test.cpp). ------------
file(GLOB RATELAB_BUNDLED_LESSONS CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/resources/lessons/*.json")
install(FILES ${RATELAB_BUNDLED_LESSONS} DESTINATION "${CMAKE_INSTALL_DATADIR}/ratelab/lessons"
        COMPONENT ${RATELAB_INSTALL_COMPONENT})

# --- The trace file type: registered even without the GUI, so files are recognised. ------------
install(FILES "${RATELAB_RESOURCES}/linux/ratelab.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages"
        COMPONENT ${RATELAB_INSTALL_COMPONENT})

install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/ratelab"
        COMPONENT ${RATELAB_INSTALL_COMPONENT})

# --- Icons: the PNG sizes are rendered from the one SVG at build time with Qt SVG. --------------
set(RATELAB_ICON_SIZES 16 22 24 32 48 64 128 256)
set(RATELAB_ICON_SVG "${RATELAB_RESOURCES}/icons/ratelab.svg")
set(RATELAB_ICON_DIR "${PROJECT_BINARY_DIR}/icons/hicolor")
if(RATELAB_BUILD_GUI)
  add_executable(ratelab_render_icon "${RATELAB_RESOURCES}/icons/render_icon.cpp")
  target_link_libraries(ratelab_render_icon PRIVATE Qt6::Gui Qt6::Svg)
  ratelab_set_warnings(ratelab_render_icon)
  ratelab_qt_strict(ratelab_render_icon)

  list(JOIN RATELAB_ICON_SIZES ", " icon_size_text)
  set(icon_pngs "")
  foreach(size IN LISTS RATELAB_ICON_SIZES)
    list(APPEND icon_pngs "${RATELAB_ICON_DIR}/${size}x${size}/apps/ratelab.png")
  endforeach()
  add_custom_command(
    OUTPUT ${icon_pngs}
    # Leak checks of a sanitizer build would fail the build on Qt's process-lifetime allocations.
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            $<TARGET_FILE:ratelab_render_icon> "${RATELAB_ICON_SVG}" "${RATELAB_ICON_DIR}" ratelab
            ${RATELAB_ICON_SIZES}
    DEPENDS ratelab_render_icon "${RATELAB_ICON_SVG}"
    COMMENT "Rendering the application icon at ${icon_size_text} px"
    VERBATIM)
  add_custom_target(ratelab_icons ALL DEPENDS ${icon_pngs})
endif()

# The desktop entry, its icon and the GUI's manual page only make sense with the GUI itself.
if(RATELAB_BUILD_GUI)
  ratelab_install_man_page(ratelab)
  install(FILES "${RATELAB_RESOURCES}/linux/ratelab.desktop"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/applications" COMPONENT ${RATELAB_INSTALL_COMPONENT})
  install(FILES "${RATELAB_ICON_SVG}" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps"
          COMPONENT ${RATELAB_INSTALL_COMPONENT})
  foreach(size IN LISTS RATELAB_ICON_SIZES)
    install(FILES "${RATELAB_ICON_DIR}/${size}x${size}/apps/ratelab.png"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps"
            COMPONENT ${RATELAB_INSTALL_COMPONENT})
  endforeach()
endif()
