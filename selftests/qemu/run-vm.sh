#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh - run a test script as root in a throw-away QEMU guest (TCG)
# booting the Debian cloud kernel from a busybox initramfs.
#
# usage: run-vm.sh [options] SCRIPT
#   --smp N           guest CPUs (default 4)
#   --mem MB          guest memory (default 1024)
#   --cpu MODEL       QEMU's -cpu (default max); EPYC,-hypervisor is an
#                     AMD Zen that does not say it is a VM, without a PMU
#   --machine SHAPE   pc (default): QEMU's i440FX PC, --smp sockets of one
#                     CPU, one NUMA node, no device with MSI-X; server: a
#                     two-socket lab server (machine_args in boot.sh,
#                     README.md): q35, 2 sockets x 2 cores x 2 threads,
#                     2 NUMA nodes, 26 NVMe controllers whose queues'
#                     Linux IRQ numbers run past 236 (not with --smp)
#   --timeout SEC     wall-clock limit for boot + script (default 300)
#   --kernel PATH     kernel image (default: $VM_KERNEL, else the image of
#                     the default KDIR: tools/kernels.sh)
#   --append "ARGS"   extra kernel command line (after tsc=unstable
#                     no_timer_check, before the harness's own
#                     console=ttyS0 panic=-1 printk.devkmsg=on loglevel=7)
#   --add SRC[:DST]   put a file or directory into the guest (repeatable);
#                     see mkinitramfs.sh. Shared libraries come along.
#   --keep DIR        build and log in DIR and leave initramfs.cpio,
#                     console.log (kernel log), out.log (script output) and
#                     qemu.log there
#
# A guest of more than 8 vCPUs boots with its delay loop preset (lpj=, see
# preset_lpj in boot.sh): calibrating it on every CPU is most of such a boot.
# The script's output (stdout and stderr) is copied to stdout as it arrives.
# Exit status:
#   0..123  the script's own status (a clean kernel log)
#   124     timeout: the guest was still running after --timeout seconds
#   125     the guest ended without handing back a status: kernel panic,
#           power-off, QEMU failure
#   126     the kernel log has a line from log-patterns (BUG, WARNING, ...)
#   127     harness error (usage, missing qemu/kernel/busybox, build), or
#           the script exited 127 or was killed by a signal
# A script that itself exits 124..126 is indistinguishable by status alone;
# the one-line reason on stderr tells them apart. On every failure a line
# "run-vm: FAIL: ..." goes to stderr.
set -euo pipefail

ME=run-vm
# shellcheck source=selftests/qemu/boot.sh
source "$(dirname "${BASH_SOURCE[0]}")/boot.sh"
SCRIPT=

usage() {
	# The header comment, from the line after the SPDX tag to the code.
	awk 'NR > 3 && /^#/ { sub(/^# ?/, ""); print; next } NR > 3 { exit }' \
		"${BASH_SOURCE[0]}" >&2
	exit "$EXIT_HARNESS"
}

parse_args() {
	while (($#)); do
		if vm_option "$@"; then
			shift 2
			continue
		fi
		case $1 in
		-h | --help) usage ;;
		-*) echo "run-vm: unknown option '$1'" >&2; usage ;;
		*)
			[[ -z $SCRIPT ]] || die "only one SCRIPT, got '$SCRIPT' and '$1'"
			SCRIPT=$1 ;;
		esac
		shift
	done
	[[ -n $SCRIPT ]] || usage
	[[ -r $SCRIPT ]] || die "script '$SCRIPT' not found"
}

main() {
	parse_args "$@"
	vm_check
	vm_workdir
	vm_image --script "$SCRIPT"
	vm_boot
}

main "$@"
