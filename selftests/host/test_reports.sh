#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every output format, parsed back by a real parser (jq, Python's csv,
# prometheus_client's text parser, Chromium rendering the SVG to a PNG
# that must not be blank), on real measurements of the userspace engine;
# and noise --compare on the host (the userspace engine alone, since the
# host cannot load the module).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLI=$REPO/build/tscprobe
CHECK=$REPO/selftests/host/check_format.py
# shellcheck source=selftests/host/tap.sh
source "$REPO/selftests/host/tap.sh"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

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
tap_check "unwritable --svg: exit 1, one line" bash -c \
	"e=\$('$CLI' noise --user -c 0 -d 10ms --csv --svg /nonexistent/x.svg 2>&1 >/dev/null); s=\$?; [ \$s -eq 1 ] && [ \$(echo \"\$e\" | wc -l) -eq 1 ]"
tap_check "noise --compare on the host: the userspace engine" bash -c \
	"'$CLI' noise --compare -c 0 -d 200ms -j 2>/dev/null | jq -e '[.modes[].mode] == [\"user\"] and .modes[0].p50_cycles <= .modes[0].p99_cycles and .modes[0].coverage > 0.5' >/dev/null"
tap_check "noise --compare says why the kernel rows are missing" bash -c \
	"'$CLI' noise --compare -c 0 -d 100ms 2>&1 >/dev/null | grep -q 'module is not loaded'"
tap_check "noise --compare prints the table" bash -c \
	"'$CLI' noise --compare -c 0 -d 100ms 2>/dev/null | grep -q '^user (irqs on) '"
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
