#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Which tests a VM run runs: a C program's arguments choose its tests
# (selftests/vm/tp_test.h, tp_choose_tests()), and selftests/vm/run.sh
# builds its default list, --skip "PROGRAM NAME..." leaving tests out and
# a guest without nohz_full=1 leaving out the test that needs it.  Nothing
# here boots a guest or runs a test of the module: test_smi has one test,
# and leaving it out runs none.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SMI=$REPO/build/vm-tests/test_smi
RUN=$REPO/selftests/vm/run.sh

# The program's one test left out: a plan of none, and success.
leaving_all_out_runs_none() {
	local out

	out=$("$SMI" -smi_unknown_where_unreadable 2>&1) || { echo "$out"; return 1; }
	grep -qx '1\.\.0' <<<"$out" || { echo "$out"; return 1; }
}

# A name no test has, or names to run beside names to leave out: status
# 2 and a line that says which, before any test runs.
bad_names_are_refused() {
	local out rc

	out=$("$SMI" smi_unknown_where_unreadable no_such_test 2>&1) && rc=0 || rc=$?
	[[ $rc == 2 && $out == *"no test named no_such_test"* && $out != *TAP* ]] ||
		{ echo "status $rc: $out"; return 1; }
	out=$("$SMI" smi_unknown_where_unreadable -smi_unknown_where_unreadable 2>&1) &&
		rc=0 || rc=$?
	[[ $rc == 2 && $out == *"not both"* ]] || { echo "status $rc: $out"; return 1; }
}

# The default list: the nohz_full test left out but where the guest boots
# with nohz_full=1, and a --skip of tests added to the program's line.
default_list_leaves_out_what_cannot_run() {
	local plain nohz skip

	plain=$("$RUN" --list) || return 1
	nohz=$("$RUN" --append "mitigations=off nohz_full=1" --list) || return 1
	skip=$("$RUN" --skip "test_faults rmmod_mid_run stop_at_random_moments" \
		--skip test_ynl.sh --list) || return 1
	grep -qx 'test_faults -held_after_a_long_warm_up' <<<"$plain" &&
		grep -qx 'test_faults' <<<"$nohz" &&
		grep -qx 'test_faults -rmmod_mid_run -stop_at_random_moments -held_after_a_long_warm_up' \
			<<<"$skip" &&
		! grep -q 'test_ynl' <<<"$skip" && grep -qx 'test_ynl.sh' <<<"$plain" || {
		printf '%s\n---\n' "$plain" "$nohz" "$skip"
		return 1
	}
}

tap_check "a program runs none of its tests when all are left out" \
	leaving_all_out_runs_none
tap_check "a program refuses names of no test, and mixed choices" \
	bad_names_are_refused
tap_check "run.sh's default list leaves out what the guest cannot run" \
	default_list_leaves_out_what_cannot_run
tap_done
