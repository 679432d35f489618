#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the whole suite, as "make test" runs it: the kernel gates (W=1
# and sparse against every kernel of the matrix, checkpatch), the host unit
# tests (plain, then built with ASan and UBSan), then the VM suite:
#
#   6.1-cloud   the full suite but test_ynl.sh and test_sources.sh
#               (Debian 12's kernel, the default)
#   newest-cloud
#               on the newest line Debian ships (trixie-backports; built
#               with its own gcc-14 in the trixie root), what the debug
#               kernel below does not run: the smoke run, test_monitor,
#               test_irqs.sh, test_sources.sh and test_ynl.sh (vm_newest)
#   debug       the full suite but test_ynl.sh, test_irqs.sh, test_monitor,
#               test_actions.sh, test_info and test_privilege on the
#               project's debug kernel (lockdep, KASAN, UBSAN, kmemleak...;
#               the newest line's source), with its repetition counts
#               trimmed (vm_debug) and a kmemleak scan in test_faults
#   6.1-rt, 6.12-rt, newest-rt
#               the smoke run (selftests/vm/smoke.sh), the interrupts test
#               (test_irqs.sh: PREEMPT_RT is where every device interrupt
#               is a thread) and a short fuzz
#   6.12-cloud  the smoke run and a short fuzz (test_irqs.sh runs on the
#               6.1 and newest cloud kernels)
#   5.10-cloud  the same, with a shorter fuzz (Debian 11's kernel, the
#               oldest supported: fetched into build/ on first use)
#   backport    the module built from 6.1-cloud's headers made to look
#               like a distribution kernel's
#               (selftests/kernels/make-backport.sh), on the 6.1-cloud
#               guest: the smoke run's measurements and test_info
#   64 vCPUs    the smoke run on 6.1-cloud with 64 CPUs, skew on 17
#   server      a guest shaped like a lab server (run-vm.sh --machine
#               server: q35, 2 sockets x 2 cores x 2 threads, 2 NUMA
#               nodes, 26 NVMe controllers whose IRQ numbers pass 236) on
#               6.1-cloud: the smoke run's measurements on every CPU
#               (noise, cache --nodes, skew with its summary by topology)
#               and test_sources.sh's runs with interrupts on (vm_server)
#
# KERNELS=all runs the full suite on every kernel instead of the smoke run.
# --quick: the gates and the VM suite on 6.1-cloud only (make check-quick).
# Every part runs even if an earlier one failed; the last line is "N passed,
# N failed" over all of them and the exit status is non-zero when anything
# failed.  Each part's time is printed after it; the host tests run beside
# the gates and print after them.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MAKE=${MAKE:-make}
pass=0
fail=0

# part NAME COMMAND...: run a part; count the "N passed, N failed" it ends
# with, or one failure if it ends without one.
part() {
	local name=$1 log last p f
	shift
	log=$(mktemp)
	echo "== $name"
	"$@" 2>&1 | tee "$log"
	last=$(grep -E '[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [[ $last =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		p=${BASH_REMATCH[1]}
		f=${BASH_REMATCH[2]}
	else
		p=0
		f=1
	fi
	rm -f "$log"
	pass=$((pass + p))
	fail=$((fail + f))
}

KERNELS_SH=$REPO/tools/kernels.sh
MODS=$REPO/build/mod
QUICK=0
[[ ${1:-} == --quick ]] && QUICK=1
MATRIX=(6.1-cloud 6.1-rt 6.12-cloud 6.12-rt newest-cloud newest-rt debug
	5.10-cloud backport)
((QUICK)) && MATRIX=(6.1-cloud)

release_of() {
	sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$1/include/generated/utsrelease.h"
}

# The kernel gates count as one test each: checkpatch, the CLI cross-built
# for arm64, then the module built with W=1 and sparse against each
# kernel, into build/mod/NAME (the module the VM runs below load).
gates() {
	local p=0 f=0 k kdir

	if "$REPO/tools/checkpatch.sh"; then
		p=$((p + 1))
	else
		f=$((f + 1))
	fi
	if "$MAKE" --no-print-directory -C "$REPO" ARCH=arm64 cli >/dev/null; then
		echo "ok: the CLI cross-built for arm64, -Werror (build/arm64/tscprobe)"
		p=$((p + 1))
	else
		echo "not ok: the CLI cross-built for arm64"
		f=$((f + 1))
	fi
	for k in "${MATRIX[@]}"; do
		if kdir=$("$KERNELS_SH" kdir "$k") &&
			"$REPO/tools/build-module.sh" --check "$kdir" "$MODS/$k" >/dev/null; then
			echo "ok: W=1 and sparse clean against $k ($(release_of "$kdir"), $kdir)"
			p=$((p + 1))
		else
			echo "not ok: the module against $k"
			f=$((f + 1))
		fi
	done
	echo "gates: $p passed, $f failed"
}

# The debug kernel is slower by a large factor (KASAN, lockdep, kmemleak):
# the same behaviours, fewer repetitions, and more time for the guest.
# Not test_ynl.sh (two minutes there): the kernel's Python client goes
# through the netlink code the C programs and the fuzzer run here too; it
# runs on the newest kernel's cloud image.  Not test_irqs.sh: a bound on
# scheduling, which the 6.1 and newest cloud and the PREEMPT_RT kernels
# check, and the debug kernel's lockdep and KASAN see its runs in
# test_noise and test_cache as well.
# Not test_monitor and test_actions.sh: they test the CLI's side of
# notifications; the module's side is test_live, which runs here.  Not
# test_info and test_privilege: the CLI's side of GET_INFO and the genetlink
# core's permission checks; the module's load and unload, which test_info
# also runs, are test_faults' 25 cycles under kmemleak.  Nor the tests
# whose module paths other tests here take, and whose point is a bound
# or a figure the other kernels check, or the CLI's side: of test_faults,
# kill_9_of_the_cli (test_sources.sh's kill -9 here), the held CPU's
# idle_cpu_is_waited_for_then_held (late_threads_while_the_watch_is_held_back
# here), the CLI's cli_stops_a_run_past_its_bound (a STOP of a thread
# not started: test_readers' a_reader_never_holds_up_a_stop), and the
# start and end rules a_warm_up_begun_in_time_is_measured_after_it and
# a_pause_past_the_cpus_end time (their threads' late starts and wakes are
# late_threads' and starved_cpu_never_blocks' here); of test_noise, the
# 30 s run (the 6.1 guest's), its clocks, coverage and the CLI's reports,
# placement and options; of test_cache, the level sweep on every CPU
# (levels_one_cpu here), the nodes' and the default windows' figures, the
# userspace engine and the CLI's; of test_skew, the sign of an offset,
# the repeats' sums, the text report and the CLI's; of test_readers, the
# memory 2,000 open dumps take (a figure, 6.1's; their runs' release is
# dump_of_a_replaced_run_ends_stale's here).  Together about six minutes
# here.
# part runs this in a pipeline, so the variables stay in its subshell.
vm_debug() {
	export TP_FUZZ_COUNT=3000 TP_LOAD_CYCLES=25 TP_FAULT_HALVE=1
	vm debug full --smp 4 --timeout 1800 --skip test_ynl.sh --skip test_irqs.sh \
		--skip test_monitor --skip test_actions.sh --skip test_info \
		--skip test_privilege \
		--skip "test_faults kill_9_of_the_cli idle_cpu_is_waited_for_then_held
			cli_stops_a_run_past_its_bound
			a_warm_up_begun_in_time_is_measured_after_it
			a_pause_past_the_cpus_end" \
		--skip "test_noise long_all_cpu_irqs_off_run every_clock
			coverage_with_defaults cli_runs_off_the_measured_cpus
			bad_cli_input compare_three_ways show_in_every_format" \
		--skip "test_cache levels_every_cpu_share_memory nodes
			defaults_fill_every_window user_engine_runs_the_same_report
			bad_cli_input show_in_every_format" \
		--skip "test_skew an_offset_shows_with_its_sign_both_ways
			repeats_add_up_and_show_matches text_report bad_cli_input
			show_in_every_format" \
		--skip "test_readers open_dumps_cost_the_module_nothing"
}

# The newest line's own configuration, beside the debug kernel built from
# the same source: what the debug kernel does not run.  The smoke run
# (every kind on every CPU, STOP and rmmod mid-run, reload); the
# interrupts test (a bound on scheduling); test_sources.sh (the probes on
# the tracepoints of Debian's configuration); test_ynl.sh (the kernel's
# Python client; two minutes on the debug kernel).  Not test_monitor: the
# CLI's side of notifications is the same on every kernel (6.1's guest
# runs it), the module's is test_live on the debug kernel.  The other
# programs run on the debug kernel from the same source, with lockdep and
# KASAN watching, and on 6.1, which holds coverage to the generic
# kernels' bound (test_noise).
vm_newest() {
	vm newest-cloud full --smp 4 smoke.sh test_irqs.sh test_sources.sh \
		test_ynl.sh
}

# What the backport kernel's module runs of the smoke run: what its
# probes change (the MSR reads of the SMI count and the effective clock,
# START's attribute checks, which test_info checks) is in a run of each
# kind; stopping, unloading and the CLI's reports are the same code as
# 6.1-cloud's module, which the full suite runs.
BACKPORT_SMOKE=(insmod tscprobe noise_all cache_all skew_pairs)

# What the server-shaped guest runs (vm_server): the smoke run's checks
# that measure every CPU (the others, runs cut short and reloads, are no
# different in it), and test_sources.sh's that measure with interrupts
# on, as the culprit's runs do.
SERVER_SMOKE=(insmod noise_all cache_all skew_pairs skew_text)
SERVER_SOURCES=(busy_thread_is_named events_name_their_sources
	serial_irq_is_named high_irq_is_named named_time_fits
	vectors_apart_from_device_irqs)

# vm NAME MODE [vm/run.sh options]: on kernel NAME, with the module its
# gate built, the VM suite (MODE full), the smoke run, a short fuzz and on
# a PREEMPT_RT kernel test_irqs.sh (MODE smoke), the smoke run alone (MODE
# big, for the 64-vCPU guest), some of the smoke run's checks and
# test_info (MODE backport), or some of the smoke run's and
# test_sources.sh's (MODE server).
vm() {
	local name=$1 mode=$2 kdir image
	local -a progs=()
	shift 2

	kdir=$("$KERNELS_SH" kdir "$name") || return 1
	image=$("$KERNELS_SH" image "$kdir") || return 1
	[[ -e $MODS/$name/kmod/tscprobe.ko ]] || {
		echo "no module built for $name (its gate failed)"
		echo "vm: 0 passed, 1 failed"
		return 1
	}
	echo "# kernel $name: $image ($(release_of "$kdir"))"
	case $mode in
	smoke)
		progs=(smoke.sh fuzz_genl)
		[[ $name == *-rt ]] && progs+=(test_irqs.sh)
		export TP_FUZZ_COUNT=${TP_FUZZ_COUNT:-3000}
		;;
	big)	progs=(smoke.sh) ;;
	backport) progs=("smoke.sh ${BACKPORT_SMOKE[*]}" test_info) ;;
	server)
		progs=("smoke.sh ${SERVER_SMOKE[*]}"
		       "test_sources.sh ${SERVER_SOURCES[*]}") ;;
	esac
	"$REPO/selftests/vm/run.sh" --kernel "$image" \
		--module "$MODS/$name/kmod/tscprobe.ko" "$@" "${progs[@]}"
}

# The arm64 guest (QEMU's virt board, Debian 12's arm64 cloud kernel): the
# CLI the gates cross-built, its userspace engine; the module does not
# build for arm64 yet.
vm_arm64() {
	local image

	image=$("$KERNELS_SH" image "$("$KERNELS_SH" kdir arm64-cloud)") || return 1
	echo "# kernel arm64-cloud: $image"
	"$REPO/selftests/vm/run.sh" --kernel "$image" --smp 2 user_engine.sh
}

# The 64-vCPU guest: noise, status, show and cache on every CPU, the runs
# cut short on 16 of them, and skew on 17 (see smoke.sh): 272 pairs, and
# the report beyond 16 CPUs (summary by topology, worst pairs) from the
# same run.  All 64 CPUs (TP_SMOKE_SKEW_BIG=0-63, 4032 pairs) take several
# minutes on a 2-core host.
vm_big() {
	export TP_SMOKE_SKEW=0-16 TP_SMOKE_LONG=0-15
	vm 6.1-cloud big --smp 64 --mem 4096 --timeout 900
}

# The server-shaped guest (selftests/qemu/README.md): what a small guest
# never shows.  Noise on 8 CPUs; cache's uncached loads from each of 2
# nodes; skew's pairs as SMT siblings, one socket and two nodes, with the
# summary by topology; with interrupts on, a busy thread, the serial
# port's interrupt and an NVMe queue's numbered past the tick's vector
# (236) named on the measured CPU, every CPU's named time, and the NVMe
# queue numbered 236 named apart from the tick, vector 236, on its CPU
# (TP_NEED_IRQ_236: this guest must have one).
# test_sources.sh runs whole on the newest and the debug kernels.
vm_server() {
	TP_NEED_IRQ_236=1 vm 6.1-cloud server --machine server
}

# timed NAME COMMAND...: part, and how long it took.
timed() {
	local t0=$SECONDS

	part "$@"
	echo "== $1: $((SECONDS - t0)) s"
}

# Both host parts but the packages'.
host_tests() {
	timed "host tests" "$MAKE" --no-print-directory -C "$REPO" host-test \
		HOST_SKIP=selftests/host/test_packages.sh
	timed "host tests with AddressSanitizer and UBSan" \
		"$MAKE" --no-print-directory -C "$REPO" host-test-asan
}

# The packages built and installed into the roots: mostly apt and chroots
# waiting on each other, a lane of its own beside the gates and the other
# host tests.
package_tests() {
	timed "package tests" "$REPO/selftests/host/run.sh" \
		"$REPO/selftests/host/test_packages.sh"
}

# lane OUT COUNTS FN: FN's parts (run it in the background); their output
# goes to OUT, their counts to COUNTS.
lane() {
	pass=0
	fail=0
	"$3" >"$1" 2>&1
	echo "$pass $fail" >"$2"
}

# collect PID OUT COUNTS: wait for a lane (PID empty: none ran), print its
# output and add its counts.
collect() {
	local p f

	[[ -z $1 ]] || wait "$1"
	cat "$2"
	read -r p f <"$3" || { p=0; f=1; }
	pass=$((pass + p))
	fail=$((fail + f))
	rm -f "$2" "$3"
}

start=$SECONDS
# The host tests share nothing with the gates and mostly wait on one core
# while the gates compile: they run beside them, and print after them; so
# do the package tests, beside both (not with --quick).
# The CLI both lanes use is built first: two makes must not build it at once.
"$MAKE" --no-print-directory -C "$REPO" cli >/dev/null ||
	{ echo "the CLI does not build"; exit 1; }
host_log=$(mktemp)
host_counts=$(mktemp)
lane "$host_log" "$host_counts" host_tests &
host_pid=$!
pkg_log=$(mktemp)
pkg_counts=$(mktemp)
pkg_pid=
echo "0 0" >"$pkg_counts"
if ((!QUICK)); then
	lane "$pkg_log" "$pkg_counts" package_tests &
	pkg_pid=$!
fi
timed "kernel gates: checkpatch --strict; W=1 and sparse on ${MATRIX[*]}" gates
collect "$host_pid" "$host_log" "$host_counts"
collect "$pkg_pid" "$pkg_log" "$pkg_counts"
# test_ynl.sh once, on the newest kernel (below): what 6.1 does
# differently in netlink (messages without NL_SET_ERR_MSG_FMT, no split
# ops) the C programs check here.  test_sources.sh on the newest and the
# debug kernel: 6.1 probes the same tracepoints with the same prototypes.
# 30 minutes for the guest: the suite takes 10 quiet, and a machine busy
# with two other builds and guests stretched it past 15.  30,000 fuzzed
# messages, not fuzz_genl's 100,000: its seed is new each run (35 s less).
# 25 load and unload cycles, the fewest test_faults takes (50 by default).
TP_FUZZ_COUNT=30000 TP_LOAD_CYCLES=25 timed "VM suite on 6.1-cloud" \
	vm 6.1-cloud full --smp 4 --timeout 1800 --skip test_ynl.sh \
	--skip test_sources.sh
if ((!QUICK)); then
	timed "VM suite on newest-cloud" vm_newest
	timed "VM suite on the debug kernel" vm_debug
	for k in 6.1-rt 6.12-cloud 6.12-rt newest-rt 5.10-cloud; do
		if [[ ${KERNELS:-} == all ]]; then
			timed "VM suite on $k" vm "$k" full --smp 4
		elif [[ $k == 5.10-cloud ]]; then
			TP_FUZZ_COUNT=1000 timed "VM smoke run on $k" vm "$k" smoke --smp 4
		else
			timed "VM smoke run on $k" vm "$k" smoke --smp 4
		fi
	done
	timed "VM run of the backport kernel's module on 6.1-cloud" \
		vm backport backport --smp 4
	# An AMD Zen that does not say it is a VM, with CPU 1 isolated as a
	# lab's measured CPUs are: the SMI count's source where MSR_SMI_COUNT
	# is taken as unreadable (the module's test hook: QEMU emulates the
	# MSR for every model), a PMU counter TCG cannot give, and a CPU held
	# after a long warm-up, which only nohz_full's exact accounting tells
	# apart from one another task owns.  mitigations=off: the kernel warns
	# of an EPYC without its microcode's SRSO fix otherwise.
	timed "VM run on 6.1-cloud as an AMD Zen guest, CPU 1 nohz_full" \
		vm 6.1-cloud full --smp 4 --cpu EPYC,-hypervisor \
		--append "mitigations=off nohz_full=1" \
		test_smi test_info "test_faults held_after_a_long_warm_up"
	timed "VM smoke run on 6.1-cloud with 64 vCPUs" vm_big
	timed "VM run on 6.1-cloud as a two-socket server" vm_server
	timed "VM run on arm64-cloud: the userspace engine" vm_arm64
fi
echo "== $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
((fail == 0))
