#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/qemu/check-log.sh against kernel log lines of the kinds the
# debug and RT kernels print: every bug finder's report fails a run, the bug
# finders' own boot lines and the harness's command line do not.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir W
LOG=$W/kernel.log

# scan LINE: check-log.sh's status on a log of a clean boot plus LINE.
scan() {
	{
		echo '[    0.000000] Linux version 6.1.0-tscprobe-debug (gcc 12.2.0)'
		echo '[    0.000000] Command line: console=ttyS0 kmemleak=on slub_debug=U,kmalloc-*'
		echo '[    0.000000] Kernel command line: console=ttyS0 KASAN UBSAN WARNING:'
		echo '[    0.512000] kmemleak: Kernel memory leak detector initialized (mempool available: 64000)'
		echo '[    0.513000] kmemleak: Automatic memory scanning thread started'
		echo '[    0.600000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar'
		echo '[    0.601000] ... MAX_LOCKDEP_SUBCLASSES:  8'
		echo '[    0.700000] kasan: KernelAddressSanitizer initialized (generic)'
		echo '[    0.800000] ODEBUG: selftest passed'
		printf '%s\n' "$1"
	} >"$LOG"
	"$REPO/selftests/qemu/check-log.sh" -C 0 "$LOG" >/dev/null
}

clean() { scan "$1"; }
caught() { ! scan "$1"; }

tap_check "a debug kernel's boot lines are clean" clean '[    1.000000] tscprobe: loaded'
tap_check "kmemleak's report" caught '[   60.1] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)'
tap_check "a kmemleak object record" caught 'unreferenced object 0xffff888003c5e000 (size 64):'
tap_check "kmemleak turning itself off" caught '[    9.9] kmemleak: Kernel memory leak detector disabled'
tap_check "kmemleak's pool running dry" caught '[    9.9] kmemleak: Memory pool empty, consider increasing CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE'
tap_check "lockdep" caught '[    5.0] WARNING: possible circular locking dependency detected'
tap_check "lockdep's inconsistent state" caught '[    5.0] WARNING: inconsistent lock state'
tap_check "an atomic sleep" caught '[    5.0] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580'
tap_check "KASAN" caught '[    5.0] BUG: KASAN: slab-out-of-bounds in tp_noise_loop+0x4f/0x90 [tscprobe]'
tap_check "UBSAN" caught '[    5.0] UBSAN: shift-out-of-bounds in kmod/noise.c:120:9'
tap_check "DEBUG_OBJECTS" caught '[    5.0] ODEBUG: free active (active state 0) object: 00000000a1b2c3d4 object type: timer_list hint: tp_tick+0x0/0x40 [tscprobe]'
tap_check "a list corruption" caught '[    5.0] list_add corruption. next->prev should be prev. kernel BUG at lib/list_debug.c:30!'
tap_check "a soft lockup" caught '[   30.0] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [tscprobe/1:90]'
tap_check "an RCU stall" caught '[   30.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:'
tap_check "a hung task" caught '[  130.0] INFO: task rmmod:120 blocked for more than 120 seconds.'
# stale ARGS: check-log.sh --stale-int3 on an Oops whose Code: line has
# the trap's byte as given (RIP is one past it).
stale() {
	{
		echo '[   54.939752] Oops: int3: 0000 [#1] SMP NOPTI'
		echo '[   54.939752] CPU: 2 UID: 0 PID: 28 Comm: cpuhp/2 Tainted: G           OE'
		echo '[   54.939752] RIP: 0010:hrtimer_run_queues+0x129/0x150'
		echo "[   54.939752] Code: 01 e8 18 e2 ff ff $1 <90> 5b 5d 41 5c c3 cc cc"
		echo '[   54.939752] Call Trace:'
	} >"$LOG"
	"$REPO/selftests/qemu/check-log.sh" --stale-int3 "$LOG"
}
tap_check "an int3 trap where memory holds no int3 is stale" stale 66
tap_check "an int3 trap where memory holds one is not" eval '! stale cc'
# stall_in_int3 BYTE: check-log.sh --stale-int3 on an RCU stall whose CPU
# loops in the int3 trap at a site whose byte in memory is BYTE.
stall_in_int3() {
	{
		echo '[  289.444593] rcu: INFO: rcu_preempt self-detected stall on CPU'
		echo '[  289.456621] Call Trace:'
		echo '[  289.456621]  <IRQ>'
		echo '[  289.456621]  exc_int3+0x3a/0x120'
		echo '[  289.456621]  asm_exc_int3+0x35/0x40'
		echo '[  289.456621] RIP: 0010:handle_softirqs+0xd8/0x280'
		echo "[  289.456621] Code: 49 8b 45 00 4c 89 ef e8 a9 51 d6 00 $1 <e0> 00 00 00 65 44"
	} >"$LOG"
	"$REPO/selftests/qemu/check-log.sh" --stale-int3 "$LOG"
}
tap_check "a stall looping in int3 where memory holds none is stale" stall_in_int3 e9
tap_check "a stall looping in int3 where memory holds one is not" eval '! stall_in_int3 cc'
tap_check "no Oops is not a stale int3" eval \
	'echo "[ 1.0] tscprobe: loaded" >"$LOG"; ! "$REPO/selftests/qemu/check-log.sh" --stale-int3 "$LOG"'
tap_done
