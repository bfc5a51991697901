#!/usr/bin/env bash
# Keeps the ratelab-cli manual page and the program in step:
# - every command "ratelab-cli --help" lists has an entry in the manual page, and every option in
#   that command's "Options:" list appears in the entry;
# - every option an entry mentions appears in the command's --help text.
# Commands the manual describes but the program does not offer yet, and commands whose --help has
# no "Options:" list (validate, or one not implemented yet), are reported and skipped.
#
#   check-cli-manual.sh RATELAB_CLI MANUAL.1.in
set -euo pipefail

cli=$1
manual=$2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The lines of one command's entry: from its "command:" comment to the next comment or section.
entry() {
  awk -v name="$1" '
    /^\.\\" (command:|end of commands)/ { inside = ($0 == ".\\\" command: " name); next }
    /^\.SH/ { inside = 0 }
    inside' "$manual"
}
# Long options written in roff (\-\-name) or plain (--name), one a line, without the dashes.
roff_options() { grep -oE '(\\-\\-|--)[a-z][a-z0-9_]*(\\-[a-z0-9_]+)*' | sed 's/\\-/-/g; s/^--//' | sort -u; }
plain_options() { grep -oE -- '--[a-z][a-z0-9_-]*' | sed 's/^--//' | sort -u; }

commands=$("$cli" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ -n "$commands" ] || fail "ratelab-cli --help lists no commands"

for command in $commands; do
  documented=$(entry "$command")
  if [ -z "$documented" ]; then
    fail "the manual page has no entry for '$command'"
    continue
  fi
  help=$("$cli" "$command" --help)
  listed=$(awk '/^Options:/ { on = 1; next } on' <<<"$help" | plain_options | grep -vx help || true)
  if ! grep -q '^Options:' <<<"$help"; then
    echo "note: '$command --help' has no options list; its entry is not checked" >&2
    continue
  fi
  for option in $listed; do
    roff_options <<<"$documented" | grep -qx "$option" ||
      fail "'$command --$option' is in the program but not in its manual entry"
  done
  known=$(plain_options <<<"$help")
  for option in $(roff_options <<<"$documented"); do
    grep -qx "$option" <<<"$known" ||
      fail "the manual documents '$command --$option', which '$command --help' does not know"
  done
done

for command in $(sed -n 's/^\.\\" command: //p' "$manual"); do
  grep -qx "$command" <<<"$commands" ||
    echo "note: the manual describes '$command', which this ratelab-cli does not offer yet" >&2
done

if [ "$failures" -gt 0 ]; then
  echo "$failures mismatch(es) between $manual and $cli" >&2
  exit 1
fi
echo "manual page and ratelab-cli agree"
