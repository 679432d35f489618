#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-log.sh [-C N] LOG... - scan kernel logs for the lines in log-patterns.
# check-log.sh --patterns      - print the patterns as grep -E -f takes them
#                                (for a scan inside the guest).
# check-log.sh --stale-int3 LOG - exit 0 if the kernel died of an int3
#                                trap ("Oops: int3", or a stall looping in
#                                it) at a byte that holds no int3, else 1.
#
# Prints every offending line (marked ">>") with N lines of context (default
# 5) and exits 1 if any log has one; exits 0 if all are clean, 2 on usage or
# read errors. boot.sh runs it on the console of every VM run; it works on
# any dmesg or serial capture.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATTERNS=$HERE/log-patterns
# The kernel echoes its command line ("Command line:", "Kernel command
# line:", unknown parameters); --append text there is not a report.
ECHO_LINES='^[0-9]+:(\[[^]]*\] *)?((Kernel c|C)ommand line:|Unknown kernel command line parameters)'

die() {
	echo "check-log: $*" >&2
	exit 2
}

patterns() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$PATTERNS"
}

# Line numbers (1-based) of the offending lines of $1, one per line.
hit_lines() {
	tr -d '\r' <"$1" | { grep -a -n -E -f <(patterns) || true; } |
		{ grep -a -v -E "$ECHO_LINES" || true; } | cut -d: -f1
}

# Print the hits of $1 with $2 lines of context; ranges merge, "--" between.
show_hits() {
	local log=$1 ctx=$2 hits=$3

	tr -d '\r' <"$log" | awk -v ctx="$ctx" -v hits="$hits" '
		BEGIN {
			n = split(hits, h, " ")
			for (i = 1; i <= n; i++) {
				hit[h[i]] = 1
				for (j = h[i] - ctx; j <= h[i] + ctx; j++)
					show[j] = 1
			}
		}
		NR in show {
			if (last && NR != last + 1)
				print "--"
			printf "%s %s\n", (NR in hit ? ">>" : "  "), $0
			last = NR
		}'
}

# stale_int3 LOG: the first "Oops: int3" in LOG, or the first int3 frame
# (asm_exc_int3) in a stall's or lockup's trace, trapped at a byte that is
# not 0xcc (the byte before "<" in the Code: line that follows, which the
# kernel reads from memory after the trap).  Nothing was being patched
# there, or the kernel's int3 handler would have taken it: a vCPU ran a
# stale TCG translation of kernel text patched while it ran, and died of
# it or looped in the trap until RCU called it a stall (selftests/qemu/
# README).
stale_int3() {
	awk '(/Oops: int3/ || /[ \t]asm_exc_int3\+/) && !seen { seen = 1; left = 12; next }
	     seen && left-- > 0 && / Code: / {
		if (match($0, /[0-9a-f][0-9a-f] </))
			stale = substr($0, RSTART, 2) != "cc"
		exit
	     }
	     END { exit !stale }' "$1"
}

main() {
	local ctx=5 log hits count bad=0

	if [[ ${1:-} == --patterns ]]; then
		patterns
		return
	fi
	if [[ ${1:-} == --stale-int3 ]]; then
		[[ -r ${2:-} ]] || die "usage: check-log.sh --stale-int3 LOG"
		stale_int3 "$2"
		return
	fi
	if [[ ${1:-} == -C ]]; then
		[[ ${2:-} =~ ^[0-9]+$ ]] || die "-C wants a number"
		ctx=$2
		shift 2
	fi
	(($#)) || die "usage: check-log.sh [-C N] LOG..."
	[[ -r $PATTERNS ]] || die "$PATTERNS not found"

	for log in "$@"; do
		[[ -r $log ]] || die "$log: cannot read"
		hits=$(hit_lines "$log" | tr '\n' ' ')
		[[ -n ${hits// /} ]] || continue
		count=$(wc -w <<<"$hits")
		echo "check-log: $log: $count offending kernel log line(s) (selftests/qemu/log-patterns):"
		show_hits "$log" "$ctx" "$hits"
		bad=1
	done
	return "$bad"
}

main "$@"
