#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run the kselftest programs of selftests/vm in the guest, from the
# host.
#
# usage: run.sh [--kernel PATH] [--module KO] [--smp N] [--mem MB]
#               [--cpu MODEL] [--machine pc|server] [--append ARGS]
#               [--keep DIR] [--timeout SEC] [--skip TEST]... [TEST...]
#
# Boots the kernel once (selftests/qemu/run-vm.sh, which takes --smp, --mem,
# --cpu, --machine and --append as they are; --kernel, by default the
# image of the default KDIR, tools/kernels.sh) with the module (--module,
# default kmod/tscprobe.ko: it must be built for that kernel), the CLI, jq
# and the test programs, runs every program (or the named ones; by default
# every test_* and fuzz_* program and every selftests/vm/test_*.sh script,
# but those named by --skip; a TEST with words after its name runs with
# them as arguments: "test_sources.sh named_time_fits" runs that check
# alone, selftests/tap.sh) and prints their TAP; test_ynl.sh brings Python
# and ynl along (add_ynl).
# A guest that died of a stale TCG translation (check-log.sh --stale-int3,
# selftests/qemu/README) is booted again, once, and only that boot counts.
# After each program the guest's kernel log since it started is scanned
# (selftests/qemu/log-patterns): a report there fails that program by name,
# besides failing the whole run.  Environment variables named TP_*
# (TP_FUZZ_SEED, TP_FUZZ_COUNT, ...) are passed on to the programs in the
# guest.  The last line is "vm: N passed, N failed"; the exit
# status is non-zero when anything failed, including a guest that panicked,
# hung, or left a WARNING, lockup or stall in its kernel log.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$REPO/build
MODULE=$REPO/kmod/tscprobe.ko
TIMEOUT=900
VM_ARGS=()
TESTS=()
SKIP=" "
KEEP=

while (($#)); do
	case $1 in
	--kernel|--smp|--mem|--cpu|--machine|--append)
		VM_ARGS+=("$1" "$2")
		shift 2
		;;
	--keep)
		KEEP=$2
		shift 2
		;;
	--module)
		MODULE=$2
		shift 2
		;;
	--timeout)
		TIMEOUT=$2
		shift 2
		;;
	--skip)
		SKIP+="$2 "
		shift 2
		;;
	-*)
		echo "vm: unknown option $1" >&2
		exit 2
		;;
	*)
		TESTS+=("$1")
		shift
		;;
	esac
done
if ((${#TESTS[@]} == 0)); then
	for t in "$BUILD"/vm-tests/test_* "$BUILD"/vm-tests/fuzz_* \
		"$REPO"/selftests/vm/test_*.sh; do
		[[ -e $t && $SKIP != *" $(basename "$t") "* ]] && TESTS+=("$(basename "$t")")
	done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The guest script: every program in turn, output not on a terminal (so
# the CLI behaves as it does in scripts), separated by a header line.  The
# output goes through vm-pace (selftests/qemu/vm-pace.c), at most 256 bytes
# queued on the serial port at a time: on PREEMPT_RT a program's flood of
# output would otherwise get the port's interrupt disabled, and the rest of
# the output lost.
{
	echo 'mkdir -p /tmp && cd /tmp'
	for v in $(compgen -v TP_ || true); do
		printf 'export %s=%q\n' "$v" "${!v}"
	done
	cat <<-'EOF'
	# log_check NAME SINCE: the kernel log lines after line SINCE that a
	# pattern matches, as one failed test of a TAP block named NAME.
	log_check() {
		hits=$(dmesg | tail -n +"$(($2 + 1))" | grep -E -f /etc/tscprobe/log-patterns)
		[ -z "$hits" ] && return 0
		echo "# program: $1 (kernel log)"
		echo "$hits" | head -n 20 | sed 's/^/# /'
		echo "not ok 1 $1 left a report in the kernel log"
		echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	}
	EOF
	for t in "${TESTS[@]}"; do
		echo "echo '# program: $t'; t0=\$(cut -d. -f1 /proc/uptime); l0=\$(dmesg | wc -l)"
		echo "/selftests/$t 2>&1 | vm-pace"
		echo "echo \"# program: $t took \$((\$(cut -d. -f1 /proc/uptime) - t0)) s\""
		echo "log_check ${t%% *} \$l0"
	done
	echo 'lsmod 2>/dev/null | grep -q "^tscprobe " && rmmod tscprobe'
	echo 'exit 0'
} >"$work/guest.sh"

# The patterns as check-log.sh applies them, for the guest's grep.
"$REPO/selftests/qemu/check-log.sh" --patterns >"$work/log-patterns"
adds=(--add "$MODULE:/lib/tscprobe/tscprobe.ko"
      --add "$work/log-patterns:/etc/tscprobe/log-patterns"
      --add "$BUILD/tscprobe:/usr/bin/tscprobe"
      --add "$(command -v jq):/usr/bin/jq"
      --add "$REPO/selftests/tap.sh:/selftests/tap.sh"
      --add "$REPO/selftests/vm/lib.sh:/selftests/lib.sh")
# The soak's timer (selftests/vm/timerlat.c) and the fault tests' CPU hog
# (selftests/vm/rtpoller.c), for any program that wants them.
for helper in timerlat rtpoller; do
	[[ -x $BUILD/vm-tests/$helper ]] &&
		adds+=(--add "$BUILD/vm-tests/$helper:/usr/bin/$helper")
done
# A test that runs the kernel's ynl (test_ynl*) gets python3 and the
# library part of its standard library (selftests/qemu/stage-python.sh), and at
# /usr/share/tscprobe/ynl a small kernel-like tree: ynl's cli.py and lib/
# and the genetlink-legacy schema from build/ynl ("make ynl": Debian's
# linux-source-6.12), this tree's spec and Documentation/examples.
add_ynl() {
	local tree=$work/ynl py=${VM_BUILD_DIR:-$BUILD/vm}/python
	local src=$BUILD/ynl

	make -s -C "$REPO" --no-print-directory ynl || exit 2
	"$REPO/selftests/qemu/stage-python.sh" "$py" || exit 2
	mkdir -p "$tree/tools/net/ynl" "$tree/Documentation/netlink/specs" \
		"$tree/Documentation/examples"
	cp -r "$src/tools/net/ynl/cli.py" "$src/tools/net/ynl/lib" "$tree/tools/net/ynl/"
	cp "$src/Documentation/netlink/genetlink-legacy.yaml" "$tree/Documentation/netlink/"
	cp "$REPO/Documentation/netlink/specs/tscprobe.yaml" "$tree/Documentation/netlink/specs/"
	cp "$REPO"/Documentation/examples/*.py "$tree/Documentation/examples/"
	# Compiled here, as stage-python.sh does: the guest never compiles.
	/usr/bin/python3.11 -m compileall -q --invalidation-mode unchecked-hash \
		"$tree" >/dev/null || exit 2
	adds+=(--add /usr/bin/python3.11:/usr/bin/python3
	       --add "$py/python3.11:/usr/lib/python3.11"
	       --add "$py/dist-packages:/usr/lib/python3/dist-packages"
	       --add "$tree:/usr/share/tscprobe/ynl")
}
for t in "${TESTS[@]}"; do
	[[ $t == test_ynl* ]] && { add_ynl; break; }
done
# Programs from build/vm-tests, scripts (smoke.sh) from selftests/vm.  A
# TEST may carry arguments ("test_sources.sh named_time_fits").
for t in "${TESTS[@]}"; do
	t=${t%% *}
	if [[ -e $BUILD/vm-tests/$t ]]; then
		adds+=(--add "$BUILD/vm-tests/$t:/selftests/$t")
	elif [[ -e $REPO/selftests/vm/$t ]]; then
		adds+=(--add "$REPO/selftests/vm/$t:/selftests/$t")
	else
		echo "vm: no test $t (make selftests)" >&2
		exit 2
	fi
done

# slub_debug=U on the kmalloc caches: every live object keeps its
# allocation's stack trace, so test_faults can tell an object the module
# leaked from anything else (a few per cent slower allocations).  A log
# buffer that holds the whole run, so that log_check's line numbers hold.
logs=${KEEP:-$work/vm}
boot() {
	status=0
	"$REPO/selftests/qemu/run-vm.sh" --timeout "$TIMEOUT" \
		--append "slub_debug=U,kmalloc-* log_buf_len=8M" --keep "$logs" \
		"${VM_ARGS[@]}" "${adds[@]}" "$work/guest.sh" | tee "$work/tap.log" ||
		status=$?
}

boot
# That guest's figures do not count; it is booted again, once.
if ((status == 125)) &&
	"$REPO/selftests/qemu/check-log.sh" --stale-int3 "$logs/console.log"; then
	echo "# vm: the guest died of an int3 trap at a byte that holds no int3, a stale"
	echo "# vm: TCG translation (selftests/qemu/README): its results void, booting it again"
	boot
fi

read -r pass fail < <("$REPO/selftests/tap-count.sh" "$work/tap.log" "${#TESTS[@]}")
if ((status != 0)); then
	echo "# vm: the guest failed (status $status): counted as one failure"
	fail=$((fail + 1))
fi
echo "vm: $pass passed, $fail failed"
((fail == 0))
