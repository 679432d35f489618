#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh - the whole suite, as "make test" runs it: the kernel gates (W=1,
# sparse, checkpatch), the host unit tests (plain, then built with ASan and
# UBSan), then the VM suite.  Every part runs even if
# an earlier one failed; the last line is "N passed, N failed" over all of
# them and the exit status is non-zero when anything failed.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MAKE=${MAKE:-make}
pass=0
fail=0

# part NAME COMMAND...: run a part; count the "N passed, N failed" it ends
# with, or one failure if it ends without one.
part() {
	local name=$1 log last p f
	shift
	log=$(mktemp)
	echo "== $name"
	"$@" 2>&1 | tee "$log"
	last=$(grep -E '[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [[ $last =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		p=${BASH_REMATCH[1]}
		f=${BASH_REMATCH[2]}
	else
		p=0
		f=1
	fi
	rm -f "$log"
	pass=$((pass + p))
	fail=$((fail + f))
}

# The kernel gates count as one test each.
gates() {
	local p=0 f=0
	if "$MAKE" --no-print-directory -C "$REPO" check-kernel; then
		p=$((p + 1))
	else
		f=$((f + 1))
	fi
	if "$REPO/tools/checkpatch.sh"; then
		p=$((p + 1))
	else
		f=$((f + 1))
	fi
	echo "gates: $p passed, $f failed"
}

start=$SECONDS
part "kernel gates: W=1, sparse, checkpatch --strict" gates
part "host tests" "$MAKE" --no-print-directory -C "$REPO" host-test
part "host tests with AddressSanitizer and UBSan" \
	"$MAKE" --no-print-directory -C "$REPO" host-test-asan
part "VM tests" "$MAKE" --no-print-directory -C "$REPO" vm-test
echo "== $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
((fail == 0))
