# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC2034 # KO, ncpu, TR: for the scripts that source it
#
# lib.sh - what the guest's test scripts share (busybox sh; sourced).  The
# harness puts it at /selftests/lib.sh, beside tap.sh.
#
# A script starts with ". /selftests/lib.sh" for TAP (tap.sh, which reads
# the script's arguments), the module's path KO, a directory of its own,
# OUT (/tmp/NAME for test_NAME.sh or NAME.sh), the number of CPUs ncpu,
# and the tracefs root TR.
. /selftests/tap.sh
KO=/lib/tscprobe/tscprobe.ko
OUT=${0##*/}
OUT=${OUT%.sh}
OUT=/tmp/${OUT#test_}
mkdir -p "$OUT"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
TR=/sys/kernel/tracing
[ -d "$TR/events" ] || TR=/sys/kernel/debug/tracing

# Device interrupts in the server-shaped guest (selftests/vm/run.sh
# --machine server): 26 NVMe controllers, each with an I/O queue per CPU
# and an admin queue, whose Linux IRQ numbers run from 24 to past 255, so
# that device IRQ N and the x86 system vector N (236, the local timer, to
# 255) are both there.  An I/O queue's interrupt is managed: the kernel
# keeps it on the CPU the queue serves (writing its smp_affinity_list
# fails with EIO).  The admin queues' can be routed, but the controllers
# probe side by side, and in some boots all their numbers were below 236.

# tp_nvme_irqs: the IRQ numbers of the NVMe I/O queues, ascending; nothing
# in a guest without NVMe.
tp_nvme_irqs() {
	awk -F: '$1 ~ /^ *[0-9]+$/ && $NF ~ / nvme[0-9]+q[1-9][0-9]*$/ {
		gsub(/ /, "", $1); print $1 }' /proc/interrupts | sort -n
}

# tp_irq_cpu IRQ: the CPU that IRQ is delivered to.
tp_irq_cpu() {
	cat "/proc/irq/$1/effective_affinity_list"
}

# tp_irq_raise IRQ SECONDS: make the NVMe I/O queue behind IRQ interrupt
# its CPU, for SECONDS: direct reads of its controller's namespace on that
# CPU (the block layer submits on the queue of the CPU it runs on).  Fails
# at once for an IRQ that is no NVMe I/O queue's.
tp_irq_raise() {
	tp_irq_name=$(cat "/sys/kernel/irq/$1/actions" 2>/dev/null)
	tp_irq_ctrl=
	case $tp_irq_name in
	nvme*q0) ;;
	nvme*q[1-9]*) tp_irq_ctrl=${tp_irq_name%q*} ;;
	esac
	[ -n "$tp_irq_ctrl" ] ||
		{ echo "IRQ $1 is no NVMe I/O queue's (${tp_irq_name:-no action})"; return 1; }
	# The namespace's block device: its name in sysfs, under the controller.
	tp_irq_ns=
	for tp_irq_d in "/sys/class/nvme/$tp_irq_ctrl"/nvme*n*; do
		[ -b "/dev/${tp_irq_d##*/}" ] && tp_irq_ns=${tp_irq_d##*/} && break
	done
	[ -n "$tp_irq_ns" ] || { echo "no namespace on $tp_irq_ctrl"; return 1; }
	tp_irq_on=$(tp_irq_cpu "$1")
	tp_irq_end=$(($(cut -d. -f1 /proc/uptime) + $2))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$tp_irq_end" ]; do
		taskset -c "$tp_irq_on" dd if="/dev/$tp_irq_ns" of=/dev/null bs=4k \
			iflag=direct 2>/dev/null || return 1
	done
}

# tp_irq_count IRQ CPU: how often IRQ has interrupted CPU so far.
tp_irq_count() {
	awk -v n="$1:" -v col=$(($2 + 2)) '$1 == n { print $col; exit }' /proc/interrupts
}

# tp_running: the module's run is going on (status).
tp_running() {
	tscprobe status -j 2>/dev/null | jq -e '.state == "running"' >/dev/null
}
