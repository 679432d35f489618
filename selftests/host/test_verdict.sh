#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Verdicts end to end, on real measurements of the userspace engine: a
# limit nothing can reach passes (exit 0), one everything is above fails
# (exit 7), in text, JSON and CSV; a limits file as a lab keeps it, and
# the command line replacing one of its limits; Ctrl-C during a judged run
# is exit 130, its verdict printed all the same.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CHECK=$REPO/selftests/host/check_format.py
tp_tmpdir OUT
export CLI OUT

# exits WANT COMMAND...: COMMAND's exit status is WANT.
exits() {
	local want=$1 rc
	shift
	"$@" >"$OUT/last" 2>"$OUT/last.err"
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "exit $rc, not $want: $*"; cat "$OUT/last.err"; return 1; }
}
export -f exits

noise() { "$CLI" noise --user -c 0-1 -d 200ms -q "$@"; }
cache() { "$CLI" cache --user -c 0-1 -n 2e4 -q "$@"; }
skew() { "$CLI" skew --user -c 0-1 -n 32 -q "$@"; }
export -f noise cache skew

tap_check "noise: a limit nothing reaches passes: exit 0" \
	exits 0 noise --fail-above 1h --fail-above p99.99:1s
tap_check "noise: ... and the text says pass on every CPU" bash -c \
	"tail -n 3 '$OUT/last' | grep -qx 'limits: pass: 2 of 2 met, on 2 CPUs'"
tap_check "noise: a limit every CPU is above fails: exit 7" \
	exits 7 noise --fail-above 1ns
tap_check "noise: ... and the text names each CPU and its excess" bash -c \
	"grep -qx 'limits: FAIL: 1 of 1 not met, on 2 of 2 CPUs' '$OUT/last' &&
	 grep -qx '  noise max 1ns (command line): FAIL on 2 of 2 CPUs' '$OUT/last' &&
	 [ \$(grep -c '^    cpu [01]: .*, .* over\$' '$OUT/last') -eq 2 ]"
tap_check "noise -j: the verdict object, failing CPUs with figure and excess" bash -c \
	"noise -j --fail-above p50:1c --fail-above 1h >'$OUT/n.json'; [ \$? -eq 7 ] &&
	 jq -e '.verdict.pass == false and (.verdict.limits | length) == 2 and
	        (.verdict.limits[0] | .name == \"p50\" and .unit == \"cycles\" and .limit == 1 and
	         .pass == false and (.failures | length) == 2 and
	         all(.failures[]; .judged and .excess > 0 and .figure == .limit + .excess)) and
	        (.verdict.limits[1] | .pass and .failures == [])' '$OUT/n.json' >/dev/null"
tap_check "noise -j: the figure judged is the report's (p50 in cycles)" bash -c \
	"jq -e '[.cpus[].p50_cycles] == [.verdict.limits[0].failures[].figure]' '$OUT/n.json' >/dev/null"
tap_check "noise --csv: verdict and failed_limits columns" bash -c \
	"noise --csv --fail-above 1ns >'$OUT/n.csv'; [ \$? -eq 7 ] &&
	 '$CHECK' csv '$OUT/n.csv' cpu samples max_cycles &&
	 python3 -c \"import csv,sys; r=list(csv.DictReader(open('$OUT/n.csv')));
sys.exit(not (len(r) == 2 and all(x['verdict'] == 'fail' and x['failed_limits'] == 'max 1ns' for x in r)))\""

tap_check "cache: p99 under a second passes: exit 0" \
	exits 0 cache --fail-above p99:1s --fail-above cached.max:1s
tap_check "cache: uncached p99 under 1 ns fails: exit 7" \
	exits 7 cache --fail-above p99:1ns
tap_check "cache -j: the figure is the report's net uncached p99, in ns" bash -c \
	"cache -j --fail-above p99:1c >'$OUT/c.json'; [ \$? -eq 7 ] &&
	 jq -e '[.cpus[].uncached.p99] == [.verdict.limits[0].failures[].figure] and
	        .verdict.limits[0].text == \"uncached.p99 1c\"' '$OUT/c.json' >/dev/null"

tap_check "skew: a skew of a cycle fails: exit 7" exits 7 skew --fail-above 1c
# A pair whose samples were mostly disturbed (this host runs other work)
# has no figure and fails too: a huge limit passes every pair judged.
tap_check "skew: a skew of an hour passes every judged pair" bash -c \
	"skew -j --fail-above 1h >'$OUT/s.json'; rc=\$?; [ \$rc -eq 0 -o \$rc -eq 7 ] &&
	 jq -e '(.verdict.limits[0].failures | all(.judged | not)) and
	        (.verdict.pass == (.verdict.limits[0].failures == []))' '$OUT/s.json' >/dev/null &&
	 [ \$rc -eq \$(jq 'if .verdict.pass then 0 else 7 end' '$OUT/s.json') ]"
tap_check "skew --csv: verdict columns last, after in_sync" bash -c \
	"skew --csv --fail-above 1c | head -n 1 | grep -q ',in_sync,.*,verdict,failed_limits.\$'"

cat >"$OUT/lab.limits" <<'EOF'
# What a qualified machine is, kept in git beside the pipeline.
noise max 1h          # every gap
noise p99.99 1s
cache p99 1s          # uncached, net of the overhead
cache cached.p99 1s
skew max 1h
EOF
tap_check "--limits: each command takes its lines: noise passes" \
	exits 0 noise --limits "$OUT/lab.limits"
tap_check "--limits: ... cache passes" exits 0 cache --limits "$OUT/lab.limits"
tap_check "--limits: the file's limits and where they came from, in JSON" bash -c \
	"noise -j --limits '$OUT/lab.limits' |
	 jq -e '[.verdict.limits[] | .text + \" @ \" + .source] ==
	        [\"max 1h @ $OUT/lab.limits:2\", \"p99.99 1s @ $OUT/lab.limits:3\"]' >/dev/null"
tap_check "--limits: --fail-above replaces the file's limit of its figure: exit 7" bash -c \
	"noise -j --limits '$OUT/lab.limits' --fail-above max:1ns >'$OUT/r.json'; [ \$? -eq 7 ] &&
	 jq -e '[.verdict.limits[] | .text + \" @ \" + .source + \" \" + (.pass | tostring)] ==
	        [\"max 1ns @ command line false\", \"p99.99 1s @ $OUT/lab.limits:3 true\"]' '$OUT/r.json' >/dev/null"
printf 'noise max 1h\n' >"$OUT/noise.limits"
tap_check "--limits: a file without the command's lines is refused: exit 2" \
	exits 2 skew --limits "$OUT/noise.limits"
printf 'noise max 1h\nnoise p99.99 1\n' >"$OUT/bad.limits"
tap_check "--limits: a bad line is refused, naming the file and line: exit 2" bash -c \
	"err=\$(noise --limits '$OUT/bad.limits' 2>&1 >/dev/null); [ \$? -eq 2 ] &&
	 [ \"\$err\" = \"tscprobe: $OUT/bad.limits:2: noise p99.99 1: a time needs a unit: 1us, 1ms or 1s, or 1c for TSC cycles (see 'tscprobe noise --help')\" ]"

# Ctrl-C: what was measured is printed and judged; the exit is Ctrl-C's.
interrupted() {
	local rc

	"$CLI" noise --user -c 0 -d 20s -q --fail-above 1ns >"$OUT/int.txt" 2>&1 &
	tap_ctrl_c $!
	rc=$?
	[ "$rc" -eq 130 ] || { echo "exit $rc, not 130"; return 1; }
	grep -qx 'limits: FAIL: 1 of 1 not met, on 1 of 1 CPU' "$OUT/int.txt"
}
tap_check "Ctrl-C during a failing run: exit 130, the verdict printed" interrupted

# --prom: the verdict as two families, for a textfile collector's alerts.
prom_verdict() {
	local p

	exits 7 noise --prom --fail-above 1ns --fail-above p99:1h || return 1
	p=$(cat "$OUT/last")
	if ! grep -qx 'tscprobe_verdict_pass 0' <<<"$p" ||
		! grep -qx 'tscprobe_limit_failing{limit="max",text="max 1ns"} 2' <<<"$p" ||
		! grep -qx 'tscprobe_limit_failing{limit="p99",text="p99 1h"} 0' <<<"$p"; then
		grep 'verdict\|limit_failing' <<<"$p"
		return 1
	fi
	"$CHECK" prom "$OUT/last"
}
tap_check "--prom: tscprobe_verdict_pass 0 and the CPUs failing each limit" prom_verdict
tap_check "--prom: a verdict that passes is 1; no limits, no such family" bash -c \
	"noise --prom --fail-above 1h | grep -qx 'tscprobe_verdict_pass 1' &&
	 ! noise --prom | grep -q '^tscprobe_verdict_pass'"
tap_done
