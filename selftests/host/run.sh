#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run the host unit tests (kselftest programs) given as
# arguments and print their TAP; the last line is "host: N passed, N failed"
# and the exit status is non-zero when anything failed.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$@"; do
	echo "# program: $(basename "$t")"
	t0=$SECONDS
	(cd "$REPO" && "$t") 2>&1 | tee -a "$log"
	echo "# program: $(basename "$t") took $((SECONDS - t0)) s"
done
read -r pass fail < <("$REPO/selftests/tap-count.sh" "$log" "$#")
echo "host: $pass passed, $fail failed"
((fail == 0))
