#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tscprobe env against synthetic /proc and /sys trees: a badly prepared
# machine must get every warning, a well prepared one none (but the
# machine-wide ones it deserves), and the JSON must describe the tree.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir ROOT

put() {
	mkdir -p "$(dirname "$ROOT/$1")"
	printf '%s\n' "$2" >"$ROOT/$1"
}

# Four CPUs; 0/2 and 1/3 are SMT siblings.  CPU 3 is prepared for low
# latency: isolated, nohz_full, rcu_nocbs, performance, no interrupts,
# deep C-states off.  CPU 2 is not.
make_tree() {
	local cpu sys=sys/devices/system/cpu
	put proc/cpuinfo "processor	: 0
vendor_id	: GenuineIntel
model name	: Test CPU @ 3.00GHz
microcode	: 0xf0
flags		: fpu tsc msr constant_tsc rdtscp hypervisor tsc_known_freq
"
	put proc/cmdline "root=/dev/sda1 isolcpus=3 nohz_full=3 rcu_nocbs=3 quiet"
	put $sys/online "0-3"
	put $sys/present "0-3"
	put $sys/isolated "3"
	put $sys/nohz_full "3"
	put $sys/cpufreq/boost "1"
	put sys/devices/system/clocksource/clocksource0/current_clocksource "hpet"
	for cpu in 0 1 2 3; do
		mkdir -p "$ROOT/$sys/cpu$cpu/node0"
		put $sys/cpu$cpu/topology/thread_siblings_list "$((cpu % 2)),$((cpu % 2 + 2))"
		put $sys/cpu$cpu/cpufreq/scaling_driver "intel_pstate"
		put $sys/cpu$cpu/cpufreq/scaling_min_freq "800000"
		put $sys/cpu$cpu/cpufreq/scaling_max_freq "3000000"
		put $sys/cpu$cpu/cpufreq/scaling_cur_freq "2999000"
		put $sys/cpu$cpu/cpuidle/state0/name "POLL"
		put $sys/cpu$cpu/cpuidle/state0/latency "0"
		put $sys/cpu$cpu/cpuidle/state0/disable "0"
		put $sys/cpu$cpu/cpuidle/state1/name "C6"
		put $sys/cpu$cpu/cpuidle/state1/latency "133"
		put $sys/cpu$cpu/cpuidle/state1/disable "$((cpu == 3))"
	done
	put $sys/cpu2/cpufreq/scaling_governor "powersave"
	put $sys/cpu3/cpufreq/scaling_governor "performance"
	put proc/irq/24/smp_affinity_list "0-2"
	put proc/irq/25/smp_affinity_list "2"
	put proc/irq/26/smp_affinity_list "0"
	# CPU 1 is offline: it cannot be measured; the audit says so.
	put $sys/online "0,2-3"
	# What tuned's profiles set, all left at what hurts, but the
	# workqueue cpumask, which spares CPU 3 (hex, as sysfs writes it).
	put proc/sys/kernel/nmi_watchdog "1"
	put proc/sys/kernel/timer_migration "1"
	put proc/sys/vm/stat_interval "1"
	put sys/devices/virtual/workqueue/cpumask "00000007"
	put proc/4242/comm "irqbalance"
	put proc/1/comm "init"
	put sys/kernel/mm/transparent_hugepage/enabled "[always] madvise never"
	put sys/kernel/mm/ksm/run "1"
	put sys/class/dmi/id/bios_vendor "Test Firmware Inc."
	put sys/class/dmi/id/bios_version "1.2.3"
	put sys/class/dmi/id/bios_date "03/14/2026"
}

# The same settings as tuned's cpu-partitioning profile leaves them.
tune_tree() {
	put proc/sys/kernel/nmi_watchdog "0"
	put proc/sys/kernel/timer_migration "0"
	put proc/sys/vm/stat_interval "10"
	rm -r "$ROOT/proc/4242"
	put sys/kernel/mm/transparent_hugepage/enabled "always madvise [never]"
	put sys/kernel/mm/ksm/run "0"
}

# 64 CPUs in two packages, numbered 0-31 and 64-95 (a gap between the
# packages), SMT siblings n and n+16 within each package; package 0 runs
# powersave, package 1 ondemand; one interrupt everywhere, two on CPU 5.
tp_tmpdir BIG
make_big_tree() {
	local cpu sys=$BIG/sys/devices/system/cpu
	mkdir -p "$sys" "$BIG/proc/irq/1" "$BIG/proc/irq/2"
	printf 'processor\t: 0\nflags\t\t: tsc constant_tsc nonstop_tsc\n\n' >"$BIG/proc/cpuinfo"
	echo "quiet" >"$BIG/proc/cmdline"
	echo "0-31,64-95" >"$sys/online"
	echo "" >"$sys/isolated"
	echo "" >"$sys/nohz_full"
	for cpu in $(seq 0 31) $(seq 64 95); do
		mkdir -p "$sys/cpu$cpu/topology" "$sys/cpu$cpu/cpufreq"
		echo "$((cpu % 16 + (cpu & 64))),$((cpu % 16 + (cpu & 64) + 16))" \
			>"$sys/cpu$cpu/topology/thread_siblings_list"
		echo "$((cpu / 64))" >"$sys/cpu$cpu/topology/physical_package_id"
		if ((cpu < 64)); then echo powersave; else echo ondemand; fi \
			>"$sys/cpu$cpu/cpufreq/scaling_governor"
	done
	echo "0-31,64-95" >"$BIG/proc/irq/1/smp_affinity_list"
	echo "5" >"$BIG/proc/irq/2/smp_affinity_list"
	mkdir -p "$BIG/sys/devices/virtual/workqueue"
	echo "ffffffff,00000000,ffffffff" >"$BIG/sys/devices/virtual/workqueue/cpumask"
}

big_json() {
	JSON=$(TSCPROBE_SYSROOT=$BIG "$CLI" env -j) || return 1
}

JSON=

env_json() {
	JSON=$(TSCPROBE_SYSROOT=$ROOT "$CLI" env -j -c 1-3) || return 1
}

jqe() {
	jq -e "$1" <<<"$JSON" >/dev/null || { echo "false: $1"; return 1; }
}

has_warning() {
	jqe "any(.warnings[]; .message == \"$1\")"
}

no_warning_about() {
	jqe "all(.warnings[]; .message | test(\"$1\") | not)"
}

make_tree
tap_check "env -j runs on a synthetic tree" env_json
tap_check "machine: model, microcode, clocksource" \
	jqe '.cpu_model == "Test CPU @ 3.00GHz" and .microcode == "0xf0" and .clocksource == "hpet"'
tap_check "machine: flags, not invariant, VM, boost on" \
	jqe '.tsc_flags == "tsc constant_tsc rdtscp tsc_known_freq" and .invariant_tsc == false and .hypervisor and .boost == true'
tap_check "machine: isolation sets" \
	jqe '.isolated == [3] and .nohz_full == [3] and .rcu_nocbs == [3]'
tap_check "machine: tsc_khz from calibration" jqe '.tsc_khz > 0'
tap_check "cpus: the chosen ones, described" \
	jqe '[.cpus[].cpu] == [1, 2, 3] and (.cpus[1] | .governor == "powersave" and .driver == "intel_pstate" and .max_khz == 3000000 and .siblings == [0, 2] and .node == 0 and .irqs_affine == 2)'
tap_check "cpus: c-states" \
	jqe '.cpus[2].cstates == [{"name": "POLL", "enabled": true, "latency_us": 0}, {"name": "C6", "enabled": false, "latency_us": 133}]'
tap_check "warning: TSC not invariant" has_warning \
	"the TSC is not invariant (no constant_tsc and nonstop_tsc): cycles are not a fixed unit of time"
tap_check "warning: turbo" has_warning "turbo/boost is on: the clock is not held"
tap_check "warning: clocksource" has_warning "the clocksource is hpet, not tsc"
tap_check "warning: virtual machine" has_warning "this is a virtual machine: the hypervisor's noise is in every figure"
tap_check "warning: offline CPU" has_warning "CPU 1 is offline"
tap_check "warning: not isolated" has_warning "CPU 2 is not isolated (isolcpus): the scheduler puts other work on it"
tap_check "warning: tick" has_warning "CPU 2 is not nohz_full: the tick interrupts it"
tap_check "warning: RCU" has_warning "CPU 2 is not in rcu_nocbs: RCU callbacks may run on it"
tap_check "warning: governor" has_warning "CPU 2 runs the powersave governor, not performance: the clock is not held"
tap_check "warning: SMT siblings, merged" has_warning "CPUs 2-3 share their cores with CPUs 0-1: a busy sibling shows up as noise"
tap_check "warning: interrupts" has_warning "2 interrupts may be delivered to CPU 2"
tap_check "warning: C-state" has_warning "CPU 2 may enter C6 (exit latency 133 us)"
tap_check "readiness: what tuned sets, as read" \
	jqe '.nmi_watchdog == true and .timer_migration == true and .stat_interval_s == 1 and
	     .workqueue_cpumask == [0, 1, 2] and .irqbalance == true and .thp == "always" and .ksm == true'
tap_check "firmware: BIOS vendor, version and date" \
	jqe '.bios_vendor == "Test Firmware Inc." and .bios_version == "1.2.3" and .bios_date == "03/14/2026"'
tap_check "warning: NMI watchdog" has_warning \
	"the NMI watchdog is on: its perf NMI interrupts every CPU, interrupts off or not (kernel.nmi_watchdog=0)"
tap_check "warning: timer migration" has_warning \
	"timer_migration is on: timers may be moved to the measured CPUs (kernel.timer_migration=0)"
tap_check "warning: vmstat interval" has_warning \
	"vm.stat_interval is 1 s: the vmstat work runs that often on every CPU (tuned sets 10)"
tap_check "warning: irqbalance" has_warning \
	"irqbalance is running: it may move interrupts onto the measured CPUs unless they are banned"
tap_check "warning: THP" has_warning \
	"transparent hugepages are always on: khugepaged and compaction may run on any CPU (tuned sets never)"
tap_check "warning: KSM" has_warning "KSM is running: ksmd scans memory and may run on any CPU"
tap_check "warning: workqueues, only on the CPUs of the mask" has_warning \
	"CPU 2 is in the workqueue cpumask: unbound kernel work may run on it"
tap_check "text: the settings and the firmware, a line each" \
	bash -c "out=\$(TSCPROBE_SYSROOT='$ROOT' '$CLI' env -c 3) &&
	 grep -qx 'settings:    nmi_watchdog on, timer_migration on, vm.stat_interval 1 s, THP always, KSM on, irqbalance running' <<<\"\$out\" &&
	 grep -qx 'workqueues:  0-2' <<<\"\$out\" && grep -qx 'firmware:    Test Firmware Inc. 1.2.3 (03/14/2026)' <<<\"\$out\""
tap_check "the prepared CPU 3 gets only its sibling warning" \
	jqe '[.warnings[] | select(.cpus | index(3)) | .kind] == ["smt_sibling"]'
tap_check "warnings: {kind, cpus, message}, machine-wide ones without CPUs" \
	jqe 'all(.warnings[]; (keys == ["cpus", "kind", "message"]) and (.kind | test("^[a-z_]+$"))) and
	     ([.warnings[] | select(.kind == "boost")][0].cpus == [])'
tune_tree
tap_check "tuned as cpu-partitioning: env -j runs" env_json
tap_check "tuned: none of those warnings, the settings read as set" \
	jqe '([.warnings[].kind] - ["nmi_watchdog", "timer_migration", "stat_interval", "irqbalance", "thp", "ksm"]) == [.warnings[].kind] and
	     .nmi_watchdog == false and .timer_migration == false and .stat_interval_s == 10 and .irqbalance == false and .thp == "never" and .ksm == false'
make_big_tree
tap_check "64 CPUs in two packages, numbered with gaps: env -j runs" big_json
tap_check "no such files: unknown, null, no warning about them" \
	jqe '.nmi_watchdog == null and .timer_migration == null and .stat_interval_s == null and .ksm == null and .thp == "" and .bios_version == "" and
	     all(.warnings[]; .kind | test("nmi_watchdog|timer_migration|stat_interval|thp|ksm") | not)'
tap_check "a workqueue mask of three 32-bit groups: CPUs 0-31 and 64-95" \
	jqe '.workqueue_cpumask == ([range(0; 32)] + [range(64; 96)]) and
	     ([.warnings[] | select(.kind == "workqueue")] | length == 1 and .[0].cpus == ([range(0; 32)] + [range(64; 96)]))'
tap_check "merged: each kind once, naming every CPU exactly once" \
	jqe '[.warnings[] | select(.kind == "not_isolated" or .kind == "not_rcu_nocbs" or .kind == "not_nohz_full" or .kind == "smt_sibling" or .kind == "irqs_affine")] as $w |
	     ($w | length == 5) and all($w[]; .cpus == ([range(0; 32)] + [range(64; 96)]))'
tap_check "merged: a governor per line, its CPUs once" \
	jqe '[.warnings[] | select(.kind == "governor")] as $g | ($g | length == 2) and
	     ([$g[].cpus[]] | sort) == ([range(0; 32)] + [range(64; 96)]) and
	     ($g | map(.message) | sort) == ["CPUs 0-31 run the powersave governor, not performance: the clock is not held",
	       "CPUs 64-95 run the ondemand governor, not performance: the clock is not held"]'
tap_check "merged: the interrupt counts as a range" \
	has_warning "1 to 2 interrupts may be delivered to each of CPUs 0-31,64-95"
tap_check "merged: the siblings named" \
	has_warning "CPUs 0-31,64-95 share their cores with CPUs 0-31,64-95: a busy sibling shows up as noise"
tap_check "merged: the text report is a few lines, not three per CPU" \
	bash -c "n=\$(TSCPROBE_SYSROOT='$BIG' '$CLI' env | sed -n '/^warnings:/,\$p' | grep -c '^  - '); [ \"\$n\" -le 10 ] && [ \"\$n\" -ge 7 ]"
tap_check "merged: 'CPUs 0-31,64-95 are not isolated' in the text" \
	bash -c "TSCPROBE_SYSROOT='$BIG' '$CLI' env | grep -qx '  - CPUs 0-31,64-95 are not isolated (isolcpus): the scheduler puts other work on them'"
tap_check "text report lists the warnings" \
	bash -c "TSCPROBE_SYSROOT='$ROOT' '$CLI' env -c 2 | grep -q '^  - CPU 2 runs the powersave governor'"
tap_check "a CPU that is not present: one line, exit 2, as noise -c" \
	bash -c "e=\$(TSCPROBE_SYSROOT='$ROOT' '$CLI' env -c 1,9 2>&1 >/dev/null); [ \$? -eq 2 ] &&
		 [ \"\$e\" = \"tscprobe: -c: CPU 9 is not present (present: 0-3) (see 'tscprobe env --help')\" ]"
tap_check "a CPU list that does not parse is a usage error" \
	bash -c "'$CLI' env -c x 2>/dev/null; [ \$? -eq 2 ]"
# An arm64 machine: its /proc/cpuinfo numbers the CPU, and its counter is
# the generic timer's, a constant rate by the architecture, whose
# clocksource is arch_sys_counter.
arm64_tree() {
	put proc/cpuinfo "processor	: 0
BogoMIPS	: 50.00
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x3
CPU part	: 0xd0c
CPU revision	: 1
"
	put sys/devices/system/clocksource/clocksource0/current_clocksource "$1"
}
arm64_tree arch_sys_counter
tap_check "arm64: the generic timer, invariant, its clocksource expected" \
	bash -c "out=\$(TSCPROBE_SYSROOT='$ROOT' '$CLI' env -j -c 1-3) &&
		 jq -e '.invariant_tsc and .vendor == \"implementer 0x41\" and .cpu_model == \"part 0xd0c\" and
			all(.warnings[]; .kind != \"tsc_not_invariant\" and .kind != \"clocksource\")' <<<\"\$out\" >/dev/null &&
		 TSCPROBE_SYSROOT='$ROOT' '$CLI' env -c 3 | grep -qx 'counter: *[0-9]* kHz, the generic timer.s (a constant rate)'"
arm64_tree jiffies
tap_check "arm64: another clocksource is named against arch_sys_counter" \
	bash -c "TSCPROBE_SYSROOT='$ROOT' '$CLI' env -j -c 1-3 |
		 jq -e 'any(.warnings[]; .message == \"the clocksource is jiffies, not arch_sys_counter\")' >/dev/null"
rm -f "$ROOT/sys/devices/system/cpu/online"
tap_check "no online file: one line, exit 1" \
	bash -c "TSCPROBE_SYSROOT='$ROOT' '$CLI' env 2>&1 >/dev/null | grep -qc . ; TSCPROBE_SYSROOT='$ROOT' '$CLI' env >/dev/null 2>&1; [ \$? -eq 1 ]"
tap_done
