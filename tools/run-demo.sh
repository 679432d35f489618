#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-demo.sh - "make run": load the module and measure.  Where the running
# kernel can load modules (its build tree exists and /proc/modules too),
# the module is loaded here; otherwise Debian's cloud kernel is booted in
# QEMU and the measurements run there, with emulated timings, and the
# userspace engine measures this machine for real next to it.
#
# usage: run-demo.sh [--kernel PATH] [--smp N]
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=$REPO/build/tscprobe
KO=$REPO/kmod/tscprobe.ko
VM_ARGS=()
KERNEL=
while (($#)); do
	case $1 in
	--kernel)
		KERNEL=$2
		shift 2
		;;
	--smp)
		VM_ARGS+=("$1" "$2")
		shift 2
		;;
	*)
		echo "run-demo: unknown option $1" >&2
		exit 2
		;;
	esac
done

can_load_modules() {
	[[ -e /proc/modules && -d /lib/modules/$(uname -r)/build ]]
}

run_here() {
	local loaded_here=0

	echo "tscprobe: loading $KO into the running kernel ($(uname -r))"
	if ! grep -q '^tscprobe ' /proc/modules; then
		insmod "$KO"
		loaded_here=1
	fi
	TSCPROBE=$CLI sh "$REPO/tools/demo.sh"
	if ((loaded_here)); then
		rmmod tscprobe
	fi
}

run_in_vm() {
	local script

	[[ -n $KERNEL ]] || KERNEL=$("$REPO/tools/kernels.sh" image)
	cat <<-MSG
	tscprobe: this kernel ($(uname -r)) cannot load modules, so the module
	runs in QEMU (TCG) on $KERNEL,
	the kernel it was built for ($(modinfo -F vermagic "$KO" | cut -d' ' -f1)).
	Timings in a VM are emulated: the figures below show what tscprobe
	reports, not how quiet this machine is.
	MSG
	script=$(mktemp)
	trap 'rm -f "$script"' RETURN
	{
		echo 'insmod /lib/tscprobe/tscprobe.ko'
		echo 'sh /demo.sh 2>&1 | cat'
	} >"$script"
	"$REPO/selftests/qemu/run-vm.sh" --kernel "$KERNEL" "${VM_ARGS[@]}" \
		--add "$KO:/lib/tscprobe/tscprobe.ko" \
		--add "$CLI:/usr/bin/tscprobe" \
		--add "$REPO/tools/demo.sh:/demo.sh" "$script"
	echo
	echo "tscprobe: and this machine, for real, with the userspace engine (interrupts on):"
	echo "\$ tscprobe noise --user -d 3s"
	"$CLI" noise --user -d 3s -q
	echo
	echo "\$ tscprobe skew --user"
	"$CLI" skew --user -q
	echo
	echo "\$ tscprobe cache --user -n 1e6"
	"$CLI" cache --user -n 1e6 -q
}

if can_load_modules; then
	run_here
else
	run_in_vm
fi
