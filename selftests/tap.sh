# SPDX-License-Identifier: GPL-2.0
#
# tap.sh - kselftest-style TAP for the test scripts, the host's (bash) and
# the guest's (busybox sh) alike; sourced.  tap_check runs a command as one
# test; tap_done prints the plan and the totals line the runners count
# (tap-count.sh) and returns the verdict.  selftests/vm/run.sh puts this
# file at /selftests/tap.sh in the guest.
#
# A script run with arguments runs only the checks they name (the first
# word of each check's COMMAND, a function's name), and all the others not
# at all: "test_sources.sh busy_thread_is_named named_time_fits".  A name
# that no check had is one failed test.
TAP_N=0
TAP_FAIL=0
TAP_ONLY=" $* "
TAP_RAN=" "
# The output of the last check, for a script that wants to show it.
TAP_LAST=${TAP_LAST:-$(mktemp)}
echo "TAP version 13"

# tap_check DESCRIPTION COMMAND...: one test, passed when COMMAND succeeds;
# a failure shows the command's output (its first 100 lines) as comments.
# COMMAND runs in this shell: it may leave processes for later checks.
tap_check() {
	[ "$TAP_ONLY" = "  " ] || [ -z "${TAP_ONLY##* "$2" *}" ] || return 0
	TAP_RAN="$TAP_RAN$2 "
	tap_run "$@"
}

# tap_run DESCRIPTION COMMAND...: tap_check, whatever the arguments name.
tap_run() {
	tap_desc=$1
	shift
	TAP_N=$((TAP_N + 1))
	if "$@" >"$TAP_LAST" 2>&1; then
		echo "ok $TAP_N $tap_desc"
	else
		TAP_FAIL=$((TAP_FAIL + 1))
		awk 'NR <= 100 { print "# " $0 }' "$TAP_LAST"
		echo "not ok $TAP_N $tap_desc"
	fi
}

# tap_fresh_module KO: one test in the guest, KO loaded anew (idle, no
# results), whatever the program before this one in the suite left loaded.
tap_fresh_module() {
	if grep -q '^tscprobe ' /proc/modules; then
		rmmod tscprobe || echo "# rmmod of the module left loaded failed"
	fi
	tap_run "insmod" insmod "$1"
}

# tap_wait_for SECONDS COMMAND...: true once COMMAND succeeds, tried every
# 50 ms for up to SECONDS; false if it never does.
tap_wait_for() {
	tap_tries=$(($1 * 20))
	shift
	while [ "$tap_tries" -gt 0 ]; do
		"$@" && return 0
		sleep 0.05
		tap_tries=$((tap_tries - 1))
	done
	return 1
}

# tap_catches PID SIGNUM: PID has a handler for SIGNUM (SigCgt in
# /proc/PID/status).  A signal sent to a background job before the program
# sets its handler is ignored (a shell without job control starts such
# jobs so) or kills it.  Until it calls exec, the job is a copy of this
# shell, whose own SIGINT handler would pass for the program's.
tap_catches() {
	[ "$(readlink "/proc/$1/exe")" != "$(readlink "/proc/$$/exe")" ] || return 1
	tap_mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$tap_mask" ] || return 1
	tap_mask=${tap_mask#????????}	# the low 32 signals
	[ $(((0x$tap_mask >> ($2 - 1)) & 1)) -eq 1 ]
}

# tap_ctrl_c PID: Ctrl-C (SIGINT) to the background job PID once it
# catches it, half a second later, and its exit status; when it has not
# caught it within 20 s, a line saying so, SIGKILL, and status 1.
tap_ctrl_c() {
	if ! tap_wait_for 20 tap_catches "$1" 2; then
		echo "Ctrl-C never caught"
		kill -9 "$1"
		wait "$1"
		return 1
	fi
	sleep 0.5
	kill -INT "$1"
	wait "$1"
}

tap_done() {
	for tap_name in $TAP_ONLY; do
		[ -z "${TAP_RAN##* "$tap_name" *}" ] ||
			tap_run "a check named $tap_name, as asked" false
	done
	echo "1..$TAP_N"
	echo "# Totals: pass:$((TAP_N - TAP_FAIL)) fail:$TAP_FAIL xfail:0 xpass:0 skip:0 error:0"
	rm -f "$TAP_LAST"
	[ "$TAP_FAIL" -eq 0 ]
}
