#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# user_engine.sh - the CLI's userspace engine in the guest, without the
# module: what an arm64 guest runs (selftests/run.sh) while the module
# does not build for arm64.  The host tests check the engine on x86; this
# checks the cross-built CLI on the architecture it was built for: the
# counter it reads (QEMU's virt board: the generic timer at 62.5 MHz),
# and the three measurements' figures adding up.  Runs as root in the
# guest (busybox sh) with the CLI and jq on PATH; prints TAP.
. /selftests/tap.sh
J=/tmp/user_engine.json

# jq_all FILE FILTER...: every FILTER true of FILE, else the first false one.
jq_all() {
	f=$1
	shift
	for q in "$@"; do
		jq -e "$q" "$f" >/dev/null || { echo "false: $q"; jq -c . "$f" | head -c 2000; return 1; }
	done
}

# The count runs at 62.5 MHz on the virt board under TCG: calibrated
# against CLOCK_MONOTONIC_RAW, within 1 %.  The gaps' table adds up to the
# samples and the measured cycles, the percentiles are in order, no gap is
# shorter than a tick, coverage <= 1.
noise_adds_up() {
	tscprobe noise --user -c 1 -d 1s -q -j >$J &&
		jq_all $J '.engine == "user" and .state == "done"' \
			'.tsc_khz > 61875 and .tsc_khz < 63125' \
			'all(.cpus[]; (.histogram | map(.calls) | add) == .samples)' \
			'all(.cpus[]; (.histogram | map(.cycles) | add) == .measured_cycles)' \
			'all(.cpus[]; .min_cycles >= 1 and .min_cycles <= .p50_cycles and .p50_cycles <= .p99_cycles and .p99_cycles <= .max_cycles)' \
			'all(.cpus[]; .coverage > 0 and .coverage <= 1)' \
			'all(.cpus[]; .measured_cycles <= .wall_cycles)'
}

# Every round timed: each series counts the rounds asked for.
cache_rounds() {
	tscprobe cache --user -c 1 -n 20000 -q -j >$J &&
		jq_all $J '.state == "done" and .rounds == 20000' \
			'all(.cpus[]; .rounds == 20000)'
}

# Both ordered pairs measured, each with its status.
skew_pairs() {
	tscprobe skew --user -c 0-1 -q -j >$J &&
		jq_all $J '.state == "done" and (.pairs | length) == 2' \
			'all(.pairs[]; .status != null and .nr >= 0)'
}

tap_check "noise: the board's 62.5 MHz count, the gaps adding up" noise_adds_up
tap_check "cache: every round timed" cache_rounds
tap_check "skew: both ordered pairs of CPUs 0-1" skew_pairs
# arm64 has no rdtscp: asked for, one line and exit 2, nothing measured.
no_rdtscp() {
	err=$(tscprobe noise --user -c 1 -d 100ms --clock rdtscp 2>&1 >/dev/null)
	[ $? -eq 2 ] && [ "$err" = "tscprobe: --clock rdtscp: this CPU has no rdtscp (lfence, mfence or plain) (see 'tscprobe noise --help')" ] ||
		{ echo "$err"; return 1; }
}

tap_check "--clock rdtscp is refused" no_rdtscp
tap_check "env runs" tscprobe env
tap_done
