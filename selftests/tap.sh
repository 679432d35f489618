# SPDX-License-Identifier: GPL-2.0
#
# TAP for the guest's test scripts (busybox sh; sourced, after OUT is set):
# check runs a command as one test, tap_done prints the plan and the
# kselftest totals line the harness counts and returns the verdict.
# selftests/vm/run.sh puts it at /selftests/tap.sh.
N=0
FAILED=0
echo "TAP version 13"

# check DESCRIPTION COMMAND...: one test, passed when COMMAND succeeds; a
# failure shows the command's output (its first 100 lines) as comments.
check() {
	desc=$1
	shift
	N=$((N + 1))
	if "$@" >"$OUT/last" 2>&1; then
		echo "ok $N $desc"
	else
		FAILED=$((FAILED + 1))
		sed 's/^/# /' "$OUT/last" | head -n 100
		echo "not ok $N $desc"
	fi
}

# fresh_module KO: one test, KO loaded anew (idle, no results), whatever
# the program before this one in the suite left loaded.
fresh_module() {
	if grep -q '^tscprobe ' /proc/modules; then
		rmmod tscprobe || echo "# rmmod of the module left loaded failed"
	fi
	check "insmod" insmod "$1"
}

tap_done() {
	echo "1..$N"
	echo "# Totals: pass:$((N - FAILED)) fail:$FAILED xfail:0 xpass:0 skip:0 error:0"
	[ "$FAILED" -eq 0 ]
}
