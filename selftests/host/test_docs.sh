#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every subcommand and every option of the CLI is in its --help and in the
# man page.  The options are read from the getopt tables of user/*.c, so a
# new option that is not documented fails here.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLI=$REPO/build/tscprobe
# shellcheck source=selftests/tap.sh
source "$REPO/selftests/tap.sh"

MAN_TEXT=$(MANWIDTH=200 man -l "$REPO/Documentation/tscprobe.8" 2>/dev/null)

# The subcommand a source file implements, from its usage text.
command_of() {
	sed -n 's/.*"usage: tscprobe \([a-z]*\).*/\1/p' "$1" | head -n 1
}

# The long options in getopt table lines read from standard input.
table_options() {
	sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)", \(no\|required\)_argument.*/\1/p'
}

# The options of the TP_*_OPTIONS macro NAME of user/lib/*.h, with those of
# the macros it names: its body is the #define's line and those a
# backslash continues.
macro_options() {
	local body

	body=$(awk -v m="$1" '$1 == "#define" && $2 == m { on = 1 }
		on { print; if ($0 !~ /\\$/) exit }' "$REPO"/user/lib/*.h)
	table_options <<<"$body"
	for m in $(grep -o 'TP_[A-Z_]*_OPTIONS' <<<"$body" | grep -vx "$1" | sort -u); do
		macro_options "$m"
	done
}

# The long options of a source file's getopt table, the macros it names
# (TP_MEASURE_OPTIONS, TP_LOAD_OPTIONS, ...) expanded.
options_of() {
	table_options <"$1"
	for m in $(grep -o 'TP_[A-Z_]*_OPTIONS' "$1" | sort -u); do
		macro_options "$m"
	done
}

documented() {
	local cmd=$1 opt=$2
	grep -q -- "--$opt\b" <<<"$("$CLI" "$cmd" --help)" ||
		{ echo "tscprobe $cmd --help does not mention --$opt"; return 1; }
	grep -q -- "--$opt\b" <<<"$MAN_TEXT" ||
		{ echo "the man page does not mention --$opt"; return 1; }
}

tap_check "man page renders without warnings" \
	bash -c "! MANWIDTH=80 man --warnings -l '$REPO/Documentation/tscprobe.8' 2>&1 >/dev/null | grep ."
for src in "$REPO"/user/*.c; do
	cmd=$(command_of "$src")
	[[ -n $cmd ]] || continue
	tap_check "'$cmd' is in tscprobe --help" \
		grep -q "^  $cmd " <<<"$("$CLI" --help)"
	tap_check "'$cmd' is in the man page" grep -q "^ *tscprobe $cmd" <<<"$MAN_TEXT"
	for opt in $(options_of "$src"); do
		tap_check "$cmd --$opt is documented" documented "$cmd" "$opt"
	done
done
tap_done
