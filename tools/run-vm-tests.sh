#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm-tests.sh - run the kselftest programs of selftests/vm in the guest.
#
# usage: run-vm-tests.sh [--kernel PATH] [--smp N] [--keep DIR] [TEST...]
#
# Boots the Debian cloud kernel once (tools/vm/run-vm.sh) with the module,
# the CLI, jq and the test programs, runs every program (or the named ones)
# and prints their TAP.  The last line is "vm: N passed, N failed"; the exit
# status is non-zero when anything failed, including a guest that panicked,
# hung, or left a WARNING, lockup or stall in its kernel log.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$REPO/build
VM_ARGS=()
TESTS=()

while (($#)); do
	case $1 in
	--kernel|--smp|--keep|--timeout)
		VM_ARGS+=("$1" "$2")
		shift 2
		;;
	-*)
		echo "run-vm-tests: unknown option $1" >&2
		exit 2
		;;
	*)
		TESTS+=("$1")
		shift
		;;
	esac
done
if ((${#TESTS[@]} == 0)); then
	for t in "$BUILD"/vm-tests/test_*; do
		TESTS+=("$(basename "$t")")
	done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The guest script: every program in turn, output not on a terminal (so
# the CLI behaves as it does in scripts), separated by a header line.
{
	echo 'mkdir -p /tmp && cd /tmp'
	for t in "${TESTS[@]}"; do
		echo "echo '# program: $t'"
		echo "/selftests/$t 2>&1 | cat"
	done
	echo 'lsmod 2>/dev/null | grep -q "^tscprobe " && rmmod tscprobe'
	echo 'exit 0'
} >"$work/guest.sh"

adds=(--add "$REPO/kmod/tscprobe.ko:/lib/tscprobe/tscprobe.ko"
      --add "$BUILD/tscprobe:/usr/bin/tscprobe"
      --add "$(command -v jq):/usr/bin/jq")
for t in "${TESTS[@]}"; do
	adds+=(--add "$BUILD/vm-tests/$t:/selftests/$t")
done

status=0
"$REPO/tools/vm/run-vm.sh" --timeout 900 "${VM_ARGS[@]}" "${adds[@]}" \
	"$work/guest.sh" | tee "$work/tap.log" || status=$?

read -r pass fail < <("$REPO/tools/tap-count.sh" "$work/tap.log" "${#TESTS[@]}")
if ((status != 0)); then
	echo "# vm: the guest failed (status $status): counted as one failure"
	fail=$((fail + 1))
fi
echo "vm: $pass passed, $fail failed"
((fail == 0))
