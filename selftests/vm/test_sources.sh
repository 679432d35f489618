#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_sources.sh - what ran on a measured CPU, as the module's probes on
# the kernel's tracepoints record it (kmod/src_probes.c), in the noise run's
# debugfs view.  Runs as root in the guest (busybox sh) with the module at
# /lib/tscprobe/tscprobe.ko and the CLI on PATH:
#  - the probes are attached while a noise run is on, not by insmod, info
#    or a cache run, and are gone once it has ended, by STOP, by its
#    duration after kill -9 of the CLI, or by a START that was refused;
#    rmmod mid-run leaves none; sources=0 attaches none (a probe left
#    behind would call into the unloaded module at the next context
#    switch: the harness scans the kernel log), and its runs' ends keep
#    no START waiting;
#  - a run ends and says so on time while its probes' detach is held back
#    (the test hook test_detach_ms, as a kernel slow to patch its text),
#    and the next START waits for the detach, then attaches them anew;
#  - a busy thread pinned to a CPU measured with interrupts on is named
#    there by pid and comm, with time;
#  - the serial port's interrupt, routed to that CPU, is named by number;
#    so is, in the server-shaped guest (selftests/vm/run.sh --machine
#    server), an NVMe queue's numbered past the x86 system vectors' first
#    (236), on the CPU it serves;
#  - NMIs the host injects while a CPU is measured with interrupts off are
#    named there, by handler, inside the windows and in the events;
#  - each event names what ran inside its gap (the busy thread among
#    them), with the unexplained rest adding up to the gap exactly, and
#    its cause is its largest source's kind where that is most of the gap
#    (the busy thread's events say "thread");
#  - per CPU, the time named never exceeds the run's duration, and no span
#    was lost;
#  - x86's system vectors are sources of their own: the tick is "irq
#    vector 236 local_timer", and where the guest has a device IRQ
#    numbered 236 (an NVMe queue: the server-shaped guest's, or any guest
#    given enough MSI-X queues; TP_NEED_IRQ_236=1 says it must have one),
#    I/O on the CPU that IRQ is affine to, measured with interrupts on,
#    names IRQ 236 and vector 236 apart, each with its own time.
# (PREEMPT_RT's interrupt threads are test_irqs.sh's.)
# Prints TAP and the kselftest totals line.
. /selftests/lib.sh
SHOW=/sys/kernel/debug/tscprobe/noise

# "N of M": the probes attached of those the module has.
attached() {
	sed -n 's/^probes: *\([0-9]* of [0-9]*\) attached.*/\1/p' /sys/kernel/debug/tscprobe/info
}

# The probes every kernel takes are attached, the tick's among them: only
# system vectors a kernel's configuration leaves out may be missing.
all_attached() {
	n=$(attached)
	missing=$(sed -n 's/^not probed: *//p' /sys/kernel/debug/tscprobe/info)
	echo "attached $1: ${n:-nothing}; not probed: ${missing:-none}"
	[ -n "$n" ] && [ "${n% of *}" -gt 0 ] || return 1
	for tp in $missing; do
		case $tp in
		irq_handler_*|softirq_*|sched_switch|nmi_handler|local_timer_*)
			return 1 ;;
		esac
	done
}

# wait_for COMMAND: up to 30 s.
wait_for() {
	i=0
	while ! "$@"; do
		[ $i -ge 300 ] && { echo "still not: $*"; return 1; }
		usleep 100000
		i=$((i + 1))
	done
}

# None attached, and debugfs says when they will be.
none_attached() {
	n=$(attached)
	echo "attached $1: ${n:-nothing}"
	[ "${n%% of *}" = 0 ] &&
		grep -q '^probes: .*(noise sources: while a noise run is on)$' \
			/sys/kernel/debug/tscprobe/info
}

not_running() {
	! tp_running
}

probes_off() {
	n=$(attached)
	[ "${n%% of *}" = 0 ]
}

# None attached once its end has detached them: a run says it has ended
# before it detaches its probes (kmod/run.c, tp_run_finish()).
detached() {
	tap_wait_for 10 probes_off
	none_attached "$1"
}

now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

probes_while_running() {
	none_attached "after insmod" || return 1
	tscprobe info >/dev/null && tscprobe cache -c 1 -n 1e4 -q >/dev/null ||
		return 1
	none_attached "after info and a cache run" || return 1
	tscprobe noise -c 1 -d 60s -q -j >/dev/null 2>&1 &
	pid=$!
	wait_for tp_running || return 1
	all_attached "during a run" || return 1
	tscprobe stop || return 1
	wait "$pid"
	detached "after STOP" || return 1
	# Attached again by the next run: its sources are named.
	tscprobe noise -c 1 -d 300ms -q -j >"$OUT/again.json" || return 1
	jq -e '.cpus[0].sources.kinds.irq != null' "$OUT/again.json" \
		>/dev/null || { echo "the second run names no source"; return 1; }
	detached "after a run that ended by itself" || return 1
	tscprobe noise -c 1 -d 60s -q >/dev/null 2>&1 &
	pid=$!
	wait_for tp_running || return 1
	# Refused as busy: the probes stay for the run that is on.
	tscprobe noise -c 0 -d 1s -q >/dev/null 2>&1 &&
		{ echo "a second START was not refused"; return 1; }
	all_attached "after a START refused as busy" || return 1
	tscprobe stop && wait "$pid" || return 1
	# No other run: a START refused for its CPU attaches and detaches.
	tscprobe noise -c 4095 -d 1s -q >/dev/null 2>&1 &&
		{ echo "a START on CPU 4095 was not refused"; return 1; }
	none_attached "after a START refused for its CPU"
}

# kill -9 of the CLI: the run goes on to its end, and then they are gone.
# A CLI killed during its run is what is tested: where a busy host let
# the run end before the kill (its CLI gone, or the run never seen
# running), a run three times as long tries again, twice at most.
cli_killed() {
	for secs in 6 18 54; do
		tscprobe noise -c 1 -d "${secs}s" -q >/dev/null 2>&1 &
		pid=$!
		if wait_for tp_running && kill -9 "$pid" 2>/dev/null; then
			wait "$pid"
			if all_attached "after kill -9 of the CLI in a ${secs} s run"; then
				tap_wait_for $((secs + 30)) not_running || return 1
				detached "after the killed CLI's run ended"
				return
			fi
			# Probes missing from a run still going: the defect.
			tp_running && return 1
		fi
		echo "the ${secs} s run ended before its CLI was killed and its probes seen"
		wait "$pid"
		tap_wait_for 30 not_running || return 1
	done
	return 1
}

# The module parameter test_detach_ms holds a noise run's detach back, as a
# kernel slow to patch its text does: a 64-vCPU TCG guest took seconds to
# tens of seconds, and once forever, a vCPU never running the IPI the patch
# waited for.  The run ends and says so on time all the same; its probes
# stay until the detach, and the next START waits for it, then attaches
# them anew.
DETACH_HOLD_MS=9000
end_before_detach() {
	hold=/sys/module/tscprobe/parameters/test_detach_ms
	echo "$DETACH_HOLD_MS" >"$hold" || return 1
	t0=$(now_ms)
	tscprobe noise -c 1 -d 200ms -q -j >"$OUT/held.json"
	rc=$?
	ms=$(($(now_ms) - t0))
	echo 0 >"$hold"
	echo "a 200 ms run whose detach is held for $DETACH_HOLD_MS ms: the CLI returned after $ms ms (exit $rc)"
	[ "$rc" -eq 0 ] && [ "$ms" -lt $((DETACH_HOLD_MS * 2 / 3)) ] || return 1
	all_attached "while the ended run's detach is held" || return 1
	tscprobe noise -c 1 -d 200ms -q -j >"$OUT/after-held.json" || return 1
	ms=$(($(now_ms) - t0))
	echo "the next run, started during the held detach, ended after $ms ms"
	[ "$ms" -ge "$DETACH_HOLD_MS" ] ||
		{ echo "it did not wait for the detach"; return 1; }
	jq -e '.cpus[0].sources.kinds.irq != null' "$OUT/after-held.json" \
		>/dev/null || { echo "the next run names no source"; return 1; }
	detached "after both runs"
}

# A START while the last run's probes detach (held back by
# test_detach_ms) is refused with EAGAIN at once, never waiting under
# genetlink's lock: the CLI asks again meanwhile, and Ctrl-C ends that
# within a second, exit 4, nothing started.
INTR_HOLD_MS=6000
start_during_a_detach_waits_in_the_cli() {
	hold=/sys/module/tscprobe/parameters/test_detach_ms
	echo "$INTR_HOLD_MS" >"$hold" || return 1
	tscprobe noise -c 1 -d 200ms -q >/dev/null || { echo 0 >"$hold"; return 1; }
	tscprobe noise -c 1 -d 200ms -q >/dev/null 2>"$OUT/intr.err" &
	pid=$!
	tap_wait_for 20 tap_catches "$pid" 2 || { echo 0 >"$hold"; return 1; }
	usleep 500000
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
	t0=$(now_ms)
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	ms=$(($(now_ms) - t0))
	echo 0 >"$hold"
	echo "a START during a detach held $INTR_HOLD_MS ms: state $state, exit $rc $ms ms after Ctrl-C: $(cat "$OUT/intr.err")"
	detached "after the held detach" || return 1
	[ "$state" != D ] && [ "$rc" -eq 4 ] && [ "$ms" -lt $((INTR_HOLD_MS / 2)) ] &&
		grep -q "interrupted, nothing started: the last run's probes are being detached" \
			"$OUT/intr.err"
}

rmmod_mid_run() {
	tscprobe noise -c 1 -d 60s -q >/dev/null 2>&1 &
	pid=$!
	wait_for tp_running || return 1
	rmmod tscprobe || return 1
	wait "$pid"
	# Context switches on every CPU, with the module gone.
	for cpu in 0 1; do
		taskset -c $cpu sh -c 'i=0; while [ $i -lt 50 ]; do usleep 1000; i=$((i + 1)); done'
	done
	insmod "$KO"
}

# The line of source KIND ID on CPU 1 in the noise view, or nothing.
source_line() {
	awk -v want="  source $1 $2 " '
		/^cpu / { cpu = $2 }
		cpu == "1:" && index($0, want) == 1 { print; exit }' "$SHOW"
}

cycles_of() {
	echo "$1" | sed -n 's/.* cycles=\([0-9]*\)$/\1/p'
}

# With voluntary preemption nothing preempts the measuring thread inside a
# window (it yields before each): full preemption, where the kernel can
# switch, for this test.
PREEMPT=/sys/kernel/debug/sched/preempt

# preempt_full: full preemption, if the kernel can switch; prints the mode
# to give back (preempt_back), or nothing.
preempt_full() {
	if [ -w $PREEMPT ] && ! grep -Eq '\((full|lazy)\)' $PREEMPT; then
		sed -n 's/.*(\([a-z]*\)).*/\1/p' $PREEMPT
		echo full >$PREEMPT || return 1
	fi
}

preempt_back() {
	[ -z "$1" ] || echo "$1" >$PREEMPT
}

busy_thread_is_named() {
	mode=$(preempt_full) || return 1
	taskset -c 1 sh -c 'while :; do :; done' &
	hog=$!
	echo "$hog" >"$OUT/hog"
	tscprobe noise -c 1 --irqs on -d 1s -q -j >"$OUT/busy.json"
	s=$?
	kill "$hog"
	wait "$hog" 2>/dev/null
	preempt_back "$mode"
	[ $s -eq 0 ] || return 1
	line=$(source_line thread "$hog")
	echo "${line:-no line for thread $hog}"
	grep '^  sources:' "$SHOW"
	echo "$line" | grep -q " $hog sh: count=" && [ "$(cycles_of "$line")" -gt 0 ] &&
		named_in_json "$OUT/busy.json" thread "$hog" sh
}

# named_in_json FILE KIND ID [NAME]: the CLI's JSON names the source on CPU 1
# with time, as debugfs does.
named_in_json() {
	jq -e --arg k "$2" --argjson id "$3" --arg name "${4:-}" '
		.cpus[] | select(.cpu == 1) | .sources.named |
		any(.[]; .kind == $k and .id == $id and .ns > 0 and .count > 0 and
			($name == "" or .name == $name))' "$1" >/dev/null && return 0
	echo "no $2 $3 in the JSON's sources of CPU 1:"
	jq -c '.cpus[] | select(.cpu == 1) | .sources' "$1"
	return 1
}

serial_irq_is_named() {
	irq=$(awk -F: '/ttyS0/ { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
	[ -n "$irq" ] || { echo "no ttyS0 in /proc/interrupts"; return 1; }
	old=$(cat /proc/irq/$irq/smp_affinity_list)
	echo 1 >/proc/irq/$irq/smp_affinity_list || return 1
	# Written from CPU 0 while the run lasts, 10 lines every 20 ms (about
	# 1000 interrupts a second: a flood can starve the guest's RCU kthread
	# of its vCPU under TCG on a busy host).
	tscprobe noise -c 1 --irqs on -d 2s -q -j >"$OUT/serial.json" &
	pid=$!
	taskset -c 0 sh -c "while kill -0 $pid 2>/dev/null; do
		for i in 0 1 2 3 4 5 6 7 8 9; do
			echo 'test_sources: serial output to interrupt CPU 1'
		done
		usleep 20000
	done" >/dev/ttyS0
	wait "$pid"
	s=$?
	echo "$old" >/proc/irq/$irq/smp_affinity_list
	[ $s -eq 0 ] || return 1
	line=$(source_line irq "$irq")
	echo "${line:-no line for irq $irq}"
	grep '^  source' "$SHOW"
	[ -n "$line" ] && [ "$(cycles_of "$line")" -gt 0 ] &&
		named_in_json "$OUT/serial.json" irq "$irq"
}

# The highest-numbered NVMe I/O queue's interrupt, past 236 (the tick's
# vector: the x86 system vectors' first), raised on the CPU its queue
# serves by direct reads, with full preemption so that they run inside
# the windows, while that CPU is measured: named there by its number and
# its queue's name, with time.  (Its CPU, not one of the test's choosing:
# a queue's interrupt is managed.  The admin queues' can be routed, but
# their numbers, allocated while the controllers probe side by side, were
# all below 236 in some boots.)
high_irq_is_named() {
	irq=$(tp_nvme_irqs | tail -n 1)
	[ -n "$irq" ] && [ "$irq" -gt 236 ] ||
		{ echo "no NVMe queue's IRQ past 236: ${irq:-none}"; return 1; }
	name=$(cat "/sys/kernel/irq/$irq/actions")
	cpu=$(tp_irq_cpu "$irq")
	echo "IRQ $irq ($name) on CPU $cpu"
	mode=$(preempt_full) || return 1
	tp_irq_raise "$irq" 60 &
	raiser=$!
	tscprobe noise -c "$cpu" --irqs on -d 2s -q -j >"$OUT/high.json"
	s=$?
	kill "$raiser"
	wait "$raiser" 2>/dev/null
	preempt_back "$mode"
	[ $s -eq 0 ] || return 1
	grep "^  source irq $irq " "$SHOW"
	grep -q "^  source irq $irq $name: " "$SHOW" &&
		jq -e --argjson cpu "$cpu" --argjson irq "$irq" --arg name "$name" '
			.cpus[] | select(.cpu == $cpu) | any(.sources.named[];
				.kind == "irq" and .id == $irq and (.vector | not) and
				.name == $name and .count > 0 and .cycles > 0)' \
			"$OUT/high.json" >/dev/null
}

# jq: an event has sources, and its named times and the unexplained rest
# add up to its gap exactly.
ADDS_UP='def adds_up: .sources != null and
	([.sources.named[].cycles] | add // 0) + .sources.unexplained_cycles == .cycles; '

# CPU @1's column of the NMI row of /proc/interrupts.
nmi_of_cpu() {
	awk -v col=$(($1 + 2)) '$1 == "NMI:" { print $col }' /proc/interrupts
}

# At least @2 NMIs on CPU 0 since its count was @1.
nmis_since() {
	[ "$(nmi_of_cpu 0)" -ge $(($1 + $2)) ]
}

# NMIs the host injects through QEMU's monitor (boot.sh serves "# vm-host:
# nmi N"; QEMU sends them to CPU 0) while CPU 0 is measured with interrupts
# off: the only source a window can have then.  The NMI handlers' time is
# named inside the windows and in the events whose gaps they fell in,
# nothing else is, and each event adds up (adds_up).  A second handler
# on the list (test_second_nmi) is called for each NMI, as on a server:
# each NMI counts once, in the first handler called, so the nmi kind
# counts no more than the NMIs CPU 0 took, and the second has time and
# count 0 (QEMU's NMIs are claimed by none: the first called counts).
nmi_is_named() {
	second=/sys/module/tscprobe/parameters/test_second_nmi
	# Refused at insmod: a load that fails after its arguments would
	# leave the handler registered in freed memory.
	rmmod tscprobe || return 1
	if insmod "$KO" test_second_nmi=1 2>/dev/null; then
		echo "insmod took test_second_nmi=1"
		return 1
	fi
	insmod "$KO" && echo 1 >"$second" || return 1
	before=$(nmi_of_cpu 0)
	tscprobe noise -c 0 -d 60s -q -j >"$OUT/nmi.json" &
	pid=$!
	wait_for tp_running || { echo 0 >"$second"; return 1; }
	# To the harness's own port (ttyS1, where the script's output goes):
	# tap_check holds this function's output until it returns.  A busy
	# host serves it seconds later: the run goes on until the NMIs are
	# in (30 s at most), then STOP ends it.
	echo "# vm-host: nmi 20" >/dev/ttyS1
	wait_for nmis_since "$before" 20
	tscprobe stop && wait "$pid"
	rc=$?
	after=$(nmi_of_cpu 0)
	echo 0 >"$second" || return 1
	[ "$rc" -eq 0 ] || return 1
	echo "NMIs on CPU 0: $before before the run, $after after it"
	[ "$after" -gt "$before" ] || { echo "no NMI reached CPU 0"; return 1; }
	jq -c '.cpus[0].sources | .kinds.nmi, [.named[] | select(.kind == "nmi")]' \
		"$OUT/nmi.json"
	jq -e --argjson took $((after - before)) "$ADDS_UP"'.cpus[0] as $c |
		$c.sources.kinds.nmi.count > 0 and $c.sources.kinds.nmi.cycles > 0 and
		$c.sources.kinds.nmi.count <= $took and
		([$c.sources.named[] | select(.kind == "nmi") | .count] | add) ==
			$c.sources.kinds.nmi.count and
		any($c.sources.named[]; .kind == "nmi" and
			(.name | test("tp_test_nmi")) and .count == 0 and .cycles > 0) and
		any($c.sources.named[]; .kind == "nmi" and .cycles > 0) and
		any($c.events[]; any(.sources.named[]; .kind == "nmi" and .cycles > 0)) and
		all($c.events[]; adds_up and
			all(.sources.named[]; .kind == "nmi" or .kind == "other"))' \
		"$OUT/nmi.json" >/dev/null
}

# Each event of the busy run names what ran inside its gap: the busy
# thread in some, and in every event the named sources and the
# unexplained rest add up to exactly its gap.  Each event's cause is its
# largest source's kind where that accounts for as much as is left
# unexplained, else a counter's word; the busy thread is the cause of
# some.
events_name_their_sources() {
	jq -e --argjson hog "$(cat "$OUT/hog")" "$ADDS_UP"'
		[.cpus[] | .events[]] as $ev |
		($ev | length) > 0 and
		($ev | all(adds_up and (.sources.named | length) <= 5)) and
		($ev | all(.sources.named[0] as $top |
			if $top != null and $top.kind != "other" and
			   $top.cycles > 0 and
			   $top.cycles >= .sources.unexplained_cycles
			then .cause == $top.kind
			else .cause != "thread" and .cause != "softirq" end)) and
		any($ev[]; .cause == "thread" and .sources.named[0].id == $hog) and
		any($ev[]; .sources.named |
			any(.[]; .kind == "thread" and .id == $hog))' \
		"$OUT/busy.json" >/dev/null && return 0
	echo "the events of the busy run do not name their sources or causes:"
	jq -c '.cpus[] | .events[] | {cycles, cause, sources}' "$OUT/busy.json" | head -20
	return 1
}

# Per CPU: the kinds' cycles add up to at most the run's; nothing lost,
# though the run is one window of a second with interrupts on, in which
# the tick and the softirqs write more spans than a CPU's ring holds.
# In the CLI's JSON of the same run: every kind known, the same exact
# totals as debugfs, within the CPU's measured time, the named sources,
# largest first (other last), and the tick (the local APIC timer, a
# system vector) among them.  With no span lost the named sources and
# other hold what the kinds do, time and count: none with time is left
# out, whatever its count.
named_time_fits() {
	tscprobe noise --irqs on -d 1s --width 1s -q -j >"$OUT/fits.json" ||
		return 1
	jq -e '[.cpus[] | .sources as $s |
		($s.kinds | to_entries | all(.value != null)) and
		([$s.kinds[] | .cycles] | add) <= .measured_cycles and
		([$s.named[] | select(.kind != "other") | .cycles] as $c |
			$c == ($c | sort | reverse)) and
		($s.lost != 0 or
			(([$s.named[] | .cycles] | add // 0) ==
				([$s.kinds[] | .cycles] | add) and
			 ([$s.named[] | .count] | add // 0) ==
				([$s.kinds[] | .count] | add))) and
		any($s.named[]; .kind == "irq" and .name == "local_timer")] | all' \
		"$OUT/fits.json" >/dev/null || {
		echo "the JSON's sources do not add up:"
		jq -c '.cpus[] | {cpu, measured_cycles, sources}' "$OUT/fits.json"
		return 1
	}
	jq -r '.cpus[] | "\(.cpu) \([.sources.kinds[] | "\(.count)/\(.cycles)"] | join(" "))"' \
		"$OUT/fits.json" >"$OUT/kinds-json"
	awk '/^cpu / { cpu = $2; sub(/:/, "", cpu) }
		/^  sources:/ { line = cpu
			for (i = 2; i <= 5; i++) { split($i, kv, "="); line = line " " kv[2] }
			print line }' "$SHOW" >"$OUT/kinds-debugfs"
	cmp "$OUT/kinds-json" "$OUT/kinds-debugfs" || {
		echo "kinds in JSON and in debugfs differ:"
		cat "$OUT/kinds-json" "$OUT/kinds-debugfs"
		return 1
	}
	cat "$SHOW" | grep -E '^(noise run|cpu |  sources:)'
	awk '
		/^noise run/ { for (i = 1; i <= NF; i++) if ($i ~ /^cycles_hz=/) { sub(/cycles_hz=/, "", $i); hz = $i + 0 } }
		/^  sources:/ {
			n++; sum = 0
			for (i = 2; i <= 5; i++) { split($i, kv, "[=/]"); sum += kv[3] }
			if (sum > hz) { print "named " sum " cycles in a 1 s run"; bad = 1 }
			if ($6 != "lost=0") { print "spans lost: " $6; bad = 1 }
			if ($7 != "unmatched=0") { print "exits without entries: " $7; bad = 1 }
		}
		END { if (!n || !hz) { print "no sources lines"; bad = 1 }; exit bad }' "$SHOW"
}

# The named sources of CPU $2 in the JSON file $1, one a line.
named_of_cpu() {
	jq -c --argjson cpu "$2" '.cpus[] | select(.cpu == $cpu) | .sources.named[]' "$1"
}

# Without a device IRQ 236 (no NVMe queue there): the tick, with its flag.
tick_is_a_vector() {
	tscprobe noise -c 1 --irqs on -d 300ms -q -j >"$OUT/tick.json" || return 1
	jq -e '.cpus[0].sources.named |
		any(.[]; .kind == "irq" and .vector and .id == 236 and
			.name == "local_timer") and
		all(.[]; (.vector | not) or .kind == "irq")' "$OUT/tick.json" \
		>/dev/null && return 0
	named_of_cpu "$OUT/tick.json" 1
	return 1
}

# IRQ 236, an NVMe queue, fires on its CPU, measured with interrupts on,
# while direct reads and writes go to its controller from there (a queue
# is read's or write's: nvme.write_queues splits them), with full
# preemption so that they run inside the windows; the tick is vector 236
# on every CPU.  Two sources, each named, counted and timed.
vectors_apart_from_device_irqs() {
	row=$(awk '$1 == "236:"' /proc/interrupts)
	if [ -z "$row" ]; then
		[ -n "${TP_NEED_IRQ_236:-}" ] &&
			{ echo "TP_NEED_IRQ_236: but this guest has no IRQ 236"; return 1; }
		echo "no device IRQ 236 in this guest: the tick's flag alone"
		tick_is_a_vector
		return
	fi
	action=$(echo "$row" | awk '{ print $NF }')
	cpu=$(sed 's/[-,].*//' /proc/irq/236/effective_affinity_list)
	dev=/dev/${action%q*}n1
	echo "IRQ 236 is $action, on CPU $cpu; I/O to $dev"
	case $action in
	nvme*q0) echo "an admin queue: no I/O fires it"; return 1 ;;
	nvme*q*) [ -b "$dev" ] || { echo "no $dev"; return 1; } ;;
	*) echo "not an NVMe queue: no I/O this test knows fires it"; return 1 ;;
	esac
	mode=$(preempt_full) || return 1
	taskset -c "$cpu" sh -c "while :; do
		dd if=$dev of=/dev/null bs=4k count=256 iflag=direct
		dd if=/dev/zero of=$dev bs=4k count=256 oflag=direct
	done" 2>/dev/null &
	io=$!
	tscprobe noise -c "$cpu" --irqs on -d 2s -q -j >"$OUT/apart.json"
	s=$?
	kill "$io"
	wait "$io" 2>/dev/null
	preempt_back "$mode"
	[ $s -eq 0 ] || return 1
	named_of_cpu "$OUT/apart.json" "$cpu" | grep '"id":236,'
	grep -E '^  source irq (vector )?236 ' "$SHOW"
	jq -e --argjson cpu "$cpu" --arg action "$action" '
		.cpus[] | select(.cpu == $cpu) | .sources.named as $n |
		any($n[]; .kind == "irq" and .id == 236 and .vector and
			.name == "local_timer" and .count > 0 and .cycles > 0) and
		any($n[]; .kind == "irq" and .id == 236 and (.vector | not) and
			.name == $action and .count > 0 and .cycles > 0)' \
		"$OUT/apart.json" >/dev/null &&
		grep -q "^  source irq vector 236 local_timer: " "$SHOW" &&
		grep -q "^  source irq 236 $action: " "$SHOW"
}

# sources=0: nothing attached, ever, and no run names a source.
sources_off() {
	rmmod tscprobe && insmod "$KO" sources=0 || return 1
	grep -q '^probes: *0 of [0-9]* attached (noise sources: off, module parameter sources=N)$' \
		/sys/kernel/debug/tscprobe/info &&
		tscprobe noise -c 1 -d 200ms -q -j >"$OUT/off.json" &&
		grep -q '^probes: *0 of ' /sys/kernel/debug/tscprobe/info &&
		jq -e '[.cpus[] | .sources == null and
			.causes.thread == null and .causes.softirq == null and
			all(.events[]; .sources == null and
				.cause != "thread" and .cause != "softirq")] | all' \
			"$OUT/off.json" >/dev/null
	s=$?
	rmmod tscprobe && insmod "$KO" && [ $s -eq 0 ]
}

# sources=0: a noise run attaches no probe, so its end detaches none, and
# the next START is not refused meanwhile: with the detach's hold
# (test_detach_ms) on, a run right after another starts at once.
sources_off_next_start_at_once() {
	rmmod tscprobe && insmod "$KO" sources=0 || return 1
	hold=/sys/module/tscprobe/parameters/test_detach_ms
	echo "$DETACH_HOLD_MS" >"$hold"
	tscprobe noise -c 1 -d 200ms -q >/dev/null
	first=$?
	t0=$(now_ms)
	tscprobe noise -c 1 -d 200ms -q >/dev/null
	rc=$?
	ms=$(($(now_ms) - t0))
	echo 0 >"$hold"
	echo "sources=0, the detach held $DETACH_HOLD_MS ms: the next run ended after $ms ms (exits $first, $rc)"
	rmmod tscprobe && insmod "$KO" && [ "$first" -eq 0 ] &&
		[ "$rc" -eq 0 ] && [ "$ms" -lt $((DETACH_HOLD_MS * 2 / 3)) ]
}

tap_fresh_module "$KO"
tap_check "probes attached while a noise run is on, gone after it" probes_while_running
tap_check "kill -9 of the CLI: no probe once its run has ended" cli_killed
tap_check "a run ends on time while its probes' detach is held back" end_before_detach
tap_check "a START during a detach waits in the CLI, not in the kernel" \
	start_during_a_detach_waits_in_the_cli
tap_check "rmmod mid-run leaves no probe" rmmod_mid_run
tap_check "sources=0 attaches nothing and names nothing" sources_off
tap_check "sources=0: a START as the last run ends is not refused" \
	sources_off_next_start_at_once
tap_check "a busy thread on the measured CPU is named, with time" busy_thread_is_named
tap_check "each event names what ran inside its gap, adding up to it, and its cause" events_name_their_sources
tap_check "the serial port's interrupt on the measured CPU is named" serial_irq_is_named
[ -n "$(tp_nvme_irqs)" ] &&
	tap_check "a device interrupt numbered past 236 on the measured CPU is named" \
		high_irq_is_named
tap_check "NMIs inside windows with interrupts off are named, by handler, each counted once" nmi_is_named
tap_check "the time named per CPU fits in the run" named_time_fits
tap_check "system vectors are sources apart from device IRQs of their number" \
	vectors_apart_from_device_irqs
tap_done
