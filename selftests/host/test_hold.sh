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
# turned off; every report states what it held; bad values and conditions
# that cannot be held end the command before it measures.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLI=$REPO/build/tscprobe
# shellcheck source=selftests/tap.sh
source "$REPO/selftests/tap.sh"
ROOT=$(mktemp -d)
OUT=$(mktemp -d)
trap 'rm -rf "$ROOT" "$OUT"' EXIT
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
	start_run --dma-latency 9
	tap_wait_for 10 dma_is 9 || return 1
	kill -9 "$PID"
	wait "$PID" 2>/dev/null
	tap_wait_for 10 dma_is "$DEFAULT" || { echo "still $(dma_now) after kill -9"; return 1; }
}

text_states_it() {
	local out

	# Whole, then searched: grep -q leaving early could end the CLI by
	# SIGPIPE, which pipefail would count against it.
	out=$("$CLI" noise --user -c 0 -d 200ms -q --dma-latency 5) &&
		grep -qx 'held: /dev/cpu_dma_latency at 5 us' <<<"$out"
}

# A synthetic sysfs: CPUs 0-1 online, CPU 0 with four idle states, state2
# off already; CPU 1 with none.
make_tree() {
	local k

	rm -rf "${ROOT:?}"/*
	mkdir -p "$ROOT/sys/devices/system/cpu/cpu1" "$ROOT/proc"
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

# noise --user on CPU 0 in the synthetic tree, for 3 s, in the background.
start_tree_run() {
	TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d 3s -q -j --dma-latency off "$@" \
		>"$OUT/run.json" 2>"$OUT/run.err" &
	PID=$!
}

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
	out=$(TSCPROBE_SYSROOT=$ROOT "$CLI" noise --user -c 0 -d 200ms -q --dma-latency 3 2>&1)
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
tap_check "--dma-latency 7: held at 7 during the run only" held_then_released 7 --dma-latency 7
tap_check "--dma-latency off: nothing held" dma_off
tap_check "cache holds nothing unless asked" cache_holds_nothing_by_default
tap_check "kill -9 of the CLI: the kernel lets go at once" dma_released_on_kill9
tap_check "text: 'held: /dev/cpu_dma_latency at 5 us'" text_states_it
tap_check "--deepest-idle-state 0: deeper states off, then back; one off before stays off" idle_limited_then_back
tap_check "Ctrl-C: the idle states are back" idle_back_after INT
tap_check "kill -9: the guardian puts the idle states back" idle_back_after KILL
tap_check "text: 'held: idle states deeper than state0 off on CPU 0'" idle_text
tap_check "a CPU without cpuidle: one line, exit 1, nothing changed" no_cpuidle_changes_nothing
tap_check "the default request not held: the report says why" default_not_held_is_stated
tap_check "--dma-latency asked and not held: one line, exit 1" asked_not_held_fails
tap_check "bad --dma-latency: one line, exit 2" bad --dma-latency x -1 2000000001 5us ''
tap_check "bad --deepest-idle-state: one line, exit 2" bad --deepest-idle-state x -1 16 ''
tap_check "--compare holds nothing: exit 2" compare_refuses
tap_check "JSON reports carry .conditions" json_has_conditions
tap_done
