#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_irqs.sh - interrupts and real-time threads on the measured CPUs.
# Runs as root in the guest (busybox sh) with the module at
# /lib/tscprobe/tscprobe.ko, the CLI, vm-pace and timerlat on PATH.
#
# The worst cases a run can be given, each on every CPU: noise with the
# widest windows (1 s), with the narrowest windows and the shortest gap
# (10 us each), with interrupts on, with the defaults; cache and skew.
# Meanwhile both serial ports carry output (on PREEMPT_RT their handlers
# are the threads irq/3-ttyS1 and irq/4-ttyS0) and timerlat keeps a
# SCHED_FIFO 50 thread, an interrupt thread's class and priority, waking on
# every CPU.  After each run:
#  - no interrupt line was disabled ("nobody cared", "Disabling IRQ #"),
#    and both serial lines still interrupt;
#  - noise: the bound the admin guide gives: a real-time thread woken on a CPU
#    (an interrupt thread, timerlat) runs there before that CPU starts
#    another interrupts-off window.  From the ftrace of the run, with the
#    TSC as the trace clock, so that the windows' own TSC stamps
#    (tscprobe_window) compare with the wake-ups and switches: no window
#    may start on a CPU between a real-time thread's wake-up there and its
#    switch-in there.  At least one wake-up per CPU must be seen, so the
#    check cannot pass by seeing nothing.  A thread the scheduler moves to
#    another CPU while it waits (an unbound one: rcu_preempt) is left out:
#    the move is traced before the target CPU is told, so its wait there
#    has no exact start.  Interrupt threads and timerlat's are bound.
#    RT throttling is off for the test (sched_rt_runtime_us -1), and so
#    is every CPU's fair server (6.12 on): under TCG a vCPU the host
#    deschedules charges that time to the thread it was running, and
#    either mechanism then legitimately runs the measurement thread ahead
#    of waiting real-time threads.
#    A kernel without ftrace (the project's debug kernel) gets every other
#    check, and a comment that says this one did not run.
#  - on PREEMPT_RT, what ran on a CPU measured with interrupts on, with
#    the serial port's interrupt routed there, a SCHED_FIFO 60 timer
#    thread waking there every millisecond (above the interrupt threads'
#    50: it preempts them and ksoftirqd mid-softirq) and a SCHED_FIFO 99
#    poller owning the CPU beside it, as a DPDK core would: no frame of
#    the sources' bookkeeping is unmatched (a softirq preempted in its
#    thread goes on when the thread does), and the serial port's
#    interrupt thread is named as its interrupt, irq N with the thread
#    irq/N-ttyS0, never as a thread, and the irq kind's count is the sum
#    of its sources' (an interrupt thread counted once per wake-up); read
#    by nobody, the same results name no thread (pid and name withheld),
#    with the same figures.
# Prints TAP and the kselftest totals line.
. /selftests/lib.sh

# irq_count N: interrupts of line N so far, summed over the CPUs.
irq_count() {
	awk -v n="$1:" '$1 == n { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++)
		s += $i; print s; exit }' /proc/interrupts
}

# The serial output: both ports, through vm-pace (at most 256 bytes queued
# at a time), so that the traffic itself stays far from the spurious-
# interrupt detector's ratio on PREEMPT_RT (see selftests/qemu/vm-pace.c) and
# anything that disables a line is the run's doing.  ttyS1 is this
# script's output; its lines are TAP comments.
traffic_start() {
	(i=0; while :; do echo "# serial traffic $i ........................................"
		i=$((i + 1)); sleep 0.01; done) | vm-pace &
	TRAFFIC1=$!
	(i=0; while :; do echo "test_irqs: console traffic $i ......................"
		i=$((i + 1)); sleep 0.01; done) | vm-pace >/dev/ttyS0 &
	TRAFFIC0=$!
	timerlat -r 50 -p 2000 -o "$OUT/timerlat.json" &
	TIMERLAT=$!
}

traffic_stop() {
	kill "$TIMERLAT" 2>/dev/null
	wait "$TIMERLAT" 2>/dev/null
	# The writers die of SIGPIPE once their vm-pace is gone.
	kill "$TRAFFIC1" "$TRAFFIC0" 2>/dev/null
	wait "$TRAFFIC1" "$TRAFFIC0" 2>/dev/null
}

# The tracing state the later programs find is the one this one found:
# the clock, the buffers, and each event's enable and filter (the guest's
# init keeps the sched events on, filtered to nothing, so that no test
# patches the scheduler's tracepoints; see selftests/qemu/init.sh).
TRACE_EVENTS="sched/sched_wakeup sched/sched_migrate_task sched/sched_switch
	tscprobe/tscprobe_window"
trace_save() {
	CLOCK0=$(sed 's/.*\[\(.*\)\].*/\1/' "$TR/trace_clock")
	# "7 (expanded: 1408)" until a tracer first needs the buffers: the size
	# they would have had is the one to give back.
	BUF0=$(sed 's/.*expanded: \([0-9]*\).*/\1/' "$TR/buffer_size_kb")
	ON0=$(cat "$TR/tracing_on")
	mkdir -p "$OUT/trace0"
	for e in $TRACE_EVENTS; do
		f=$OUT/trace0/$(basename "$e")
		cat "$TR/events/$e/enable" >"$f.enable"
		cat "$TR/events/$e/filter" >"$f.filter"
	done
}

trace_restore() {
	echo 0 >"$TR/tracing_on"
	for e in $TRACE_EVENTS; do
		f=$OUT/trace0/$(basename "$e")
		cat "$f.enable" >"$TR/events/$e/enable"
		if [ "$(cat "$f.filter")" = none ]; then
			echo 0 >"$TR/events/$e/filter"
		else
			cat "$f.filter" >"$TR/events/$e/filter"
		fi
	done
	echo >"$TR/trace"
	echo "$CLOCK0" >"$TR/trace_clock"
	echo "$BUF0" >"$TR/buffer_size_kb"
	echo "$ON0" >"$TR/tracing_on"
}

trace_setup() {
	[ -w "$TR/trace_clock" ] || { echo "no tracefs at $TR"; return 1; }
	trace_save
	echo 0 >"$TR/tracing_on"
	echo x86-tsc >"$TR/trace_clock" || return 1
	echo 8192 >"$TR/buffer_size_kb" || return 1
	for e in sched_wakeup sched_migrate_task; do
		echo 'prio < 100' >"$TR/events/sched/$e/filter" &&
			echo 1 >"$TR/events/sched/$e/enable" || return 1
	done
	echo 'prev_prio < 100 || next_prio < 100' \
		>"$TR/events/sched/sched_switch/filter" &&
		echo 1 >"$TR/events/sched/sched_switch/enable" &&
		echo 1 >"$TR/events/tscprobe/tscprobe_window/enable"
}

# trace_between FROM TO: the trace's events from TSC FROM to TSC TO (at most
# 60), the evidence a violation is shown with.
trace_between() {
	echo "the trace from $1 to $2:"
	awk -v from="$1" -v to="$2" '/^#/ { next }
	{ ts = $0; sub(/: [a-z_]+: .*/, "", ts); sub(/.* /, "", ts) }
	ts + 0 >= from + 0 && ts + 0 <= to + 0 && n++ < 60' "$TR/trace"
}

# check_trace NAME: the bound, from the trace of the run that just ended.
# Prints the violations (at most 10) and the figures; fails on a violation
# or on a CPU without a real-time wake-up.
check_trace() {
	lost=$(grep -h '^overrun:' "$TR"/per_cpu/cpu*/stats | awk '{ s += $2 } END { print s + 0 }')
	# One line per fact: "W CPU START END" a window, "I CPU FROM TO COMM"
	# a real-time thread waiting on CPU's run queue (TO empty: to the end),
	# "M N" the waits left out because the thread was moved.
	awk '
	function field(name,    i) {
		for (i = 1; i <= NF; i++)
			if (index($i, name "=") == 1)
				return substr($i, length(name) + 2)
		return ""
	}
	/^#/ { next }
	{
		cpu = $0; sub(/^[^[]*\[/, "", cpu); cpu = substr(cpu, 1, index(cpu, "]") - 1) + 0
		ts = $0; sub(/: [a-z_]+: .*/, "", ts); sub(/.* /, "", ts)
	}
	/ sched_wakeup: / {
		pid = field("pid"); tgt = field("target_cpu") + 0
		if (cur[tgt] == pid || (pid in wake))
			next
		wake[pid] = ts; wcpu[pid] = tgt; comm[pid] = field("comm")
		next
	}
	/ sched_migrate_task: / {
		if ((pid = field("pid")) in wake) {
			moved++
			delete wake[pid]
		}
		next
	}
	/ sched_switch: / {
		next_pid = field("next_pid"); cur[cpu] = next_pid
		if (next_pid in wake) {
			if (wcpu[next_pid] == cpu)
				print "I", cpu, wake[next_pid], ts, comm[next_pid]
			delete wake[next_pid]
		}
		next
	}
	/ tscprobe_window: / {
		print "W", cpu, field("start_tsc"), field("end_tsc")
	}
	END {
		for (pid in wake)
			print "I", wcpu[pid], wake[pid], "", comm[pid]
		print "M", moved + 0
	}' "$TR/trace" >"$OUT/$1.facts"
	# Per CPU, in TSC order: a window that starts while a wait is open.
	awk '
	$1 == "I" { n[$2]++; waits++
		if ($4 != "" && $4 - $3 > maxwait) { maxwait = $4 - $3; who = $5 }
		if ($4 == "") never++ }
	$1 == "W" { windows++; if ($4 - $3 > maxwin) maxwin = $4 - $3 }
	$1 == "M" { moved = $2 }
	END {
		# %.0f: busybox awk prints %d in 32 bits.
		printf "windows %d, longest %.0f cycles; real-time waits %d, longest %.0f cycles (%s), never ran %d, moved %d\n",
			windows, maxwin, waits, maxwait, who, never, moved
		for (c = 0; c < ncpu; c++)
			if (!n[c]) { printf "no real-time wake-up seen on CPU %d\n", c; bad = 1 }
		if (!windows) { print "no window in the trace"; bad = 1 }
		exit bad
	}' ncpu="$ncpu" "$OUT/$1.facts" || return 1
	# Opening and closing events of every wait, and every window start.
	awk '$1 == "I" { print $2, $3, 1, $5; print $2, ($4 == "" ? "99999999999999999999" : $4), -1, $5 }
	     $1 == "W" { print $2, $3, 0, "window" }' "$OUT/$1.facts" |
		sort -k1,1n -k2,2n -k3,3nr >"$OUT/$1.sweep"
	awk '
	$1 != c { c = $1; open = 0; delete who }
	$3 == 1 { open++; who[$4] = $2 }
	$3 == -1 { open--; delete who[$4] }
	$3 == 0 && open > 0 {
		bad++
		if (bad <= 10) {
			s = ""; for (w in who) { s = s " " w "@" who[w]; from = who[w] }
			printf "CPU %d started a window at %s while waiting:%s\n", c, $2, s
		}
		if (bad == 1)
			printf "%s %s\n", from, $2 >evidence
	}
	END { if (bad) printf "%d windows started over a waiting real-time thread\n", bad; exit bad > 0 }' \
		evidence="$OUT/$1.evidence" "$OUT/$1.sweep" || {
		trace_between $(cat "$OUT/$1.evidence")
		return 1
	}
	# Events lost to a full buffer are the oldest: what is left is still
	# checked whole, there is only less of it.
	[ "$lost" -eq 0 ] || echo "the trace overwrote $lost old events"
}

# run_checked NAME CLI-ARGS...: one run on every CPU with traffic and the
# trace on, then the checks; the order of wake-ups and windows for noise,
# the measurement whose windows the tscprobe_window tracepoint shows.
run_checked() {
	name=$1
	shift
	l0=$(dmesg | wc -l)
	s0=$(irq_count 3) c0=$(irq_count 4)
	if [ -n "$TRACED" ]; then
		echo >"$TR/trace"
		echo 1 >"$TR/tracing_on"
	fi
	traffic_start
	tscprobe "$@" -q -j >"$OUT/$name.json" 2>"$OUT/$name.err"
	rc=$?
	traffic_stop
	[ -n "$TRACED" ] && echo 0 >"$TR/tracing_on"
	tap_check "$name: tscprobe $* exits 0" sh -c "[ $rc -eq 0 ] || { cat $OUT/$name.err; false; }"
	tap_check "$name: no interrupt line disabled" sh -c \
		"! dmesg | tail -n +$((l0 + 1)) | grep -E 'nobody cared|Disabling IRQ #'"
	tap_check "$name: both serial lines interrupted during the run" sh -c \
		"echo ttyS1 $s0 to $(irq_count 3), ttyS0 $c0 to $(irq_count 4);
		 [ $(irq_count 3) -gt $s0 ] && [ $(irq_count 4) -gt $c0 ]"
	[ "$1" = noise ] && [ -n "$TRACED" ] || return 0
	f=$TAP_FAIL
	tap_check "$name: a real-time thread woken on a CPU runs before its next window" \
		check_trace "$name"
	[ "$TAP_FAIL" -eq "$f" ] && sed 's/^/# /' "$TAP_LAST"
}

# rt_unthrottled: waits (at most 3 s) until no CPU's real-time run queue is
# throttled.  One throttled before sched_rt_runtime_us became -1 stays so
# until its period timer fires (sched_rt_period_us, 1 s), and until then
# its real-time threads wait while the measurement thread runs.  The
# scheduler's debug file says so per CPU (rt_throttled); 7.3's has no such
# line, and there nothing is waited for.
rt_unthrottled() {
	d=/sys/kernel/debug/sched/debug
	[ -r "$d" ] || d=/proc/sched_debug
	i=0
	while grep -q 'rt_throttled *: *[1-9]' "$d"; do
		if [ $i -ge 30 ]; then
			grep -B1 'rt_throttled *: *[1-9]' "$d"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

tap_fresh_module "$KO"
RT_RUNTIME=$(cat /proc/sys/kernel/sched_rt_runtime_us)
echo -1 >/proc/sys/kernel/sched_rt_runtime_us
tap_check "no real-time run queue throttled" rt_unthrottled
FAIR=/sys/kernel/debug/sched/fair_server
FAIR_RUNTIMES=
for f in "$FAIR"/cpu*/runtime; do
	[ -w "$f" ] || continue
	FAIR_RUNTIMES="$FAIR_RUNTIMES $f=$(cat "$f")"
	echo 0 >"$f"
done
TRACED=
if [ -d "$TR/events" ]; then
	tap_check "tracing with the TSC clock" trace_setup
	TRACED=1
else
	echo "# no ftrace in this kernel: the order of wake-ups and windows is not checked"
fi

run_checked widest noise -d 3s --width 1s
run_checked narrowest noise -d 1s --width 10us --gap 10us
run_checked irqs-on noise -d 2s --irqs on --width 1s
run_checked defaults noise -d 2s
run_checked cache cache -n 1e4
run_checked skew skew -n 32

# This kernel is PREEMPT_RT.
preempt_rt() {
	[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] ||
		uname -v | grep -q PREEMPT_RT
}

SHOW=/sys/kernel/debug/tscprobe/noise

# The "unmatched=N" of CPU $1's sources line in the noise view: N.
unmatched_of_cpu() {
	awk -v want="$1:" '/^cpu / { cpu = $2 }
		cpu == want && /^  sources:/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^unmatched=/) { sub(/unmatched=/, "", $i); print $i }
		}' "$SHOW"
}

# rt_traffic_run FILE LINES RT ARGS...: "tscprobe noise -c 1 --irqs on
# ARGS -q -j" into FILE with the serial port's interrupt on CPU 1 and
# LINES lines of console traffic every 10 ms while the run lasts; RT 1:
# timerlat on CPU 1 and the poller beside it too.
rt_traffic_run() {
	out=$1 lines=$2 rt=$3
	shift 3
	irq=$(awk -F: '/ttyS0/ { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
	[ -n "$irq" ] || { echo "no ttyS0 in /proc/interrupts"; return 1; }
	old=$(cat /proc/irq/$irq/smp_affinity_list)
	echo 1 >/proc/irq/$irq/smp_affinity_list || return 1
	tl= poller=
	if [ "$rt" = 1 ]; then
		timerlat -r 60 -p 1000 -d 5 -o "$OUT/rt-timerlat.json" &
		tl=$!
	fi
	if [ "$rt" = 1 ] && [ "$ncpu" -gt 2 ]; then
		rtpoller 2 5 &
		poller=$!
	fi
	on1=$(awk -v n="$irq:" '$1 == n { print $3 }' /proc/interrupts)
	tscprobe noise -c 1 --irqs on "$@" -q -j >"$out" &
	pid=$!
	taskset -c 0 sh -c "i=0; while kill -0 $pid 2>/dev/null; do
		j=0; while [ \$j -lt $lines ]; do
			echo \"test_irqs: to ttyS0 on CPU 1 \$i.\$j ..................\"
			j=\$((j + 1))
		done
		i=\$((i + 1)); sleep 0.01
	done" | vm-pace >/dev/ttyS0
	wait "$pid"
	s=$?
	wait $tl $poller
	echo "$old" >/proc/irq/$irq/smp_affinity_list
	echo "IRQ $irq on CPU 1: $on1 before the run, $(awk -v n="$irq:" \
		'$1 == n { print $3 }' /proc/interrupts) after"
	return $s
}

rt_interrupt_threads_named() {
	rt_traffic_run "$OUT/rt-sources.json" 10 1 -d 3s || return 1
	grep -E '^(cpu 1:|  source)' "$SHOW" | head -20
	n=$(unmatched_of_cpu 1)
	echo "unmatched on CPU 1: ${n:-none}"
	[ "$n" = 0 ] || return 1
	jq -e --argjson irq "$irq" '.cpus[] | select(.cpu == 1) | .sources.named |
		any(.[]; .kind == "irq" and .id == $irq and .thread != null and
			(.thread.name | startswith("irq/\($irq)-")) and .cycles > 0) and
		all(.[]; .kind != "thread" or
			(.name | startswith("irq/\($irq)-") | not))' \
		"$OUT/rt-sources.json" >/dev/null && return 0
	echo "the serial port's interrupt thread is not named as its interrupt:"
	jq -c '.cpus[] | select(.cpu == 1) | .sources.named[]' "$OUT/rt-sources.json"
	return 1
}

# The irq kind's count is what its sources count together: the hard
# parts' calls and the interrupt threads' wake-ups, never the threads'
# stretches against the calls.  Exactly, in windows of a second, in
# which the port's traffic writes more spans than a CPU's ring holds
# (64): every span of a window is kept, none lost.  Whether the port's
# interrupt thread runs inside a window is the scheduler's to decide: a
# run without it shows nothing of the rule, and up to 3 runs are made
# for one with it.
rt_irq_counts_add_up() {
	for try in 1 2 3; do
		rt_traffic_run "$OUT/rt-counts.json" 1 0 -d 2s --width 1s ||
			return 1
		jq -c '.cpus[] | select(.cpu == 1) | .sources |
			{kinds: .kinds.irq, lost, named: [.named[] |
				select(.kind == "irq" or .kind == "other") |
				{id, name, thread, count, cycles}]}' "$OUT/rt-counts.json"
		jq -e --argjson irq "$irq" '.cpus[] | select(.cpu == 1) |
			any(.sources.named[]; .kind == "irq" and .id == $irq and
				.thread != null)' "$OUT/rt-counts.json" >/dev/null &&
			break
		echo "run $try: the port's interrupt thread ran inside no window"
		[ $try = 3 ] && return 1
	done
	jq -e '.cpus[] | select(.cpu == 1) | .sources |
		([.named[] | select(.kind == "irq") | .count] | add) as $n |
		all(.named[]; .kind != "other") and
		.lost == 0 and $n == .kinds.irq.count' \
		"$OUT/rt-counts.json" >/dev/null
}

# The same results read by nobody: the serial port's interrupt is there,
# run in a thread whose pid and name are withheld; no thread's pid or name
# anywhere (threads summed); the figures by kind and the sums are root's.
rt_interrupt_threads_withheld() {
	irq=$(awk -F: '/ttyS0/ { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
	vm-runas 65534 tscprobe show noise -j >"$OUT/rt-nobody.json" || return 1
	jq -c '.cpus[] | select(.cpu == 1) | .sources.named[]' "$OUT/rt-nobody.json"
	jq -e --argjson irq "$irq" '.cpus[] | select(.cpu == 1) | .sources.named |
		any(.[]; .kind == "irq" and .id == $irq and .withheld and
			.thread == {pid: null, name: null})' \
		"$OUT/rt-nobody.json" >/dev/null || return 1
	jq -e '[.cpus[] | .sources.named[]?, .events[]?.sources.named[]?] |
		all(.[]; (.thread == null or .thread == {pid: null, name: null}) and
			(.kind != "thread" or (.withheld and .id == null)))' \
		"$OUT/rt-nobody.json" >/dev/null || return 1
	if grep -q '"irq/' "$OUT/rt-nobody.json"; then
		echo "an interrupt thread's name in nobody's results"
		return 1
	fi
	jq -n -e --slurpfile a "$OUT/rt-sources.json" \
		--slurpfile b "$OUT/rt-nobody.json" '
		def total: [.[] | .cycles] | add // 0;
		[$a[0].cpus[] | select(.cpu == 1)][0] as $r |
		[$b[0].cpus[] | select(.cpu == 1)][0] as $n |
		$r.sources.kinds == $n.sources.kinds and
		($r.sources.named | total) == ($n.sources.named | total)' >/dev/null
}

if preempt_rt; then
	tap_check "PREEMPT_RT: interrupt threads are their interrupts, nothing unmatched" \
		rt_interrupt_threads_named
	tap_check "PREEMPT_RT: nobody reads no interrupt thread's pid or name" \
		rt_interrupt_threads_withheld
	tap_check "PREEMPT_RT: the irq kind counts what its sources count" \
		rt_irq_counts_add_up
fi

# After everything: each serial line still raises interrupts.
lines_alive() {
	s=$(irq_count 3) c=$(irq_count 4)
	echo "# lines alive" | vm-pace >/dev/ttyS1
	echo "test_irqs: lines alive" | vm-pace >/dev/ttyS0
	echo "ttyS1 $s to $(irq_count 3), ttyS0 $c to $(irq_count 4)"
	[ "$(irq_count 3)" -gt "$s" ] && [ "$(irq_count 4)" -gt "$c" ]
}
tap_check "both serial lines still interrupt" lines_alive

[ -n "$TRACED" ] && trace_restore
echo "$RT_RUNTIME" >/proc/sys/kernel/sched_rt_runtime_us
for fr in $FAIR_RUNTIMES; do
	echo "${fr#*=}" >"${fr%%=*}"
done
rmmod tscprobe
tap_done
