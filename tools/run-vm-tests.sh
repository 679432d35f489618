#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm-tests.sh - run the kselftest programs of selftests/vm in the guest.
#
# usage: run-vm-tests.sh [--kernel PATH] [--smp N] [--keep DIR] [TEST...]
#
# Boots the Debian cloud kernel once (tools/vm/run-vm.sh) with the module,
# the CLI, jq and the test programs, runs every program (or the named ones;
# by default every test_* and fuzz_*) and prints their TAP.  Environment
# variables named TP_* (TP_FUZZ_SEED, TP_FUZZ_COUNT, ...) are passed on to
# the programs in the guest.  The last line is "vm: N passed, N failed"; the exit
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
	for t in "$BUILD"/vm-tests/test_* "$BUILD"/vm-tests/fuzz_*; do
		[[ -e $t ]] && TESTS+=("$(basename "$t")")
	done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The guest script: every program in turn, output not on a terminal (so
# the CLI behaves as it does in scripts), separated by a header line.
{
	echo 'mkdir -p /tmp && cd /tmp'
	for v in $(compgen -v TP_ || true); do
		printf 'export %s=%q\n' "$v" "${!v}"
	done
	for t in "${TESTS[@]}"; do
		echo "echo '# program: $t'; t0=\$(cut -d. -f1 /proc/uptime)"
		echo "/selftests/$t 2>&1 | cat"
		echo "echo \"# program: $t took \$((\$(cut -d. -f1 /proc/uptime) - t0)) s\""
	done
	echo 'lsmod 2>/dev/null | grep -q "^tscprobe " && rmmod tscprobe'
	echo 'exit 0'
} >"$work/guest.sh"

adds=(--add "$REPO/kmod/tscprobe.ko:/lib/tscprobe/tscprobe.ko"
      --add "$BUILD/tscprobe:/usr/bin/tscprobe"
      --add "$(command -v jq):/usr/bin/jq")
# The soak's timer (selftests/vm/timerlat.c), for any program that wants it.
[[ -x $BUILD/vm-tests/timerlat ]] &&
	adds+=(--add "$BUILD/vm-tests/timerlat:/usr/bin/timerlat")
for t in "${TESTS[@]}"; do
	adds+=(--add "$BUILD/vm-tests/$t:/selftests/$t")
done

# slub_debug=U on the kmalloc caches: every live object keeps its
# allocation's stack trace, so test_faults can tell an object the module
# leaked from anything else (a few per cent slower allocations).
status=0
"$REPO/tools/vm/run-vm.sh" --timeout 900 --append "slub_debug=U,kmalloc-*" \
	"${VM_ARGS[@]}" "${adds[@]}" "$work/guest.sh" | tee "$work/tap.log" ||
	status=$?

read -r pass fail < <("$REPO/tools/tap-count.sh" "$work/tap.log" "${#TESTS[@]}")
if ((status != 0)); then
	echo "# vm: the guest failed (status $status): counted as one failure"
	fail=$((fail + 1))
fi
echo "vm: $pass passed, $fail failed"
((fail == 0))
