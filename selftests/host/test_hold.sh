#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Conditions held during a run (--dma-latency, --deepest-idle-state), with
# the userspace engine: the real /dev/cpu_dma_latency (as root; reading it
# gives the kernel's current limit) holds the value asked for, or 0 for
# noise with interrupts on, while the run lasts and not a moment after,
# also when the CLI is killed with SIGKILL; idle states in a synthetic
# sysfs ($TSCPROBE_SYSROOT) are turned off above the limit and back on
# after the run, after Ctrl-C and after SIGKILL, and only those the run
# turned off; when the CLI and its guardian are both killed, the record
# under the tree's /run names what to put back, and the next command,
# "tscprobe restore" or the textfile service's ExecStopPost do; a second
# holder is refused; every report states what it held; bad values and
# conditions that cannot be held end the command before it measures.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir ROOT
tp_tmpdir OUT
DMA=/dev/cpu_dma_latency
IDLE=$ROOT/sys/devices/system/cpu/cpu0/cpuidle

# The kernel's current CPU latency limit, in microseconds.
dma_now() {
	od -An -td4 -N4 "$DMA" | tr -d ' '
}

dma_is() {
	[[ $(dma_now) == "$1" ]]
}

DEFAULT=$(dma_now)

# noise --user with @args for 3 s in the background; its pid in $PID.
start_run() {
	"$CLI" noise --user -c 0 -d 3s -q -j "$@" >"$OUT/run.json" 2>"$OUT/run.err" &
	PID=$!
}

held_then_released() {
	local want=$1
	shift
	start_run "$@"
	tap_wait_for 10 dma_is "$want" || { echo "never $want during the run: $(dma_now)"; return 1; }
	wait "$PID" || { echo "exit $?: $(cat "$OUT/run.err")"; return 1; }
	dma_is "$DEFAULT" || { echo "after the run: $(dma_now), want $DEFAULT"; return 1; }
	jq -e ".conditions.dma_latency_us == $want" "$OUT/run.json" >/dev/null ||
		{ jq -c .conditions "$OUT/run.json"; return 1; }
}

dma_off() {
	start_run --dma-latency off
	sleep 1
	dma_is "$DEFAULT" || { echo "held $(dma_now) with --dma-latency off"; return 1; }
	wait "$PID" && jq -e '.conditions.dma_latency_us == null and .conditions.dma_latency_not_held == null' \
		"$OUT/run.json" >/dev/null
}

cache_holds_nothing_by_default() {
	"$CLI" cache --user -c 0 -n 1e4 -q -j >"$OUT/cache.json" &&
		jq -e '.conditions.dma_latency_us == null' "$OUT/cache.json" >/dev/null
}

dma_released_on_kill9() {
	start_run --dma-latency 9us
	tap_wait_for 10 dma_is 9 || return 1
	kill -9 "$PID"
	wait "$PID" 2>/dev/null
	tap_wait_for 10 dma_is "$DEFAULT" || { echo "still $(dma_now) after kill -9"; return 1; }
}

text_states_it() {
	local out

	# Whole, then searched: grep -q leaving early could end the CLI by
	# SIGPIPE, which pipefail would count against it.
	out=$("$CLI" noise --user -c 0 -d 200ms -q --dma-latency 5us) &&
		grep -qx 'held: /dev/cpu_dma_latency at 5 us' <<<"$out"
}

# A synthetic sysfs: CPUs 0-1 online, CPU 0 with four idle states, state2
# off already; CPU 1 with none.
make_tree() {
	local k

	rm -rf "${ROOT:?}"/*
	mkdir -p "$ROOT/sys/devices/system/cpu/cpu1" "$ROOT/proc" "$ROOT/run"
	echo 0-1 >"$ROOT/sys/devices/system/cpu/online"
	for k in 0 1 2 3; do
		mkdir -p "$IDLE/state$k"
		echo "$((k == 2))" >"$IDLE/state$k/disable"
	done
}

idle_flags() {
	cat "$IDLE"/state{0,1,2,3}/disable | tr -d '\n'
}

flags_are() {
	[[ $(idle_flags) == "$1" ]]
}

# noise --user on CPU 0 in the synthetic tree, for 3 s (or $SECONDS_RUN),
# in the background.
start_tree_run() {
	TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d "${SECONDS_RUN:-3}s" -q -j \
		--dma-latency off "$@" >"$OUT/run.json" 2>"$OUT/run.err" &
	PID=$!
}

# The record of the idle states held, and the lock beside it.
RECORD=$ROOT/run/tscprobe/idle-held
LOCK=$RECORD.lock

idle_limited_then_back() {
	make_tree
	start_tree_run --deepest-idle-state 0
	tap_wait_for 10 flags_are 0111 || { echo "during: $(idle_flags), want 0111"; return 1; }
	wait "$PID" || { echo "exit $?: $(cat "$OUT/run.err")"; return 1; }
	flags_are 0010 || { echo "after: $(idle_flags), want 0010 (state2 was off before)"; return 1; }
	jq -e '.conditions | .deepest_idle_state == 0 and .idle_states_disabled == 2 and .idle_limited_cpus == [0]' \
		"$OUT/run.json" >/dev/null || { jq -c .conditions "$OUT/run.json"; return 1; }
}

# idle_back_after SIGNAL: the states are back after the CLI, mid-run, got
# SIGNAL (INT once the CLI catches it: ignored before, in a background job).
idle_back_after() {
	local rc want=137

	make_tree
	start_tree_run --deepest-idle-state 1
	tap_wait_for 10 flags_are 0011 || { echo "during: $(idle_flags), want 0011"; return 1; }
	if [[ $1 == INT ]]; then
		want=130
		tap_wait_for 20 tap_catches "$PID" 2 || { echo "Ctrl-C never caught"; return 1; }
	fi
	kill -"$1" "$PID"
	wait "$PID" 2>/dev/null
	rc=$?
	((rc == want)) || { echo "exit $rc after SIG$1, want $want"; return 1; }
	tap_wait_for 10 flags_are 0010 || { echo "after SIG$1: $(idle_flags), want 0010"; return 1; }
	tap_wait_for 10 test ! -e "$RECORD" || { echo "the record is left:"; cat "$RECORD"; return 1; }
}

# A run holding states 3 (state2 was off before) for 20 s, then the CLI
# and its guardian both killed with SIGKILL, as a cgroup's kill does: the
# states stay off, and the record names the holder and each state.
kill_both() {
	local guardian

	make_tree
	SECONDS_RUN=20 start_tree_run --deepest-idle-state 1
	tap_wait_for 10 flags_are 0011 || { echo "during: $(idle_flags), want 0011"; return 1; }
	guardian=$(pgrep -P "$PID")
	[[ -n $guardian ]] || { echo "no guardian"; return 1; }
	# The guardian first: woken by the CLI's death, it would put them back.
	kill -KILL "$guardian" "$PID"
	wait "$PID" 2>/dev/null
	tap_wait_for 10 bash -c "! kill -0 $guardian 2>/dev/null" || return 1
	flags_are 0011 || { echo "after the kill: $(idle_flags), want 0011 (still off)"; return 1; }
	grep -Eqx "holder $PID [0-9]+" "$RECORD" && [[ $(grep -c '^cpu' "$RECORD") == 1 ]] &&
		grep -qx 'cpu0 state3 0' "$RECORD" || { echo "the record:"; cat "$RECORD"; return 1; }
}

# The guardian alone killed (the OOM killer's pick): the CLI puts the
# states back at the run's end itself, and removes the record.
guardian_killed_alone() {
	local guardian

	make_tree
	start_tree_run --deepest-idle-state 1
	tap_wait_for 10 flags_are 0011 || { echo "during: $(idle_flags), want 0011"; return 1; }
	guardian=$(pgrep -P "$PID")
	[[ -n $guardian ]] || { echo "no guardian"; return 1; }
	kill -KILL "$guardian"
	wait "$PID" || { echo "exit $?: $(cat "$OUT/run.err")"; return 1; }
	flags_are 0010 || { echo "after the run: $(idle_flags), want 0010"; return 1; }
	[[ ! -e $RECORD ]] || { echo "the record is left:"; cat "$RECORD"; return 1; }
}

# After kill_both, COMMAND... (in the tree) puts every state back, says
# so on its output ($OUT/back) naming the dead holder, and removes the
# record.
puts_back() {
	local dead

	kill_both || return 1
	dead=$PID
	TSCPROBE_SYSROOT=$ROOT "$@" >"$OUT/back" 2>&1 || { echo "exit $?:"; cat "$OUT/back"; return 1; }
	flags_are 0010 || { echo "after $*: $(idle_flags), want 0010"; return 1; }
	[[ ! -e $RECORD ]] || { echo "the record is left:"; cat "$RECORD"; return 1; }
	grep -q "restored 1 idle state on CPU 0 left turned off by tscprobe pid $dead," "$OUT/back" ||
		{ echo "what it said:"; cat "$OUT/back"; return 1; }
}

# The textfile service's ExecStopPost, this build's CLI for the installed
# one.
exec_stop_post() {
	local cmd

	cmd=$(sed -n 's/^ExecStopPost=-\{0,1\}@SBINDIR@\/tscprobe //p' \
		"$REPO/user/systemd/tscprobe-textfile.service.in")
	[[ -n $cmd ]] || { echo "no ExecStopPost running tscprobe"; return 1; }
	# shellcheck disable=SC2086 # the unit's words
	"$CLI" $cmd
}

# After a clean end: no record, and restore has nothing to do or say.
clean_end_leaves_nothing() {
	local out

	make_tree
	start_tree_run --deepest-idle-state 0
	wait "$PID" || { echo "exit $?: $(cat "$OUT/run.err")"; return 1; }
	[[ ! -e $RECORD ]] || { echo "the record is left:"; cat "$RECORD"; return 1; }
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" restore 2>&1) || { echo "restore: exit $?: $out"; return 1; }
	[[ -z $out ]] || { echo "restore said: $out"; return 1; }
	flags_are 0010
}

# A second holder while the first holds: refused, exit 4, one line naming
# the first; the first's states and record untouched, and back at its end
# (Ctrl-C: the first runs long enough for the checks on a busy machine).
second_holder() {
	local first out rc

	make_tree
	SECONDS_RUN=60 start_tree_run --deepest-idle-state 1
	first=$PID
	tap_wait_for 10 flags_are 0011 || { echo "during: $(idle_flags), want 0011"; return 1; }
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d 200ms -q --dma-latency off \
		--deepest-idle-state 0 2>&1)
	rc=$?
	if ((rc != 4)) || [[ $(wc -l <<<"$out") != 1 ]] ||
		! grep -q -- "--deepest-idle-state: tscprobe pid $first holds the idle states" <<<"$out"; then
		echo "exit $rc: $out"
		return 1
	fi
	flags_are 0011 || { echo "the second changed them: $(idle_flags)"; return 1; }
	grep -Eqx "holder $first [0-9]+" "$RECORD" || { echo "the record:"; cat "$RECORD"; return 1; }
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" restore) &&
		grep -qx "tscprobe pid $first holds the idle states for its run: it puts them back when it ends" <<<"$out" ||
		{ echo "restore during the run: $out"; return 1; }
	flags_are 0011 || { echo "restore changed them mid-run: $(idle_flags)"; return 1; }
	tap_ctrl_c "$first"
	rc=$?
	((rc == 130)) || { echo "the first: exit $rc: $(cat "$OUT/run.err")"; return 1; }
	flags_are 0010 && [[ ! -e $RECORD ]]
}

# No record can be written (a full /run, in a mount namespace of this
# test's own): nothing is turned off.
unrecorded_changes_nothing() {
	local out rc

	make_tree
	mkdir -p "$ROOT/run/tscprobe"
	out=$(unshare -m bash -c 'mount -t tmpfs -o size=4k tmpfs "$1" || exit 99
		dd if=/dev/zero of="$1/fill" bs=4k status=none 2>/dev/null
		shift
		exec "$@"' full "$ROOT/run/tscprobe" env TSCPROBE_SYSROOT="$ROOT" "$CLI" noise --user \
		-c 0 -d 200ms -q --dma-latency off --deepest-idle-state 0 2>&1)
	rc=$?
	((rc != 99)) || return 0	# no mount namespace here: nothing to test
	if ((rc != 1)) || [[ $(wc -l <<<"$out") != 1 ]] ||
		! grep -q "cannot record what it turns off in $RECORD: No space left on device; nothing changed" <<<"$out" ||
		! flags_are 0010; then
		echo "exit $rc, flags $(idle_flags): $out"
		return 1
	fi
}

# As nobody, after kill_both: restore is refused (exit 5, one line) and
# env warns, naming the dead holder; nothing changes.
nobody_cannot_restore() {
	local out rc dead

	kill_both || return 1
	dead=$PID
	chmod 755 "$ROOT"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env TSCPROBE_SYSROOT="$ROOT" "$CLI" restore 2>&1)
	rc=$?
	if ((rc != 5)) || [[ $(wc -l <<<"$out") != 1 ]] || ! grep -q 'Permission denied' <<<"$out"; then
		echo "restore as nobody: exit $rc: $out"
		return 1
	fi
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env TSCPROBE_SYSROOT="$ROOT" "$CLI" env -c 0 2>&1 >/dev/null)
	grep -qx "tscprobe: tscprobe pid $dead ended without turning back on 1 idle state on CPU 0: 'tscprobe restore' as root does" <<<"$out" ||
		{ echo "env as nobody said: $out"; return 1; }
	flags_are 0011 && [[ -e $RECORD ]] || { echo "nobody changed $(idle_flags)"; return 1; }
	TSCPROBE_SYSROOT=$ROOT "$CLI" restore >/dev/null && flags_are 0010
}

# A record tscprobe did not write (a path where a state should be) is
# not acted on: restore fails with one line, nothing written.
foreign_record() {
	local out rc

	make_tree
	mkdir -p "$ROOT/run/tscprobe"
	printf 'holder 1 1\ncpu0 state3 0\n../../../../../etc/victim 0\n' >"$RECORD"
	echo 1 >"$IDLE/state3/disable"
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" restore 2>&1)
	rc=$?
	if ((rc != 1)) || [[ $(wc -l <<<"$out") != 1 ]] ||
		! grep -q "not a record tscprobe wrote" <<<"$out" || ! flags_are 0011; then
		echo "exit $rc, flags $(idle_flags): $out"
		return 1
	fi
}

idle_text() {
	local out

	make_tree
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d 200ms -q --dma-latency off \
		--deepest-idle-state 0) &&
		grep -qx 'held: idle states deeper than state0 off on CPU 0 (2 turned off)' <<<"$out"
}

no_cpuidle_changes_nothing() {
	local out rc

	make_tree
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0-1 -d 200ms -q --deepest-idle-state 0 2>&1)
	rc=$?
	if ((rc != 1)) || [[ $(wc -l <<<"$out") != 1 ]] ||
		! grep -q 'CPU 1 has no idle states' <<<"$out" || ! flags_are 0010; then
		echo "exit $rc, flags $(idle_flags): $out"
		return 1
	fi
}

default_not_held_is_stated() {
	make_tree
	TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d 200ms -q -j >"$OUT/nh.json" &&
		jq -e '.conditions.dma_latency_us == null and
		       (.conditions.dma_latency_not_held | test("cpu_dma_latency: No such file"))' \
		"$OUT/nh.json" >/dev/null
}

asked_not_held_fails() {
	local out rc

	make_tree
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d 200ms -q --dma-latency 3us 2>&1)
	rc=$?
	if ((rc != 1)) || [[ $(wc -l <<<"$out") != 1 ]] ||
		! grep -q -- '--dma-latency: .*No such file' <<<"$out"; then
		echo "exit $rc: $out"
		return 1
	fi
}

# bad VALUE...: each is refused with one line and exit 2.
bad() {
	local opt=$1 v out rc
	shift
	for v; do
		out=$("$CLI" noise --user -c 0 -d 200ms -q "$opt" "$v" 2>&1)
		rc=$?
		if ((rc != 2)) || [[ $(wc -l <<<"$out") != 1 ]] || ! grep -q -- "$opt" <<<"$out"; then
			echo "$opt $v: exit $rc: $out"
			return 1
		fi
	done
}

compare_refuses() {
	"$CLI" noise --compare --dma-latency 0 2>/dev/null
	(($? == 2))
}

json_has_conditions() {
	jq -e 'has("conditions")' "$OUT/run.json" >/dev/null
}

tap_check "noise with interrupts on holds cpu_dma_latency at 0, then lets go" held_then_released 0
tap_check "--dma-latency 7us: held at 7 during the run only" held_then_released 7 --dma-latency 7us
tap_check "--dma-latency off: nothing held" dma_off
tap_check "cache holds nothing unless asked" cache_holds_nothing_by_default
tap_check "kill -9 of the CLI: the kernel lets go at once" dma_released_on_kill9
tap_check "text: 'held: /dev/cpu_dma_latency at 5 us'" text_states_it
tap_check "--deepest-idle-state 0: deeper states off, then back; one off before stays off" idle_limited_then_back
tap_check "Ctrl-C: the idle states are back" idle_back_after INT
tap_check "kill -9: the guardian puts the idle states back" idle_back_after KILL
tap_check "the guardian killed alone: the CLI puts them back at its end" guardian_killed_alone
tap_check "CLI and guardian killed: the record names the holder and each state" kill_both
tap_check "... the next run puts them back and says so" puts_back "$CLI" noise --user -c 0 -d 100ms -q
tap_check "... so does env, the audit" puts_back "$CLI" env -c 0
tap_check "... so does the next holder, then holds its own" puts_back "$CLI" noise --user -c 0 \
	-d 100ms -q --dma-latency off --deepest-idle-state 1
tap_check "... so does 'tscprobe restore'" puts_back "$CLI" restore
tap_check "... so does the textfile service's ExecStopPost" puts_back exec_stop_post
tap_check "as nobody: restore refused, env warns, nothing changed" nobody_cannot_restore
tap_check "restore after a clean end: nothing to do, nothing said" clean_end_leaves_nothing
tap_check "a second holder: exit 4, one line; the first's states and record kept" second_holder
tap_check "no record written: nothing turned off, one line, exit 1" unrecorded_changes_nothing
tap_check "a record tscprobe did not write: refused, nothing written" foreign_record
tap_check "text: 'held: idle states deeper than state0 off on CPU 0'" idle_text
tap_check "a CPU without cpuidle: one line, exit 1, nothing changed" no_cpuidle_changes_nothing
tap_check "the default request not held: the report says why" default_not_held_is_stated
tap_check "--dma-latency asked and not held: one line, exit 1" asked_not_held_fails
tap_check "bad --dma-latency: one line, exit 2" bad --dma-latency x -1us 2001s 1500ns 5 ''
tap_check "bad --deepest-idle-state: one line, exit 2" bad --deepest-idle-state x -1 16 ''
tap_check "--compare holds nothing: exit 2" compare_refuses
tap_check "JSON reports carry .conditions" json_has_conditions
tap_done
