#!/usr/bin/env bash
# RateLab's one entry script: installs what is missing, builds, and runs the app or the tests.
#   ./ratelab.sh run [FILE]   build and open the app (on the default scenario unless FILE is given)
#   ./ratelab.sh test         build and run the whole test suite
#   ./ratelab.sh build        only install and build
#   ./ratelab.sh deps [PKG..] only install the Debian packages the project needs (and PKG..)
#   ./ratelab.sh package      build the Debian package build-package/ratelab_<version>_amd64.deb
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${RATELAB_BUILD_DIR:-build}
JOBS=${RATELAB_JOBS:-$(nproc)}

# Debian 12 packages the build, the tests and the screenshots need.
PACKAGES=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  nlohmann-json3-dev catch2
  # lupdate, for the test that every translatable string is filed under the context the app
  # asks for at run time (without it that test is not even defined).
  qt6-l10n-tools
  fonts-dejavu-core xvfb xauth
  # The .deb and its checks: dpkg-shlibdeps (dpkg-dev) and file compute the package's Depends;
  # desktop-file-validate, update-mime-database and groff check the desktop entry, the trace file
  # type and the manual pages (and the last two also refresh the databases when it is installed).
  dpkg-dev file desktop-file-utils shared-mime-info groff-base
  # xdg-mime asks the file type and its default application as a file manager would. Outside a
  # desktop session it answers from the shared MIME database only through mimetype
  # (libfile-mimeinfo-perl, which xdg-utils merely recommends); without it, it asks file(1),
  # which calls every trace plain JSON.
  xdg-utils libfile-mimeinfo-perl
)

log() { printf '[ratelab] %s\n' "$*" >&2; }

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  # Another apt (an unattended upgrade, a second checkout's setup) may hold dpkg's lock: wait
  # for it rather than fail.
  local wait=(-o DPkg::Lock::Timeout=600)
  "${sudo[@]}" apt-get "${wait[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get "${wait[@]}" install -y -qq \
    --no-install-recommends "${missing[@]}"
}

build() {
  local werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${RATELAB_BUILD_TYPE:-RelWithDebInfo} \
    -DRATELAB_WERROR=$werror >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

# A Release build without tests, packaged with CPack; prints the path of the .deb.
package() {
  local dir=${RATELAB_PACKAGE_DIR:-build-package} werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRATELAB_WERROR=$werror \
    -DRATELAB_BUILD_TESTS=OFF -DRATELAB_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$dir" -j "$JOBS"
  rm -f "$dir"/ratelab_*.deb
  (cd "$dir" && cpack -G DEB >&2)
  ls "$dir"/ratelab_*.deb
}

cmd=${1:-run}
shift || true
case "$cmd" in
  deps) install_deps "$@" ;;  # extra arguments: more packages (the CI gates' own lists)
  build) install_deps; build ;;
  package) install_deps; package ;;
  test)
    install_deps
    build
    export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
    ;;
  run)
    install_deps
    build
    if [ -x "$BUILD_DIR/app/ratelab" ]; then
      exec "$BUILD_DIR/app/ratelab" "$@"
    fi
    exec "$BUILD_DIR/app/ratelab-cli" compare "${@:-traces/boundary-burst.json}"
    ;;
  *)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
