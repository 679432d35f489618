# SPDX-License-Identifier: GPL-2.0
# Minimal kselftest-style TAP for the host test scripts: tap_check runs a
# command as one test; tap_done prints the totals line the runners count.
TAP_N=0
TAP_FAIL=0
echo "TAP version 13"

# tap_check DESCRIPTION COMMAND...: one test, passed when COMMAND succeeds.
tap_check() {
	local desc=$1 out
	shift
	TAP_N=$((TAP_N + 1))
	if out=$("$@" 2>&1); then
		echo "ok $TAP_N $desc"
	else
		TAP_FAIL=$((TAP_FAIL + 1))
		[[ -n $out ]] && sed 's/^/# /' <<<"$out"
		echo "not ok $TAP_N $desc"
	fi
}

tap_done() {
	echo "1..$TAP_N"
	echo "# Totals: pass:$((TAP_N - TAP_FAIL)) fail:$TAP_FAIL xfail:0 xpass:0 skip:0 error:0"
	((TAP_FAIL == 0))
}
