#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every subcommand and every option of the CLI is in its --help and in the
# man page.  The options are read from the getopt tables of user/*.c, so a
# new option that is not documented fails here.  A command's help is short
# and its own: no other command's options or words, and the limits' rules
# one text wherever they are.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

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

# A command's help is short: the options that matter first, the rest
# named and left to the man page.
help_is_short() {
	local help
	help=$("$CLI" "$1" --help) || return 1
	(($(wc -l <<<"$help") <= 30)) ||
		{ echo "tscprobe $1 --help has $(wc -l <<<"$help") lines"; return 1; }
	! awk 'length > 80 { print "line " NR " has " length " columns"; bad = 1 } END { exit !bad }' <<<"$help"
}

# A measurement's help (and show's, which prints them) speaks of its own
# options and of itself only; other commands may name a measurement's
# option in what they explain.
help_is_its_own() {
	local cmd=$1 src=$2 opt word own
	[[ $cmd == noise || $cmd == cache || $cmd == skew || $cmd == show ]] || return 0
	own=$(options_of "$src")
	for opt in $("$CLI" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -qx -- "${opt#--}" <<<"$own" ||
			{ echo "tscprobe $cmd --help mentions $opt, not its option"; return 1; }
	done
	for word in noise cache skew; do
		[[ $word == "$cmd" || $cmd == show ]] && continue
		# skew hands a "cache line" around: that is its own word.
		"$CLI" "$cmd" --help | sed 's/cache line//g' | grep -qw "$word" &&
			{ echo "tscprobe $cmd --help speaks of $word"; return 1; }
	done
	return 0
}

# The limits' rules are one text, the same in every help that has limits.
limits_text_is_shared() {
	local cmd first="" text
	for cmd in noise cache skew show; do
		text=$("$CLI" "$cmd" --help | sed -n '/^Limits/,/^$/p')
		[[ -n $text ]] || { echo "tscprobe $cmd --help has no Limits text"; return 1; }
		[[ -z $first ]] && first=$text
		[[ $text == "$first" ]] ||
			{ echo "tscprobe $cmd --help has a Limits text of its own"; return 1; }
	done
}

tap_check "the limits' rules: one text in every help" limits_text_is_shared
tap_check "man page renders without warnings" \
	bash -c "! MANWIDTH=80 man --warnings -l '$REPO/Documentation/tscprobe.8' 2>&1 >/dev/null | grep ."
for src in "$REPO"/user/*.c; do
	cmd=$(command_of "$src")
	[[ -n $cmd ]] || continue
	tap_check "'$cmd' is in tscprobe --help" \
		grep -q "^  $cmd " <<<"$("$CLI" --help)"
	tap_check "'$cmd' is in the man page" grep -q "^ *tscprobe $cmd" <<<"$MAN_TEXT"
	tap_check "tscprobe $cmd --help: 30 lines at most, 80 columns" help_is_short "$cmd"
	tap_check "tscprobe $cmd --help: of its own options" help_is_its_own "$cmd" "$src"
	for opt in $(options_of "$src"); do
		tap_check "$cmd --$opt is documented" documented "$cmd" "$opt"
	done
done
tap_done
