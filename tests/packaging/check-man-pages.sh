#!/usr/bin/env bash
# Renders each manual page with every groff warning on and fails on any warning, so a typo in a
# macro cannot ship as a garbled page.
#
#   check-man-pages.sh PAGE.1.in...
set -euo pipefail

status=0
for page in "$@"; do
  warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1 >/dev/null)
  if [ -n "$warnings" ]; then
    echo "FAIL: $page:" >&2
    echo "$warnings" >&2
    status=1
  fi
  # A page that renders to nothing (for example a missing .TH) would also pass groff quietly.
  lines=$(groff -man -Tutf8 "$page" 2>/dev/null | grep -c .)
  if [ "$lines" -lt 10 ]; then
    echo "FAIL: $page renders to only $lines lines" >&2
    status=1
  fi
done
exit $status
