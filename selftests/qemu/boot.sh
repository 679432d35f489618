# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# boot.sh - the tests' QEMU guest: its options, its image, its boot and
# what its exit status means.  Sourced by run-vm.sh (one script in the
# guest) and selftests/vm/run.sh (the test programs); the options and the
# exit statuses are described in run-vm.sh's header and in README.md.
#
# The sourcing script sets ME (the name its messages start with), takes
# the options with vm_option, then calls vm_check, vm_workdir, vm_image and
# vm_boot, which returns the guest's status.

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

readonly EXIT_TIMEOUT=124 EXIT_NO_STATUS=125 EXIT_LOG=126 EXIT_HARNESS=127
# init.sh writes this to /dev/kmsg (so to the console) just before vm-exit.
readonly MARKER='vm-init: exit status '
QEMU=qemu-system-x86_64
BUSYBOX=${VM_BUSYBOX:-/bin/busybox}
# x86_64, or arm64 for an arm64 kernel image (vm_check): see guest_arm64.
GUEST_ARCH=x86_64
# An arm64 guest's userland, the modules of its virtio console and the
# build of its helpers (selftests/kernels/fetch-arm64.sh, make ARCH=arm64).
ARM64_ROOT=$REPO/build/arm64/root
ARM64_CONSOLE_MODULES=(virtio_ring virtio virtio_mmio virtio_console)

SMP=4 SMP_SET=0 MEM=1024 CPU=max CPU_SET=0 MACHINE=pc TIMEOUT=300
KERNEL=${VM_KERNEL:-} APPEND='' KEEP=''
ADDS=()
WORK='' QEMU_PID='' STREAM_PID='' QEMU_RC=0 QEMU_SECS=0

die() {
	echo "$ME: $*" >&2
	exit "$EXIT_HARNESS"
}

fail() {
	echo "$ME: FAIL: $*" >&2
}

is_uint() {
	[[ $1 =~ ^[0-9]+$ ]] && (($1 > 0))
}

# vm_option OPTION VALUE: take one of the guest's options (--smp, --mem,
# --cpu, --machine, --timeout, --kernel, --append, --add, --keep) and its
# value; false for any other option, which the caller then takes.
vm_option() {
	case $1 in
	--smp | --mem | --cpu | --machine | --timeout | --kernel | --append | \
		--add | --keep)
		(($# >= 2)) || die "$1 needs a value" ;;
	*) return 1 ;;
	esac
	case $1 in
	--smp) SMP=$2; SMP_SET=1 ;;
	--mem) MEM=$2 ;;
	--cpu) CPU=$2; CPU_SET=1 ;;
	--machine) MACHINE=$2 ;;
	--timeout) TIMEOUT=$2 ;;
	--kernel) KERNEL=$2 ;;
	--append) APPEND=$2 ;;
	--add) ADDS+=(--add "$2") ;;
	--keep) KEEP=$2 ;;
	esac
}

# The options' values, and everything the run needs, checked before
# anything is built.
vm_check() {
	is_uint "$SMP" || die "--smp wants a positive number, got '$SMP'"
	is_uint "$MEM" || die "--mem wants megabytes, got '$MEM'"
	case $MACHINE in
	pc) ;;
	server)
		((!SMP_SET)) || die "--machine server has its own 8 CPUs: no --smp"
		((MEM % 2 == 0)) || die "--machine server splits --mem over 2 nodes: an even number, got '$MEM'"
		SMP=8
		((CPU_SET)) || CPU=max,vendor=GenuineIntel ;;
	*) die "--machine wants pc or server, got '$MACHINE'" ;;
	esac
	is_uint "$TIMEOUT" || die "--timeout wants seconds, got '$TIMEOUT'"
	if [[ -z $KERNEL ]]; then
		# The image of the default module build (tools/kernels.sh).
		KERNEL=$("$REPO/tools/kernels.sh" image) ||
			die "no default kernel image (make deps, or --kernel)"
	fi
	[[ -r $KERNEL ]] || die "kernel image '$KERNEL' not readable"
	file -bL "$KERNEL" | grep -q 'ARM64' && guest_arm64
	command -v "$QEMU" >/dev/null ||
		die "$QEMU not found (apt-get install qemu-system-x86 qemu-system-arm)"
	command -v timeout >/dev/null || die "timeout not found (coreutils)"
	command -v cpio >/dev/null || die "cpio not found (apt-get install cpio)"
	[[ -x $BUSYBOX ]] ||
		die "busybox not found at $BUSYBOX (apt-get install busybox-static)"
}

# An arm64 kernel boots on QEMU's virt board (-cpu max: the generic timer
# at 62.5 MHz, a GICv3), with its userland from ARM64_ROOT.  Its one
# PL011 carries the kernel log; the script's output goes to a virtio
# console (hvc0, its modules in the image, init.sh loads them), and the
# status out through semihosting (vm-exit.c).
guest_arm64() {
	GUEST_ARCH=arm64
	QEMU=qemu-system-aarch64
	[[ $MACHINE == pc ]] || die "--machine server is an x86 shape; arm64 guests are QEMU's virt board"
	[[ -d $ARM64_ROOT ]] ||
		die "no arm64 userland in $ARM64_ROOT (selftests/kernels/fetch-arm64.sh)"
	BUSYBOX=${VM_BUSYBOX:-$ARM64_ROOT/bin/busybox}
}

vm_cleanup() {
	local pid

	# Only our own children, by pid; wait so none still writes into $WORK.
	for pid in $QEMU_PID $STREAM_PID; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	[[ -z $KEEP && -n $WORK ]] && rm -rf "$WORK"
	return 0
}

# WORK: --keep's directory, emptied of an earlier run's files, or a
# temporary one, removed at exit.
vm_workdir() {
	if [[ -n $KEEP ]]; then
		mkdir -p "$KEEP" || die "cannot create $KEEP"
		WORK=$(cd "$KEEP" && pwd)
		rm -rf "$WORK"/{initramfs.cpio,console.log,out.log,qemu.log,.done,stage}
	else
		WORK=$(mktemp -d "${TMPDIR:-/tmp}/run-vm.XXXXXX")
	fi
	trap vm_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# vm_image [mkinitramfs.sh options]: WORK/initramfs.cpio, with the guest
# helpers, /init and every --add.
vm_image() {
	local build=${VM_BUILD_DIR:-$REPO/build/vm} m
	local -a arch=()

	if [[ $GUEST_ARCH == arm64 ]]; then
		build=${VM_BUILD_DIR:-$REPO/build/arm64/vm}
		export VM_CC=aarch64-linux-gnu-gcc
		arch=(--sysroot "$ARM64_ROOT")
		for m in "${ARM64_CONSOLE_MODULES[@]}"; do
			arch+=(--add "$(arm64_module "$m"):/lib/modules/console/$m.ko")
		done
	fi
	"$HERE/build-helpers.sh" "$build" || die "building the guest helpers failed"
	"$HERE/mkinitramfs.sh" -o "$WORK/initramfs.cpio" --helpers "$build" \
		--busybox "$BUSYBOX" "${arch[@]}" "$@" "${ADDS[@]}" ||
		die "building the initramfs failed"
}

# The .ko of module $1 of the arm64 kernel booted.
arm64_module() {
	local release ko

	release=$(basename "$KERNEL")
	release=${release#vmlinuz-}
	ko=$(find "$ARM64_ROOT/lib/modules/$release" -name "$1.ko" -print -quit 2>/dev/null)
	[[ -n $ko ]] || die "no module $1 for $release in $ARM64_ROOT"
	echo "$ko"
}

# What a guest test asks of the host, one line each of its output, served
# once each, in order: "# vm-host: nmi N", N NMIs to CPU 0 through QEMU's
# monitor (qmp-nmi.py).  $1: the requests served so far; prints
# the new count.
serve_requests() {
	local served=$1 n=0 line

	while IFS= read -r line; do
		n=$((n + 1))
		((n > served)) || continue
		line=${line%$'\r'}
		"$HERE/qmp-nmi.py" "$WORK/qmp.sock" "${line##* }" >&2 ||
			echo "$ME: '$line' not served" >&2
	done < <(grep -E $'^# vm-host: nmi [0-9]+\r?$' "$WORK/out.log")
	echo "$n"
}

# Copy out.log to stdout as it grows, each byte once, and serve the
# requests in it; after $WORK/.done appears (QEMU has exited, the file is
# final) copy the rest and stop.
stream_output() {
	local log=$WORK/out.log off=0 size last=0 served=0

	while :; do
		[[ -e $WORK/.done ]] && last=1
		size=$(stat -c %s "$log" 2>/dev/null) || return 0
		if ((size > off)); then
			dd if="$log" iflag=skip_bytes,count_bytes skip="$off" \
				count=$((size - off)) bs=64K status=none
			off=$size
			((last)) || served=$(serve_requests "$served")
		fi
		((last)) && return 0
		sleep 0.2
	done
}

# QEMU's -chardev path= treats "," as a separator unless doubled.
qemu_path() {
	printf '%s' "${1//,/,,}"
}

# kernel_hz IMAGE: CONFIG_HZ of a kernel image, from the config beside it
# (/boot/config-VERSION for /boot/vmlinuz-VERSION, the build tree's .config
# for OBJ/arch/x86/boot/bzImage); nothing when there is none.
kernel_hz() {
	local img=$1 cfg

	case $img in
	*/vmlinuz-*) cfg=$(dirname "$img")/config-${img##*/vmlinuz-} ;;
	*/arch/x86/boot/bzImage) cfg=${img%/arch/x86/boot/bzImage}/.config ;;
	*) return 0 ;;
	esac
	[[ -r $cfg ]] && sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' "$cfg"
	return 0
}

# The lpj= for a guest of more than 8 vCPUs, or nothing.  Under TCG every
# CPU that comes up calibrates its delay loop against the emulated timer,
# about a second of wall time each: 55 of the 79 s a 64-vCPU guest took
# to boot here (22 s with the preset).  The guest's TSC is the host's (TCG
# reads the host's counter), and its delay loop counts TSC cycles, so a
# jiffy is the host's TSC rate over HZ.  The rate comes from the CLI's
# calibration (build/tscprobe); without it, or without HZ, no preset.
preset_lpj() {
	local hz khz

	((SMP > 8)) || return 0
	hz=$(kernel_hz "$KERNEL")
	[[ -n $hz && -x $REPO/build/tscprobe ]] && command -v jq >/dev/null ||
		return 0
	khz=$("$REPO/build/tscprobe" noise --user -c 0 -d 50ms -j 2>/dev/null |
		jq -r '.tsc_khz // empty' 2>/dev/null) || return 0
	[[ $khz =~ ^[1-9][0-9]*$ ]] && echo "lpj=$((khz * 1000 / hz))"
	return 0
}

# More than 8 vCPUs: no crypto self-tests at boot.  In a 64-vCPU guest under
# TCG, cryptomgr_test can livelock at the DO_ONCE static branch of
# alg_test() while that branch is being patched (a soft lockup before any
# test runs).  cryptomgr.notests returns from alg_test() before that
# branch; the kernel's crypto self-tests are nothing this harness tests.
#
# And lockup and stall detectors that allow for the host: the guest's
# clock is the host's, and 64 vCPU threads share 2 host cores, so a vCPU
# the host leaves unscheduled for 20 s looks like a CPU stuck for 20 s to
# the guest (a soft lockup in a task running in user mode).  KVM guests
# are spared this by pvclock's pause detection; TCG has none.  The
# detectors stay on with 120 s (watchdog_thresh=60, the largest) and
# 100 s: a CPU really stuck is still caught well within the guest's
# timeout, and the 4-vCPU guests keep the kernel's defaults.
big_guest_args() {
	((SMP > 8)) &&
		echo "cryptomgr.notests watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=100"
	return 0
}

# The QEMU options of the guest's shape (--machine), one per line.
#
# pc: QEMU's i440FX PC with --smp CPUs, each its own socket.
#
# server: a two-socket lab server on q35.  8 CPUs as 2 sockets x 2 cores
# x 2 threads, the sockets in NUMA nodes 0 and 1 with half the memory
# each: SMT siblings, cores of one socket and CPUs of two nodes, the
# three relations skew tells apart.  Under TCG on an AMD host "-cpu max"
# gives no SMT siblings (its CPUID shows no topology to an AMD guest and
# "topoext" is refused); as a GenuineIntel CPU its leaf 0xb gives them.
# And devices with many MSI-X vectors, so that Linux IRQ numbers pass
# the x86 system vectors' 236..255 as on servers with NVMe or 100G NICs:
# Linux gives a multi-queue device one vector per CPU and one more (its
# queues are capped at nr_cpu_ids), 9 here.  26 NVMe controllers (the
# driver is built into Debian's kernels; virtio's is a module) on q35's
# root bus, slots 2 to 27, give 234 vectors, numbered from 24 to 257.
# Each has a namespace of 1 MiB on a null block driver (no file, reads
# are zeroes), so that reading it on a CPU raises its queue's interrupt
# there; the guest's helpers in selftests/vm/lib.sh do that.
machine_args() {
	local i

	if [[ $GUEST_ARCH == arm64 ]]; then
		printf '%s\n' -machine virt,accel=tcg -smp "$SMP" -m "$MEM"
		return
	fi
	if [[ $MACHINE == pc ]]; then
		printf '%s\n' -machine pc,accel=tcg -smp "$SMP" -m "$MEM"
		return
	fi
	printf '%s\n' -machine q35,accel=tcg -smp 8,sockets=2,cores=2,threads=2 \
		-m "$MEM"
	for i in 0 1; do
		printf '%s\n' -object "memory-backend-ram,id=mem$i,size=$((MEM / 2))M" \
			-numa "node,nodeid=$i,cpus=$((4 * i))-$((4 * i + 3)),memdev=mem$i"
	done
	for i in $(seq 2 27); do
		printf '%s\n' -blockdev "driver=null-co,node-name=null$i,size=1048576,read-zeroes=on" \
			-device "nvme,serial=tscprobe$i,drive=null$i,addr=$(printf %x "$i")"
	done
}

# Boot the guest; sets QEMU_RC and QEMU_SECS. The script's output lands in
# out.log (ttyS1; arm64: hvc0), the kernel log in console.log (ttyS0;
# arm64: ttyAMA0).
run_qemu() {
	local -a machine cmd ports
	local early console

	mapfile -t machine < <(machine_args)
	if [[ $GUEST_ARCH == arm64 ]]; then
		ports=(-serial chardev:con -device virtio-serial-device
		       -device 'virtconsole,chardev=out'
		       -semihosting-config 'enable=on,target=native,userspace=on')
		early=
		console=ttyAMA0
	else
		ports=(-serial chardev:con -serial chardev:out
		       -device 'isa-debug-exit,iobase=0xf4,iosize=0x04')
		early="tsc=unstable no_timer_check $(preset_lpj)"
		console=ttyS0
	fi
	cmd=(
		"$QEMU" -nodefaults -no-user-config -cpu "$CPU" "${machine[@]}"
		-display none -no-reboot
		-chardev "file,id=con,path=$(qemu_path "$WORK/console.log")"
		-chardev "file,id=out,path=$(qemu_path "$WORK/out.log"),append=on"
		"${ports[@]}"
		-qmp "unix:$(qemu_path "$WORK/qmp.sock"),server=on,wait=off"
		-kernel "$KERNEL" -initrd "$WORK/initramfs.cpio"
		# The harness's parameters come last, so --append cannot undo them.
		# panic=-1 + -no-reboot: a panic ends QEMU at once, with status 0.
		# devkmsg=on: every line a test writes to /dev/kmsg is kept.
		# loglevel=7: the console, which the log check reads, gets all but
		# debug messages even if --append says "quiet".
		# tsc=unstable: under TCG the clocksource watchdog, timing a vCPU
		# the host descheduled, can mark the TSC unstable mid-run; the
		# sched_clock switch that follows patches kernel text, and a vCPU
		# can trap on the patch's breakpoint after it is gone ("Oops:
		# int3" in sched_clock_cpu).  Marked unstable from boot, as TCG
		# guests often are anyway, nothing switches at run time.
		# (init.sh keeps the scheduler's tracepoints on for the same
		# reason.)
		# no_timer_check: the boot's check that the timer interrupt
		# arrives through the IO-APIC waits a few emulated ticks, which
		# a vCPU the loaded host does not run can miss ("IO-APIC + timer
		# doesn't work!", a panic, once in about 25 boots at a host load
		# of 23).
		-append "$early $APPEND $(big_guest_args) console=$console panic=-1 printk.devkmsg=on loglevel=7"
	)

	: >"$WORK/out.log"
	: >"$WORK/console.log"
	timeout -k 10 "$TIMEOUT" "${cmd[@]}" </dev/null 2>"$WORK/qemu.log" &
	QEMU_PID=$!
	stream_output &
	STREAM_PID=$!
	QEMU_RC=0
	SECONDS=0
	wait "$QEMU_PID" || QEMU_RC=$?
	QEMU_SECS=$SECONDS
	QEMU_PID=
	touch "$WORK/.done"
	wait "$STREAM_PID" || true
	STREAM_PID=
}

# The status init.sh announced on the console, or nothing.
announced_status() {
	tr -d '\r' <"$WORK/console.log" | grep -a -o "${MARKER}[0-9]\+" |
		tail -n 1 | sed "s/^${MARKER}//" || true
}

# Where the guest got to, when nothing in the log says what went wrong.
console_tail() {
	[[ -s $WORK/console.log ]] || return 0
	echo "$ME: last console lines:" >&2
	tr -d '\r' <"$WORK/console.log" | tail -n 10 | sed 's/^/  /' >&2
}

# Map QEMU's exit code and the kernel log to our exit status.
evaluate() {
	local rc=$QEMU_RC said status log_ok=1

	said=$(announced_status)
	if [[ -n $said ]] && ((rc % 2 == 1 && rc >> 1 == said)); then
		status=$said
	elif ((rc == 124 || (rc == 137 && QEMU_SECS >= TIMEOUT))); then
		# 124: timeout's TERM worked; 137: it needed the KILL 10 s later.
		status=$EXIT_TIMEOUT
	else
		status=$EXIT_NO_STATUS
	fi

	# From inside $WORK: the report names "console.log", not a temp path.
	(cd "$WORK" && "$HERE/check-log.sh" console.log) >&2 || log_ok=0

	case $status in
	"$EXIT_TIMEOUT")
		((log_ok)) && console_tail
		fail "timeout: the guest was still running after ${TIMEOUT}s" ;;
	"$EXIT_NO_STATUS")
		[[ -s $WORK/qemu.log ]] && sed 's/^/qemu: /' "$WORK/qemu.log" >&2
		((log_ok)) && console_tail
		fail "the guest ended without an exit status (kernel panic, power-off or QEMU error; QEMU exit code $rc)" ;;
	*)
		if ((!log_ok)); then
			fail "kernel log check failed (test script exited $status)"
			status=$EXIT_LOG
		elif ((status != 0)); then
			fail "test script exited with status $status"
		fi ;;
	esac
	[[ -n $KEEP ]] && echo "$ME: logs in $WORK" >&2
	return "$status"
}

# Boot the image; the guest's output is copied to stdout as it arrives.
# Returns the status (0..127) as run-vm.sh's header describes it.
vm_boot() {
	run_qemu
	evaluate
}
