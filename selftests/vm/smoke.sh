#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# smoke.sh - the VM smoke run: what must work on every kernel the module is
# built for, in a minute or two.  Runs as root in the guest (busybox sh)
# with the module at /lib/tscprobe/tscprobe.ko, the CLI and jq on PATH.
# tools/test.sh runs it, with fuzz_genl after it, on the kernels that do not
# get the full suite and in the 64-vCPU guest.
#
# insmod; info; noise, cache and skew on every CPU (skew on TP_SMOKE_SKEW
# CPUs when set, like 0-15) with the figures' invariants; status and show;
# STOP during a run; rmmod during a run; reload and unload.  The runs that
# STOP and rmmod cut short measure TP_SMOKE_LONG CPUs when set: in a
# 64-vCPU guest on a 2-core host, 64 emulated CPUs spinning with interrupts
# off for a minute starved the guest's RCU kthread of host time (an RCU
# stall, "rcu_preempt kthread starved", seen once while the host was also
# compiling a kernel): a limit of the emulation, since on hardware the gap
# after every window lets that kthread run.  Prints TAP and
# the kselftest totals line; the kernel log is checked by the harness.
KO=/lib/tscprobe/tscprobe.ko
OUT=/tmp/smoke
N=0
FAILED=0
mkdir -p "$OUT"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
echo "TAP version 13"

# check DESCRIPTION COMMAND...: one test, passed when COMMAND succeeds.
check() {
	desc=$1
	shift
	N=$((N + 1))
	if "$@" >"$OUT/last" 2>&1; then
		echo "ok $N $desc"
	else
		FAILED=$((FAILED + 1))
		sed 's/^/# /' "$OUT/last" | head -n 20
		echo "not ok $N $desc"
	fi
}

# jqt FILE FILTER: FILTER (a jq boolean) holds on FILE.
jqt() {
	jq -e "$2" "$1" >/dev/null || { echo "false on $1: $2"; head -c 600 "$1"; return 1; }
}

loaded() {
	grep -q '^tscprobe ' /proc/modules
}

# wait_running: until the module reports a run (20 s at most: in a
# 64-vCPU guest on 2 host cores, starting a run on 16 CPUs took over 5 s).
wait_running() {
	i=0
	while [ $i -lt 200 ]; do
		tscprobe status -j 2>/dev/null | jq -e '.state == "running"' >/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "no run started within 20 s"
	return 1
}

# wait_gone PID SECONDS: the process ends within SECONDS.
wait_gone() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "process $1 still there after $2 s"
	return 1
}

# Every CPU measured something, and its figures can be.
NOISE_CPU_OK='.samples > 0 and .coverage > 0 and .coverage <= 1
	and .min_cycles <= .p50_cycles and .p50_cycles <= .max_cycles
	and .measured_cycles <= .wall_cycles'

noise_all() {
	tscprobe noise -d "${TP_SMOKE_NOISE:-1s}" -q -j >"$OUT/noise.json" || return 1
	jq -c ".cpus[] | select(($NOISE_CPU_OK) | not) |
		{cpu, samples, coverage, min_cycles, p50_cycles, max_cycles,
		 measured_cycles, wall_cycles, incomplete}" "$OUT/noise.json"
	jqt "$OUT/noise.json" "(.cpus | length) == $ncpu and .stop_reason == \"completed\"
		and all(.cpus[]; $NOISE_CPU_OK)"
}

status_and_show() {
	tscprobe status -j >"$OUT/status.json" &&
		jqt "$OUT/status.json" '.state == "done"' &&
		tscprobe show noise -j >"$OUT/show.json" &&
		jqt "$OUT/show.json" "(.cpus | length) == $ncpu" &&
		[ "$(jq .run_id "$OUT/show.json")" = "$(jq .run_id "$OUT/noise.json")" ]
}

cache_all() {
	tscprobe cache -n 1e4 -q -j >"$OUT/cache.json" &&
		jqt "$OUT/cache.json" "(.cpus | length) == $ncpu and .stop_reason == \"completed\"
			and all(.cpus[]; .rounds == 10000)"
}

skew_pairs() {
	cpus=${TP_SMOKE_SKEW:-}
	if [ -n "$cpus" ]; then
		n=$(($(echo "$cpus" | cut -d- -f2) - $(echo "$cpus" | cut -d- -f1) + 1))
		set -- -c "$cpus"
	else
		n=$ncpu
		set --
	fi
	tscprobe skew "$@" -n 32 -q -j >"$OUT/skew.json" &&
		jqt "$OUT/skew.json" "(.pairs | length) == $((n * (n - 1)))
			and .pairs_done == .pairs_total and .pairs_total == $((n * (n - 1)))"
}

# The CPUs of the long runs: -c TP_SMOKE_LONG, or every CPU.
long_cpus() {
	[ -n "${TP_SMOKE_LONG:-}" ] && echo "-c $TP_SMOKE_LONG"
}

stop_mid_run() {
	# shellcheck disable=SC2046
	tscprobe noise $(long_cpus) -d 60s -q -j >"$OUT/stopped.json" 2>&1 &
	pid=$!
	wait_running || return 1
	tscprobe stop || { echo "stop failed"; return 1; }
	wait_gone $pid 10 || return 1
	wait $pid || { echo "the stopped run's CLI failed"; return 1; }
	jqt "$OUT/stopped.json" '.stop_reason == "stop requested" and .state == "stopped"'
}

rmmod_mid_run() {
	# shellcheck disable=SC2046
	tscprobe noise $(long_cpus) -d 60s -q -j >"$OUT/unloaded.json" 2>&1 &
	pid=$!
	wait_running || return 1
	timeout 20 rmmod tscprobe || { echo "rmmod during a run failed"; return 1; }
	! loaded || { echo "still loaded"; return 1; }
	wait_gone $pid 10
}

reload() {
	insmod "$KO" && tscprobe info >/dev/null && rmmod tscprobe && ! loaded
}

check "insmod" insmod "$KO"
check "info" tscprobe info
check "noise on all $ncpu CPUs" noise_all
check "status and show" status_and_show
check "cache on all $ncpu CPUs" cache_all
check "skew on ${TP_SMOKE_SKEW:-all CPUs}" skew_pairs
check "STOP during a run" stop_mid_run
check "rmmod during a run" rmmod_mid_run
check "reload and unload" reload
echo "1..$N"
echo "# Totals: pass:$((N - FAILED)) fail:$FAILED xfail:0 xpass:0 skip:0 error:0"
[ "$FAILED" -eq 0 ]
