#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run the kselftest programs of selftests/vm in a QEMU guest, from
# the host.
#
# usage: run.sh [--kernel PATH] [--module KO] [--smp N] [--mem MB]
#               [--cpu MODEL] [--machine pc|server] [--append ARGS]
#               [--keep DIR] [--timeout SEC] [--skip TEST]... [--list]
#               [TEST...]
#
# Boots the kernel once (--kernel, by default the image of the default
# KDIR, tools/kernels.sh; --smp, --mem, --cpu, --machine, --append and
# --keep as selftests/qemu/run-vm.sh takes them; --timeout, default 900 s,
# for the whole boot) with the module (--module, default kmod/tscprobe.ko:
# it must be built for that kernel), the CLI, jq and the test programs,
# those of build/arm64 for an arm64 kernel (make ARCH=arm64),
# whose output it prints as they run.  The programs: the TESTs named, or
# every test_* and fuzz_* program and every selftests/vm/test_*.sh script
# but those named by --skip; --skip "PROGRAM NAME..." leaves out those
# tests of a C program only.  Of that list, test_faults'
# held_after_a_long_warm_up runs only where --append has nohz_full=1:
# elsewhere it cannot tell what it checks.  A TEST is a name in
# build/vm-tests or selftests/vm, or a path; words after its name are its
# arguments: "test_sources.sh named_time_fits" runs that check alone
# (tap.sh), "test_faults held_after_a_long_warm_up" that test, and
# "test_faults -rmmod_mid_run" all but it (tp_choose_tests()).  --list
# prints the programs with their arguments, one a line, and boots nothing.
#
# The guest's /init (selftests/qemu/init.sh) runs them in turn and after
# each scans the kernel log since it started (selftests/qemu/log-patterns):
# a report there fails that program by name, besides failing the whole
# run.  Environment variables named TP_* (TP_FUZZ_SEED, TP_FUZZ_COUNT, ...)
# are passed on to the programs.  test_ynl* brings Python and ynl along
# (add_ynl).  A guest that died of a stale TCG translation (check-log.sh
# --stale-int3, selftests/qemu/README.md) is booted again, once, and only
# that boot counts.  The last line is "vm: N passed, N failed"; the exit
# status is non-zero when anything failed, including a guest that
# panicked, hung, or left a WARNING, lockup or stall in its kernel log.
# A bad option or test name (status 2) or a harness error (127: no kernel,
# QEMU or busybox, a build that failed) ends it before the guest boots,
# with its reason on stderr.
set -euo pipefail

ME=vm
# shellcheck source=selftests/qemu/boot.sh
source "$(dirname "${BASH_SOURCE[0]}")/../qemu/boot.sh"
BUILD=$REPO/build
MODULE=$REPO/kmod/tscprobe.ko
MODULE_SET=0
TIMEOUT=900
TESTS=()
SKIP=" "
declare -A LEAVE_OUT=()
LIST=0

while (($#)); do
	if vm_option "$@"; then
		shift 2
		continue
	fi
	case $1 in
	--module)
		MODULE=$2
		MODULE_SET=1
		shift 2
		;;
	--list)
		LIST=1
		shift
		;;
	--skip)
		if [[ $2 == *" "* ]]; then
			for name in ${2#* }; do
				LEAVE_OUT[${2%% *}]+=" -$name"
			done
		else
			SKIP+="$2 "
		fi
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
	[[ " ${APPEND:-} " == *" nohz_full=1 "* ]] ||
		LEAVE_OUT[test_faults]+=" -held_after_a_long_warm_up"
	for t in "$BUILD"/vm-tests/test_* "$BUILD"/vm-tests/fuzz_* \
		"$REPO"/selftests/vm/test_*.sh; do
		t=$(basename "$t")
		[[ -e $BUILD/vm-tests/$t || -e $REPO/selftests/vm/$t ]] &&
			[[ $SKIP != *" $t "* ]] && TESTS+=("$t${LEAVE_OUT[$t]:-}")
	done
fi
if ((LIST)); then
	printf '%s\n' "${TESTS[@]}"
	exit 0
fi

vm_check
# An arm64 guest (boot.sh: guest_arm64) runs what "make ARCH=arm64" built,
# and the module only once it builds there (user_engine.sh needs none).
JQ=$(command -v jq)
if [[ $GUEST_ARCH == arm64 ]]; then
	BUILD=$REPO/build/arm64
	((MODULE_SET)) || MODULE=$BUILD/mod/kmod/tscprobe.ko
	JQ=$ARM64_ROOT/usr/bin/jq
fi
vm_workdir
STAGE=$WORK/stage
mkdir -p "$STAGE"

# What /init reads: the programs by name with their arguments, the TP_*
# variables and the kernel log's patterns.
for t in "${TESTS[@]}"; do
	name=${t%% *}
	echo "${name##*/}${t#"$name"}"
done >"$STAGE/tests"
for v in $(compgen -v TP_ || true); do
	printf 'export %s=%q\n' "$v" "${!v}"
done >"$STAGE/env"
"$REPO/selftests/qemu/check-log.sh" --patterns >"$STAGE/log-patterns"
ADDS+=(--add "$STAGE/tests:/etc/tscprobe/tests"
       --add "$STAGE/env:/etc/tscprobe/env"
       --add "$STAGE/log-patterns:/etc/tscprobe/log-patterns"
       --add "$BUILD/tscprobe:/usr/bin/tscprobe"
       --add "$JQ:/usr/bin/jq"
       --add "$REPO/selftests/tap.sh:/selftests/tap.sh"
       --add "$REPO/selftests/vm/lib.sh:/selftests/lib.sh")
[[ $GUEST_ARCH == arm64 && ! -e $MODULE ]] ||
	ADDS+=(--add "$MODULE:/lib/tscprobe/tscprobe.ko")
# The soak's timer (selftests/vm/timerlat.c) and the fault tests' CPU hog
# (selftests/vm/rtpoller.c), for any program that wants them.
for helper in timerlat rtpoller; do
	[[ -x $BUILD/vm-tests/$helper ]] &&
		ADDS+=(--add "$BUILD/vm-tests/$helper:/usr/bin/$helper")
done

# A test that runs the kernel's ynl (test_ynl*) gets python3 and the
# library part of its standard library (selftests/qemu/stage-python.sh), and at
# /usr/share/tscprobe/ynl a small kernel-like tree: ynl's cli.py and lib/
# and the genetlink-legacy schema from build/ynl ("make ynl": Debian's
# linux-source-6.12), this tree's spec and Documentation/examples.
add_ynl() {
	local tree=$STAGE/ynl py=${VM_BUILD_DIR:-$BUILD/vm}/python
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
	ADDS+=(--add /usr/bin/python3.11:/usr/bin/python3
	       --add "$py/python3.11:/usr/lib/python3.11"
	       --add "$py/dist-packages:/usr/lib/python3/dist-packages"
	       --add "$tree:/usr/share/tscprobe/ynl")
}
for t in "${TESTS[@]}"; do
	[[ $(basename "$t") == test_ynl* ]] && { add_ynl; break; }
done
# test_file NAME: the file of a test: NAME itself where it is a path, else
# a program of build/vm-tests or a script (smoke.sh) of selftests/vm.
test_file() {
	local f

	for f in "$1" "$BUILD/vm-tests/$1" "$REPO/selftests/vm/$1"; do
		[[ $f == */* && -f $f ]] && { echo "$f"; return; }
		[[ $1 == */* ]] && break
	done
	echo "vm: no test $1 (make selftests)" >&2
	exit 2
}
for t in "${TESTS[@]}"; do
	f=$(test_file "${t%% *}")
	ADDS+=(--add "$f:/selftests/${f##*/}")
done

# slub_debug=U on the kmalloc caches: every live object keeps its
# allocation's stack trace, so test_faults can tell an object the module
# leaked from anything else (a few per cent slower allocations).  A log
# buffer that holds the whole run, so that log_check's line numbers hold.
APPEND="slub_debug=U,kmalloc-* log_buf_len=8M${APPEND:+ $APPEND}"
vm_image

status=0
vm_boot || status=$?
# That guest's figures do not count; it is booted again, once.
if ((status == EXIT_NO_STATUS)) &&
	"$REPO/selftests/qemu/check-log.sh" --stale-int3 "$WORK/console.log"; then
	echo "# vm: the guest died of an int3 trap at a byte that holds no int3, a stale"
	echo "# vm: TCG translation (selftests/qemu/README.md): its results void, booting it again"
	status=0
	vm_boot || status=$?
fi

read -r pass fail < <("$REPO/selftests/tap-count.sh" "$WORK/out.log" "${#TESTS[@]}")
if ((status != 0)); then
	echo "# vm: the guest failed (status $status): counted as one failure"
	fail=$((fail + 1))
fi
echo "vm: $pass passed, $fail failed"
((fail == 0))
