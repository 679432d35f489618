#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - "make bench": benchmarks, not tests.  They print figures and
# ratios measured side by side in one run on this machine; nothing here
# passes or fails.  BENCH_CPU (default 1) and BENCH_SECONDS (default 5,
# noise) choose where and for how long.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=$REPO/build/tscprobe
CPU=${BENCH_CPU:-1}
SECS=${BENCH_SECONDS:-5}

noise_bench() {
	local ours oslat_json oslat_rate our_rate
	echo "== noise: the loop against a bare lfence;rdtsc loop (CPU $CPU)"
	"$REPO/build/host/bench_noise" "$CPU" "$SECS"

	echo
	echo "== noise: samples per second against oslat (CPU $CPU, ${SECS} s each)"
	oslat_json=$(mktemp)
	if command -v oslat >/dev/null; then
		oslat -q -c "$CPU" -D "$SECS" --json="$oslat_json" >/dev/null 2>&1 || true
	fi
	ours=$("$CLI" noise --user -q -c "$CPU" -d "${SECS}s" -j)
	our_rate=$(jq -r '.cpus[0].samples / (.elapsed_ns / 1e9) | floor' <<<"$ours")
	oslat_rate=$(jq -r '([.thread[] | .histogram | to_entries[].value] | add) /
		([.thread[].duration] | add) | floor' "$oslat_json" 2>/dev/null || echo 0)
	rm -f "$oslat_json"
	printf '%-24s %14s\n' "loop" "samples/s"
	printf '%-24s %14s\n' "tscprobe noise --user" "$our_rate"
	printf '%-24s %14s\n' "oslat" "$oslat_rate"
	if ((oslat_rate > 0)); then
		awk -v a="$our_rate" -v b="$oslat_rate" \
			'BEGIN { printf "tscprobe/oslat: x%.2f samples/s\n", a / b }'
	fi
	jq -r '.cpus[0] | "tscprobe --user: p50 \(.p50_cycles) cycles, p99.99 \(.p9999_cycles), max \(.max_cycles), coverage \(.coverage)"' <<<"$ours"
}

skew_bench() {
	echo
	echo "== skew: CPUs 0 <-> 1, the hand-off against the bare hand-off and a CAS ping-pong (userspace)"
	"$REPO/build/host/bench_skew" 0 1 11 256
	echo
	echo "== skew: the whole matrix, userspace engine"
	"$CLI" skew --user -q | tail -n 12
}

cache_bench() {
	local ours
	echo
	echo "== cache: what each fence of the bracket does, and core's loop (CPU $CPU)"
	"$REPO/build/host/bench_cache" "$CPU"

	echo
	echo "== cache: tscprobe cache --user next to the pointer chase (CPU $CPU, 1e6 rounds, --levels)"
	ours=$("$CLI" cache --user -q -c "$CPU" -n 1e6 --levels -j)
	jq -r '.tsc_khz as $k | .cpus[0] |
		def ns: . * 1e6 / $k;
		def row($name; $c): "\($name | . + " " * (34 - length))\($c * 100 | round / 100 | tostring | " " * (10 - length) + .)\($c | ns * 100 | round / 100 | tostring | " " * (10 - length) + .)";
		"figure                                cycles        ns",
		row("overhead, avg"; .overhead.avg),
		row("cached load, avg net of overhead"; .cached.avg),
		row("uncached load, avg net of overhead"; .uncached.avg),
		row("cached load, p50 gross"; .cached.gross.p50),
		row("uncached load, p50 gross"; .uncached.gross.p50),
		row("L1 pointer chase (4 KiB)"; .levels[0].cycles_per_load),
		row("DRAM pointer chase (\(.levels[-1].size / 1048576) MiB)"; .levels[-1].cycles_per_load),
		"rounds/s                          \(.rounds_per_s | round)",
		"cached net / L1 chase: x\(.cached.avg / .levels[0].cycles_per_load * 100 | round / 100), uncached net / DRAM chase: x\(.uncached.avg / .levels[-1].cycles_per_load * 100 | round / 100)",
		"(averages take every round, interrupts and preemptions included; the quiet means are in the fence table above)"' <<<"$ours"
}

sources_bench() {
	echo
	echo "== noise sources: the probes' work per interrupt, without and with a run (CPU $CPU)"
	"$REPO/build/host/bench_sources" "$CPU"
}

noise_bench
sources_bench
cache_bench
skew_bench
