#!/usr/bin/env bash
# Installs a build tree into a scratch prefix and checks that every file a desktop user needs lands
# in its standard place, and that the files agree with each other (the desktop entry runs an
# installed program, shows an installed icon and opens the file type the MIME package defines).
#
#   check-install-tree.sh BUILD_DIR [--cli] [--gui] [--traces]
# The flags say which parts the build has, so a partial tree is checked for what it should contain.
set -euo pipefail

build_dir=$1
shift
want_cli=false want_gui=false want_traces=false
for flag in "$@"; do
  case "$flag" in
    --cli) want_cli=true ;;
    --gui) want_gui=true ;;
    --traces) want_traces=true ;;
    *) echo "unknown flag: $flag" >&2; exit 2 ;;
  esac
done

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
prefix="$root/usr"
cmake --install "$build_dir" --prefix "$prefix" --component runtime >/dev/null

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_file() { [ -f "$prefix/$1" ] || fail "missing $1"; }
expect_absent() { [ ! -e "$prefix/$1" ] || fail "$1 is installed without the program it belongs to"; }

mime_xml=share/mime/packages/ratelab.xml
expect_file "$mime_xml"

if $want_cli; then
  [ -x "$prefix/bin/ratelab-cli" ] || fail "bin/ratelab-cli is missing or not executable"
  expect_file share/man/man1/ratelab-cli.1.gz
  gzip -t "$prefix/share/man/man1/ratelab-cli.1.gz" || fail "ratelab-cli.1.gz is not valid gzip"
else
  expect_absent share/man/man1/ratelab-cli.1.gz
fi

if $want_traces; then
  count=$(find "$prefix/share/ratelab/traces" -maxdepth 1 -name '*.json' 2>/dev/null | wc -l)
  [ "$count" -gt 0 ] || fail "no example traces in share/ratelab/traces"
fi

if $want_gui; then
  [ -x "$prefix/bin/ratelab" ] || fail "bin/ratelab is missing or not executable"
  expect_file share/man/man1/ratelab.1.gz
  desktop=share/applications/ratelab.desktop
  expect_file "$desktop"
  expect_file share/icons/hicolor/scalable/apps/ratelab.svg
  for size in 16 22 24 32 48 64 128 256; do
    png="share/icons/hicolor/${size}x${size}/apps/ratelab.png"
    expect_file "$png"
    if [ -f "$prefix/$png" ]; then
      file -b "$prefix/$png" | grep -q "PNG image data, $size x $size," ||
        fail "$png is not a ${size}x${size} PNG: $(file -b "$prefix/$png")"
    fi
  done

  if [ -f "$prefix/$desktop" ]; then
    desktop-file-validate "$prefix/$desktop" || fail "$desktop does not validate"
    field() { sed -n "s/^$1=//p" "$prefix/$desktop" | head -n 1; }
    exec_program=$(field Exec | cut -d' ' -f1)
    [ -x "$prefix/bin/$exec_program" ] || fail "Exec=$exec_program is not an installed program"
    icon=$(field Icon)
    [ -f "$prefix/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "Icon=$icon is not installed"
    mime_type=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$prefix/$mime_xml")
    field MimeType | tr ';' '\n' | grep -qx "$mime_type" ||
      fail "the desktop entry does not open $mime_type (MimeType=$(field MimeType))"
  fi
else
  expect_absent share/applications/ratelab.desktop
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures problem(s) in the installed tree; it holds:" >&2
  (cd "$prefix" && find . -type f | sort) >&2
  exit 1
fi
echo "installed tree OK"
