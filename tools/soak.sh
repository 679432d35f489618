#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh - "make soak": boot the test VM and run every measurement on every
# CPU, segment after segment, for a long time (selftests/vm/soak.c), with a
# timer checked on every CPU (selftests/vm/timerlat.c); the kernel log of the
# whole run is scanned for lockups, RCU stalls, hung tasks and warnings.
#
# usage: soak.sh [--minutes N] [--segment SECONDS] [--kernel PATH] [--smp N]
#                [--keep DIR]
#
# Defaults: 10 minutes, 60 s segments.  TP_SLACK_MS (default 750) is the
# timer's allowance for the emulator, see selftests/vm/soak.c.  The last line
# is "soak: N passed, N failed"; the exit status is non-zero on a failure.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
minutes=${SOAK_MINUTES:-10}
segment=60
args=()

while (($#)); do
	case $1 in
	--minutes) minutes=$2; shift 2 ;;
	--segment) segment=$2; shift 2 ;;
	--kernel|--smp|--keep) args+=("$1" "$2"); shift 2 ;;
	*) echo "soak: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if ! [[ $minutes =~ ^[0-9]+$ && $segment =~ ^[0-9]+$ ]] || ((minutes < 1 || segment < 10)); then
	echo "soak: --minutes wants a whole number >= 1, --segment seconds >= 10" >&2
	exit 2
fi

echo "soak: $minutes minutes of measurements on every CPU in the VM"
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Boot and the end of the run get ten minutes on top of the soak itself.
TP_SOAK_MINUTES=$minutes TP_SOAK_SEGMENT_S=$segment \
	"$REPO/selftests/vm/run.sh" --timeout $((minutes * 60 + 600)) \
	"${args[@]}" soak 2>&1 | tee "$log" || status=$?
read -r pass fail < <(grep -E '^vm: [0-9]+ passed, [0-9]+ failed$' "$log" |
	sed -E 's/^vm: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/')
echo "soak: ${pass:-0} passed, ${fail:-1} failed"
((status == 0))
