#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-count.sh - sum the kselftest totals in a TAP log.
#
# usage: tap-count.sh LOG EXPECTED_PROGRAMS
# Prints "PASS FAIL": passes, and failures plus errors plus skips (a check
# that did not run is not a pass), plus one failure for every program that
# ended without printing its totals (it crashed or hung).
set -euo pipefail

log=$1
expected=$2
awk -v expected="$expected" '
	/^# Totals: / {
		for (i = 3; i <= NF; i++) {
			split($i, kv, ":")
			if (kv[1] == "pass" || kv[1] == "xfail")
				pass += kv[2]
			else if (kv[1] != "xpass" || kv[2] > 0)
				fail += kv[2]
		}
		programs++
	}
	END {
		if (programs < expected)
			fail += expected - programs
		printf "%d %d\n", pass, fail
	}' "$log"
