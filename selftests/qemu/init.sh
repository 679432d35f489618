#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# /init of the tscprobe test VM (busybox sh, PID 1).
#
# Sets up a minimal system, runs the test programs /etc/tscprobe/tests
# lists (selftests/vm/run.sh), or else /test.sh (run-vm.sh), as root with
# their stdout and stderr on the second serial port (ttyS1, out.log on the
# host; in an arm64 guest a virtio console, hvc0), then hands the status to
# the host through vm-exit (isa-debug-exit; arm64: semihosting). The
# console (ttyS0; arm64: ttyAMA0) carries the kernel log and the few lines
# printed here.
#
# No "set -e": whatever fails, PID 1 must reach vm-exit, or the host only
# learns about it at its timeout.

# The applet links first: everything below relies on them. Existing files
# (added with --add) are left alone.
/bin/busybox --install -s
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export HOME=/root
umask 022

say() {
	echo "vm-init: $*"
}

# devtmpfs first: the console and the serial ports live there.
mount -t devtmpfs -o nosuid,mode=0755 devtmpfs /dev
exec </dev/null >/dev/console 2>&1

mount -t proc -o nosuid,nodev,noexec proc /proc || say "cannot mount /proc"
mount -t sysfs -o nosuid,nodev,noexec sysfs /sys || say "cannot mount /sys"
mount -t debugfs -o nosuid,nodev,noexec debugfs /sys/kernel/debug ||
	say "cannot mount debugfs"
mount -t tmpfs -o nosuid,nodev,mode=1777 tmpfs /tmp || say "cannot mount /tmp"
mkdir -p /dev/pts /dev/shm
mount -t devpts -o nosuid,noexec devpts /dev/pts 2>/dev/null
mount -t tmpfs -o nosuid,nodev,mode=1777 tmpfs /dev/shm 2>/dev/null
hostname tscprobe-vm
ip link set lo up 2>/dev/null

# The port out.log is on: the second serial port, or in an arm64 guest
# (one serial port) a virtio console, whose modules the image carries in
# the order they load (boot.sh), loaded before any CPU goes offline
# below.  Its port opens once the device has been probed: within 10 s,
# or the output goes to the console, where the host still reads the
# status.
OUT=/dev/ttyS1
CONSOLE=ttyS0
# A device node (a redirection would make a file of a missing one) that
# opens: its node comes before its port is ready.
hvc_ready() {
	[ -c $OUT ] && (: >$OUT) 2>/dev/null
}
if [ -d /lib/modules/console ]; then
	for m in virtio_ring virtio virtio_mmio virtio_console; do
		insmod "/lib/modules/console/$m.ko" || say "cannot load $m"
	done
	OUT=/dev/hvc0
	CONSOLE=ttyAMA0
	tries=0
	until hvc_ready || [ $tries -ge 200 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	hvc_ready || { say "no $OUT: the output goes to the console"; OUT=/dev/console; }
fi

# A broken kernel should end the run now, not at the host's timeout: turn
# oopses, lockups, hung tasks and RCU stalls into panics (panic=-1 on the
# command line then resets the guest, and QEMU exits without a status).
for knob in panic_on_oops softlockup_panic hardlockup_panic hung_task_panic \
	panic_on_rcu_stall; do
	[ -w "/proc/sys/kernel/$knob" ] && echo 1 >"/proc/sys/kernel/$knob"
done

# Text patched while another vCPU runs it can kill the guest (below), so
# in a guest of up to 8 CPUs every CPU but the first goes offline while
# init.sh enables the trace events.  (Not maxcpus=1 on the command line: a
# CPU first brought up after boot gets no fair server on 6.12 and later,
# and tests tune it.)  In a bigger guest that would take minutes under TCG
# (63 CPUs: 150 s), so there the source tracepoints stay alone and the
# smoke test loads the module with sources=0.
offlined=
small=
[ "$(grep -c '^processor' /proc/cpuinfo)" -le 8 ] && small=1
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
	# The first stays (arm64's can go offline too, x86's mostly not).
	[ "$c" = /sys/devices/system/cpu/cpu0/online ] && continue
	[ -n "$small" ] && [ -w "$c" ] && [ "$(cat "$c")" = 1 ] || continue
	echo 0 >"$c" && offlined="$offlined $c"
done

# Nothing a test does with tracing patches the scheduler's hot code.  The
# static key of a tracepoint flips when its first probe comes or its last
# goes, and its static call is repatched when it goes from one probe to
# two or back; enabling the first trace event also hooks ftrace's comm
# recorder onto sched_switch, sched_wakeup and sched_wakeup_new.  Under TCG
# a vCPU can trap on the breakpoint of such a patch after it is gone
# ("Oops: int3" in __schedule or ttwu_do_activate).  So the events the
# tests use on these tracepoints are on from here, while nothing else runs,
# with a filter that records nothing: each tracepoint keeps the probes it
# has now (the recorder's and the event's) for the whole run, and a test
# only changes the filter (test_irqs.sh restores it).  (trace_event= on the command line stops 7.3 PREEMPT_RT booting.)
for ev in sched_switch sched_wakeup sched_wakeup_new sched_migrate_task; do
	ev=/sys/kernel/debug/tracing/events/sched/$ev
	[ -w "$ev/filter" ] || continue
	echo 'common_pid < 0' >"$ev/filter" && echo 1 >"$ev/enable"
done

# The same for the tracepoints the module's noise sources probe (kmod/
# sources.c), which it attaches at each noise START and detaches at the
# run's end: each gets two probes now, the event's in two trace
# instances, so that the module's third changes neither its static key nor
# its static call.  These run in every interrupt, on every CPU: patched
# while other vCPUs ran them, they killed the guest at once.
T=/sys/kernel/debug/tracing
for inst in ${small:+tp_quiet_a tp_quiet_b}; do
	mkdir -p "$T/instances/$inst" 2>/dev/null || continue
	for ev in irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry \
		irq/softirq_exit nmi/nmi_handler "irq_vectors/*_entry" \
		"irq_vectors/*_exit"; do
		for e in $T/instances/$inst/events/$ev; do
			[ -w "$e/filter" ] || continue
			echo 'common_pid < 0' >"$e/filter" && echo 1 >"$e/enable"
		done
	done
done

# The other CPUs back online (see above).
for c in $offlined; do
	echo 1 >"$c" || say "cannot bring ${c%/online} back online"
done

# Raw mode: no "\n" -> "\r\n" translation, so out.log holds exactly the
# bytes the script wrote.  Held open here: hvc resets a port's modes when
# its last user closes it.
exec 9>$OUT
stty -F $OUT raw -echo || say "cannot set $OUT to raw mode"

# log_check NAME SINCE: the kernel log lines after line SINCE that a
# pattern of selftests/qemu/log-patterns matches, as one failed test of a
# TAP block named NAME.
log_check() {
	hits=$(dmesg | tail -n +"$(($2 + 1))" | grep -E -f /etc/tscprobe/log-patterns)
	[ -z "$hits" ] && return 0
	echo "# program: $1 (kernel log)"
	echo "$hits" | head -n 20 | sed 's/^/# /'
	echo "not ok 1 $1 left a report in the kernel log"
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
}

# Each program of /etc/tscprobe/tests, one a line with its arguments, from
# /selftests, in /tmp, with the TP_* variables of /etc/tscprobe/env: a
# header line, its output (not on a terminal, so the CLI behaves as in
# scripts), how long it took, and the scan of the kernel log since it
# started.  The output goes through vm-pace (vm-pace.c), at most 256 bytes
# queued on the serial port at a time: on PREEMPT_RT a program's flood of
# output would otherwise get the port's interrupt disabled, and the rest
# of the output lost.  At the end the module is unloaded, if a program
# left it loaded, for the log check to see its exit too.
run_tests() {
	[ -r /etc/tscprobe/env ] && . /etc/tscprobe/env
	cd /tmp || return 127
	while read -r prog <&3; do
		echo "# program: $prog"
		t0=$(cut -d. -f1 /proc/uptime)
		l0=$(dmesg | wc -l)
		# shellcheck disable=SC2086 # the program's name, then its arguments
		/selftests/$prog </dev/null 2>&1 | vm-pace
		echo "# program: $prog took $(($(cut -d. -f1 /proc/uptime) - t0)) s"
		log_check "${prog%% *}" "$l0"
	done 3</etc/tscprobe/tests
	if grep -q '^tscprobe ' /proc/modules; then
		rmmod tscprobe
	fi
	return 0
}

cd /
if [ -f /etc/tscprobe/tests ]; then
	run_tests >$OUT 2>&1
	status=$?
elif [ -f /test.sh ]; then
	/bin/sh /test.sh </dev/null >$OUT 2>&1
	status=$?
else
	say "neither /etc/tscprobe/tests nor /test.sh in the image"
	status=127
fi
cd /

# isa-debug-exit carries 0..127; a shell reports death by signal N as 128+N.
if [ "$status" -gt 127 ]; then
	say "test.sh killed by signal $((status - 128))"
	status=127
fi

# The console's printer thread (nbcon consoles, the 8250's from 7.x:
# "pr/ttyS0"), if there is one.
printer=
for p in /proc/[0-9]*; do
	[ "$(cat "$p/comm" 2>/dev/null)" = pr/$CONSOLE ] && printer=$p
done

# "STATE SWITCHES" of the printer thread.
printer_state() {
	sed -n 's/^State:[[:space:]]*\(.\).*/\1/p; s/^voluntary_ctxt_switches:[[:space:]]*//p' \
		"$printer/status" | tr '\n' ' '
}

# The host trusts QEMU's exit code only together with this line. It goes
# through printk: the console prints records in order, so when the host
# sees it, it has every kernel message the test caused, too.  Where a
# thread prints the console, the line is out once that thread has gone to
# sleep again after the write (it sleeps only when nothing is left to
# print); the first look comes after the wake-up's irq_work has run.
[ -n "$printer" ] && before=$(printer_state)
echo "<5>vm-init: exit status $status" >/dev/kmsg || say "exit status $status"
if [ -n "$printer" ]; then
	tries=0
	while [ $tries -lt 200 ]; do
		sleep 0.05
		now=$(printer_state)
		[ "${now%% *}" = S ] && [ "${now#* }" != "${before#* }" ] && break
		tries=$((tries + 1))
	done
fi
exec /bin/vm-exit "$status" $OUT /dev/$CONSOLE
