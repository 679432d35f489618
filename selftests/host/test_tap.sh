#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The waits of selftests/tap.sh that the Ctrl-C tests rest on: a program
# that catches SIGINT is seen to, and a job that is still a copy of the
# shell (between its fork and its exec) is not taken for the program,
# though the shell catches SIGINT itself.  SIGUSR1 stands in for SIGINT:
# a background job starts with SIGINT ignored, which bash's trap keeps.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PROGRAM='import signal, time; signal.signal(signal.SIGUSR1, print); time.sleep(30)'

# A program other than the shell that catches the signal is seen to.
program_is_seen() {
	local pid rc

	python3 -c "$PROGRAM" &
	pid=$!
	tap_wait_for 10 tap_catches "$pid" 10
	rc=$?
	kill -9 "$pid"
	wait "$pid"
	return "$rc"
}

# A job that stays the shell, with a handler of its own, as a job is for
# a moment before its exec, is not taken for the program; once it execs
# one that catches the signal, it is.
shell_is_not_the_program() {
	local pid rc=0

	bash -c 'trap : USR1; sleep 2; exec python3 -c "$1"' - "$PROGRAM" &
	pid=$!
	sleep 0.5
	if tap_catches "$pid" 10; then
		echo "the shell's own handler taken for the program's"
		rc=1
	fi
	tap_wait_for 10 tap_catches "$pid" 10 || { echo "the program never seen"; rc=1; }
	kill -9 "$pid"
	wait "$pid"
	return "$rc"
}

tap_check "a program that catches the signal is seen to" program_is_seen
tap_check "a job still the shell is not the program" shell_is_not_the_program
tap_done
