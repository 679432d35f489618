#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every output format, parsed back by a real parser (jq, Python's csv,
# prometheus_client's text parser, Chromium rendering the SVG to a PNG
# that must not be blank), on real measurements of the userspace engine;
# and noise --compare on the host (the userspace engine alone, since the
# host cannot load the module).
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CHECK=$REPO/selftests/host/check_format.py
tp_tmpdir OUT

# The checks run in "bash -c" (for their pipes and redirections): the
# helpers below and the variables they read are exported to it.
export CLI OUT
run() {
	"$CLI" noise --user -c 0-1 -d 200ms -q "$@"
}
export -f run

tap_check "noise --json parses" bash -c "'$CLI' noise --user -c 0 -d 100ms -j | jq -e '.cpus[0].samples > 0' >/dev/null"
tap_check "noise --csv runs" bash -c "run --csv > '$OUT/n.csv'"
tap_check "noise --csv parses: a row per CPU" "$CHECK" csv "$OUT/n.csv" cpu samples \
	coverage p50_cycles p9999_cycles max_cycles events_total
tap_check "noise --csv has 2 rows" bash -c "[ \$(wc -l < '$OUT/n.csv') -eq 3 ]"
tap_check "noise --prom runs" bash -c "run --prom > '$OUT/n.prom'"
tap_check "noise --prom parses and follows the rules" "$CHECK" prom "$OUT/n.prom"
tap_check "noise --prom: unreadable counters have no sample" \
	bash -c "! grep -q '^tscprobe_noise_smi_total' '$OUT/n.prom'"
tap_check "noise --svg runs" bash -c "run --svg '$OUT/n.svg' >/dev/null"
tap_check "noise --svg renders in Chromium, not blank" "$CHECK" svg "$OUT/n.svg" "$OUT/n.png"
tap_check "--svg with --csv: both" bash -c "run --csv --svg '$OUT/b.svg' | head -1 | grep -q ^kind, && test -s '$OUT/b.svg'"
tap_check "two stdout formats: usage error" bash -c "'$CLI' noise --user -j --csv 2>/dev/null; [ \$? -eq 2 ]"
tap_check "unwritable --svg: refused before the run, exit 2, one line" bash -c \
	"e=\$('$CLI' noise --user -c 0 -d 10ms --csv --svg /nonexistent/x.svg 2>&1 >/dev/null); s=\$?; [ \$s -eq 2 ] && [ \$(echo \"\$e\" | wc -l) -eq 1 ]"
tap_check "noise --compare refuses --csv" bash -c "'$CLI' noise --compare --csv 2>/dev/null; [ \$? -eq 2 ]"
skew() {
	"$CLI" skew --user -c 0-1 -n 32 -q "$@"
}
export -f skew
tap_check "skew --json parses: 2 ordered pairs" bash -c "skew -j | jq -e '.pairs | length == 2' >/dev/null"
tap_check "skew --csv runs" bash -c "skew --csv > '$OUT/s.csv'"
tap_check "skew --csv parses: a row per pair" "$CHECK" csv "$OUT/s.csv" from to nr \
	latij_min skew_avg one_way_avg one_way_ns
tap_check "skew --prom runs" bash -c "skew --prom > '$OUT/s.prom'"
tap_check "skew --prom parses and follows the rules" "$CHECK" prom "$OUT/s.prom"
tap_check "skew --svg runs" bash -c "skew --svg '$OUT/s.svg' >/dev/null"
tap_check "skew --svg renders in Chromium, not blank" "$CHECK" svg "$OUT/s.svg" "$OUT/s.png"

cache() {
	"$CLI" cache --user -c 0-1 -n 2e4 -q "$@"
}
export -f cache
tap_check "cache --json parses: 2 CPUs" bash -c "cache -j | jq -e '.cpus | length == 2' >/dev/null"
tap_check "cache --csv runs" bash -c "cache --csv > '$OUT/c.csv'"
tap_check "cache --csv parses: a row per CPU" "$CHECK" csv "$OUT/c.csv" cpu rounds \
	overhead_avg cached_avg uncached_p99 cached_avg_last_1e3 overhead_p50_base
tap_check "cache --csv: no 1e5 window after 2e4 rounds (empty field)" bash -c \
	"python3 -c \"import csv,sys; r=list(csv.DictReader(open('$OUT/c.csv'))); sys.exit(any(x['cached_avg_last_1e5'] for x in r))\""
tap_check "cache --prom runs" bash -c "cache --prom > '$OUT/c.prom'"
tap_check "cache --prom parses and follows the rules" "$CHECK" prom "$OUT/c.prom"
tap_check "cache --svg runs (with levels)" bash -c "'$CLI' cache --user -c 0 -n 1e4 --levels -q --svg '$OUT/c.svg' >/dev/null"
tap_check "cache --svg renders in Chromium, not blank" "$CHECK" svg "$OUT/c.svg" "$OUT/c.png"

# diff: two saved reports of one kind
"$CLI" noise --user -c 0-1 -d 300ms -q -j >"$OUT/da.json"
jq '.cpus[1].p9999_cycles *= 10 | .environment.isolated = [1] |
    .environment.cpus[1].isolated = true | .environment.bios_version = "A" |
    .environment.nmi_watchdog = true' "$OUT/da.json" >"$OUT/db.json"
jq '.environment.bios_version = "B" | .environment.nmi_watchdog = false' \
	"$OUT/db.json" >"$OUT/db2.json"
tap_check "diff: a report against itself shows no change" bash -c \
	"'$CLI' diff '$OUT/da.json' '$OUT/da.json' | grep -qx 'no change: every figure is the same in both reports' &&
	 '$CLI' diff '$OUT/da.json' '$OUT/da.json' | grep -qx 'environment and parameters: the same'"
tap_check "diff: one CPU changed is named, with the tuning at the top" bash -c \
	"out=\$('$CLI' diff '$OUT/da.json' '$OUT/db.json') &&
	 grep -q '^1 .*(+900%).*\*\$' <<<\"\$out\" && ! grep -q '^0 .*\*\$' <<<\"\$out\" &&
	 grep -qx 'changed (\*): 1 of 2 CPUs' <<<\"\$out\" &&
	 grep -qx '  isolated: no -> yes on CPU 1' <<<\"\$out\" && grep -qx '  isolated: none -> 1' <<<\"\$out\""
tap_check "diff: a firmware update and the NMI watchdog are named" bash -c \
	"out=\$('$CLI' diff '$OUT/db.json' '$OUT/db2.json') &&
	 grep -qx '  bios_version: A -> B' <<<\"\$out\" && grep -qx '  nmi_watchdog: yes -> no' <<<\"\$out\" ||
	 { echo \"\$out\"; false; }"
# A report says where it came from: diff names a kernel (host, tscprobe)
# change with the tuning, and never the time the runs started.
jq '.kernel = "6.12.0-test-amd64" | .started = "2000-01-01T00:00:00Z"' \
	"$OUT/da.json" >"$OUT/dk.json"
tap_check "diff: a kernel change is named, the start time is not" bash -c \
	"out=\$('$CLI' diff '$OUT/da.json' '$OUT/dk.json') &&
	 grep -qx \"  kernel: \$(uname -r) -> 6.12.0-test-amd64\" <<<\"\$out\" &&
	 ! grep -q started <<<\"\$out\" || { echo \"\$out\"; false; }"
tap_check "diff -j: every CPU, the change in per cent" bash -c \
	"'$CLI' diff -j '$OUT/da.json' '$OUT/db.json' | jq -e '(.cpus | length == 2) and
	 (.cpus[1][\"p99.99_cycles\"].change_pct == 900) and .cpus[1].changed and (.cpus[0].changed | not) and
	 any(.environment[]; .what == \"isolated\" and .cpus == [1])' >/dev/null"
# A maximum of 64,749,854 cycles and an average of 1,234,567.8 come back
# from diff -j as written, not as 6.47499e+07 and 1.23457e+06.
tap_check "diff -j: figures exact" bash -c \
	"jq '.cpus[0].max_cycles = 64749854' '$REPO/selftests/host/golden/noise.json' >'$OUT/dmax.json' &&
	 jq '.cpus[0].cached.avg = 1234567.8' '$REPO/selftests/host/golden/cache.json' >'$OUT/davg.json' &&
	 '$CLI' diff -j '$REPO/selftests/host/golden/noise.json' '$OUT/dmax.json' |
	 jq -e '.cpus[0].max_cycles.b == 64749854' >/dev/null &&
	 '$CLI' diff -j '$REPO/selftests/host/golden/cache.json' '$OUT/davg.json' |
	 jq -e '.cpus[0].cached_avg.b == 1234567.8' >/dev/null"
# diff of the golden report $1 against $2, a copy jq edited with $3: its
# sources' heading is $4 and each of $5... matches a line of the text.
diff_sources() {
	local golden=$REPO/selftests/host/golden/$1 copy=$2 out pattern

	jq "$3" "$golden" >"$copy" && out=$("$CLI" diff "$golden" "$copy") || return 1
	shift 3
	grep -qx "$1" <<<"$out" || { echo "$out"; return 1; }
	for pattern in "${@:2}"; do
		grep -q "$pattern" <<<"$out" || { echo "$out"; return 1; }
	done
}
# The module's sources (the golden report has them): a CPU whose thread
# time fell and whose largest source changed, one whose sources are gone.
tap_check "diff: the sources of each CPU, A -> B, where either has them" diff_sources \
	noise.json "$OUT/dsrc.json" '.cpus[0].sources.kinds.thread.ns = 100 |
	.cpus[0].sources.named[0] = {kind: "irq", id: 24, name: "virtio0-input",
	count: 1, cycles: 5, ns: 2} | .cpus[1].sources = null' \
	'sources (net time inside the windows), A -> B:' \
	'^  CPU 0: thread 4.3ms -> 100ns (-100%), .*; largest: thread 4242 stress-ng -> irq 24 virtio0-input$' \
	'^  CPU 1: thread 4.3ms -> n/a, .*; largest: thread 4242 stress-ng -> n/a$'
# As a reader without CAP_NET_ADMIN has them: the threads summed, an
# interrupt's thread not named; the largest says so.
tap_check "diff: the largest source as the module named it to the reader" diff_sources \
	noise.json "$OUT/dwithheld.json" '.cpus[0].sources.named[0] = {kind: "thread",
	id: null, name: null, thread: null, withheld: true, count: 3, cycles: 5, ns: 2} |
	.cpus[1].sources.named[0] = {kind: "irq", id: 4, name: "ttyS0",
	thread: {pid: null, name: null}, withheld: true, count: 1, cycles: 5, ns: 2}' \
	'sources (net time inside the windows), A -> B:' \
	'^  CPU 0: .*; largest: thread 4242 stress-ng -> threads (names need CAP_NET_ADMIN)$' \
	'^  CPU 1: .*; largest: thread 4242 stress-ng -> irq 4 ttyS0 (thread: name needs CAP_NET_ADMIN)$'
tap_check "diff: two userspace reports have no net time to compare" bash -c \
	"! '$CLI' diff '$OUT/da.json' '$OUT/db.json' | grep -q '^sources (net time'"
tap_check "diff -j: the sources, null where neither report has them" bash -c \
	"'$CLI' diff -j '$REPO/selftests/host/golden/noise.json' '$OUT/dsrc.json' | jq -e '
	 (.cpus[0].sources.thread_ns | .a > 4e6 and .b == 100 and .change_pct < -99) and
	 (.cpus[0].sources.largest == {a: \"thread 4242 stress-ng\", b: \"irq 24 virtio0-input\"}) and
	 (.cpus[1].sources.largest.b == null) and (.cpus[1].sources.irq_ns.b == null)' >/dev/null &&
	 '$CLI' diff -j '$OUT/da.json' '$OUT/db.json' | jq -e 'all(.cpus[]; .sources.irq_ns == null)' >/dev/null"
# The userspace engine's sources are counts without time: against the
# module's, its side is n/a, and its null ids and times break nothing.
tap_check "diff: the userspace engine's untimed sources are n/a" bash -c \
	"out=\$('$CLI' diff '$REPO/selftests/host/golden/noise.json' '$REPO/selftests/host/golden/noise-user.json') &&
	 grep -q '^  CPU 0: thread 4.3ms -> n/a, .*; largest: thread 4242 stress-ng -> n/a\$' <<<\"\$out\" &&
	 '$CLI' diff -j '$REPO/selftests/host/golden/noise-user.json' '$REPO/selftests/host/golden/noise.json' |
	 jq -e '(.cpus[0].sources.irq_ns.a == null) and (.cpus[0].sources.largest.a == null) and
		(.cpus[0].sources.largest.b == \"thread 4242 stress-ng\")' >/dev/null || { echo \"\$out\"; false; }"
# Two userspace reports: their counts over the run, A -> B, the largest by
# name ("irq LOC": no id), a CPU without sources on one side n/a.
tap_check "diff: two userspace reports compare their sources' counts" diff_sources \
	noise-user.json "$OUT/dcount.json" '.cpus[0].sources.kinds.irq.count = 20 |
	.cpus[0].sources.named[0] = {kind: "softirq", id: 9, name: "RCU", count: 12,
	cycles: null, ns: null} | .cpus[1].sources = null' \
	'sources (counts over the run, userspace engine), A -> B:' \
	'^  CPU 0: thread 0 -> 0 (+0%), softirq 9 -> 9 (+0%), irq 10 -> 20 (+100%), nmi n/a -> n/a; largest: irq LOC -> softirq 9 RCU$' \
	'^  CPU 1: thread 3 -> n/a, .*; largest: irq LOC -> n/a$'
tap_check "diff -j: the counts, null where a report has none" bash -c \
	"'$CLI' diff -j '$REPO/selftests/host/golden/noise-user.json' '$OUT/dcount.json' |
	 jq -e '(.cpus[0].sources.irq_count | .a == 10 and .b == 20 and .change_pct == 100) and
		(.cpus[0].sources.nmi_count.a == null) and (.cpus[1].sources.largest.b == null)' >/dev/null"
"$CLI" skew --user -c 0-1 -n 16 -q -j >"$OUT/ds.json"
jq '.pairs[1].skew.avg |= fabs + 50' "$OUT/ds.json" >"$OUT/ds2.json"
tap_check "diff skew: the pair whose skew changed is named, the other not" bash -c \
	"out=\$('$CLI' diff '$OUT/ds.json' '$OUT/ds2.json') &&
	 grep -q '^1 -> 0 .*\*\$' <<<\"\$out\" && ! grep -q '^0 -> 1 ' <<<\"\$out\" &&
	 grep -qx 'changed (\*): 1 of 2 pairs' <<<\"\$out\" &&
	 '$CLI' diff '$OUT/ds.json' '$OUT/ds.json' | grep -qx 'no change: every figure is the same in both reports'"
"$CLI" cache --user -c 0-1 -n 1e4 -q -j >"$OUT/dc.json"
jq 'del(.cpus[1])' "$OUT/da.json" >"$OUT/dd.json"
echo '{"kind": "noise"' >"$OUT/de.json"
echo '{"kind": "other", "cpus": []}' >"$OUT/df.json"
diff_refused() {
	local out rc
	out=$("$CLI" diff "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] || { echo "rc=$rc: $out"; return 1; }
}
export -f diff_refused
export CLI
tap_check "diff: kinds differ: one line, exit 2" diff_refused "$OUT/da.json" "$OUT/dc.json"
tap_check "diff: a CPU missing on one side: one line, exit 2" diff_refused "$OUT/da.json" "$OUT/dd.json"
tap_check "diff: not JSON: one line, exit 2" diff_refused "$OUT/da.json" "$OUT/de.json"
tap_check "diff: not a tscprobe report: one line, exit 2" diff_refused "$OUT/df.json" "$OUT/da.json"
tap_check "diff: a file that cannot be read: one line, exit 2" diff_refused "$OUT/da.json" "$OUT/nonexistent.json"
tap_check "diff: one file: one line, exit 2" diff_refused "$OUT/da.json"
# Every cut of a report, and bytes flipped in it, is refused (exit 2) or
# read (exit 0): never a crash.  The cuts run through every kind of token.
diff_cuts() {
	local size cut rc
	"$CLI" cache --user -c 0 -n 2e3 -q -j >"$OUT/cut-src.json" || return 1
	size=$(stat -c %s "$OUT/cut-src.json")
	for ((cut = 0; cut < size; cut += 97)); do
		head -c "$cut" "$OUT/cut-src.json" >"$OUT/cut.json"
		printf '\\u12' >>"$OUT/cut.json"
		"$CLI" diff "$OUT/cut.json" "$OUT/cut-src.json" >/dev/null 2>&1
		rc=$?
		[ "$rc" -eq 2 ] || { echo "cut at $cut: exit $rc"; return 1; }
		sed "s/[0-9]/x/$((cut % 7 + 1))" "$OUT/cut-src.json" >"$OUT/cut.json"
		"$CLI" diff "$OUT/cut.json" "$OUT/cut-src.json" >/dev/null 2>&1
		rc=$?
		[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { echo "flip $cut: exit $rc"; return 1; }
	done
}
tap_check "diff: cut or damaged reports are refused, never a crash" diff_cuts

# 64 CPUs, synthetic (test_golden's big machine): the noise heat strip,
# the cache heat strips and the skew heatmaps must render and not be blank
big_svgs() {
	mkdir -p "$OUT/big" && (cd "$REPO" && TP_SVG_OUT="$OUT/big" build/host/test_golden >/dev/null 2>&1)
	[ -s "$OUT/big/noise-64.svg" ] && [ -s "$OUT/big/cache-64.svg" ] && [ -s "$OUT/big/skew-64.svg" ]
}
tap_check "64 CPUs: the SVGs are written" big_svgs
tap_check "64 CPUs: the noise heat strip renders in Chromium, not blank" "$CHECK" svg "$OUT/big/noise-64.svg" "$OUT/big/noise-64.png"
tap_check "64 CPUs: the cache heat strips render in Chromium, not blank" "$CHECK" svg "$OUT/big/cache-64.svg" "$OUT/big/cache-64.png"
tap_check "64 CPUs: the skew heatmaps render in Chromium, not blank" "$CHECK" svg "$OUT/big/skew-64.svg" "$OUT/big/skew-64.png"

progress_on_tty() {
	script -qec "'$CLI' noise --user -c 0 -d 700ms $1 >/dev/null" "$OUT/tty" >/dev/null
}
export -f progress_on_tty
tap_check "progress line on a terminal, updated in place" bash -c \
	"progress_on_tty ''; grep -q \$'\\r\\033\\[Knoise user .*/700.0ms on 1 CPUs, worst gap ' '$OUT/tty'"
tap_check "no progress line with -q" bash -c \
	"progress_on_tty -q; ! grep -q 'worst gap' '$OUT/tty'"
tap_check "no progress line when stderr is not a terminal" bash -c \
	"[ -z \"\$('$CLI' noise --user -c 0 -d 300ms 2>&1 >/dev/null)\" ]"
tap_done
