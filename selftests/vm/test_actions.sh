#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_actions.sh - what noise does at its events and its end
# (--on-threshold, --on-end).  Runs as root in the guest (busybox sh) with
# the module at /lib/tscprobe/tscprobe.ko, the CLI and jq on PATH.
#
# With interrupts on, the guest has gaps of 20 us and more many times a
# second, so a run with --threshold 20us --stop-at 20us has events to act
# on without ending: the counts must add up (every event at the level is
# acted on or limited, and as many as the module notified), the commands
# must see their event, the snapshots must hold the trace and tracing must
# go on.  A kernel without a tracing snapshot (the project's debug kernel)
# checks the error instead.  Prints TAP and the kselftest totals line.
. /selftests/lib.sh

snapshot=0
[ -w "$TR/snapshot" ] && snapshot=1

run_id() {
	tscprobe status -j 2>/dev/null | jq -r '.run_id // 0' 2>/dev/null || echo 0
}

# refused WHY ARGS...: noise with ARGS exits 2 with one line naming WHY,
# and starts no run.
refused() {
	why=$1
	shift
	before=$(run_id)
	tscprobe noise -q -d 1s "$@" >"$OUT/bad.out" 2>"$OUT/bad.err"
	rc=$?
	[ "$rc" -eq 2 ] || { echo "exit $rc, not 2: $*"; cat "$OUT/bad.err"; return 1; }
	[ "$(wc -l <"$OUT/bad.err")" -eq 1 ] && grep -q -- "$why" "$OUT/bad.err" ||
		{ echo "not one line naming '$why':"; cat "$OUT/bad.err"; return 1; }
	[ "$(run_id)" = "$before" ] || { echo "a run started: $*"; return 1; }
}

bad_input() {
	refused "needs --stop-at" --on-threshold stop &&
	refused "'stop': give snapshot" --stop-at 20us --on-end stop &&
	refused "give the command after exec" --stop-at 20us --on-threshold exec &&
	refused "need the module's own run" --on-end 'exec true' --user &&
	refused "add --on-threshold stop" --stop-at 20us --trace-stop \
		--on-threshold 'exec true' || return 1
	if [ "$snapshot" = 1 ]; then
		refused "not a directory" --stop-at 20us \
			--on-threshold snapshot="$OUT/none"
	else
		refused "no tracing snapshot" --stop-at 20us \
			--on-threshold snapshot="$OUT"
	fi
}

# The run that acts at every gap of 20 us and more, for 3 s: a snapshot
# (where there is one), a command that records its event and marks the
# trace, and a command at the end; the commands also write to their
# standard output, which must not reach the report.
acting_run() {
	rm -rf "$OUT/snap" "$OUT/events.txt" "$OUT/end.txt"
	mkdir -p "$OUT/snap"
	snap=
	[ "$snapshot" = 1 ] && snap="--on-threshold snapshot=$OUT/snap"
	[ "$snapshot" = 1 ] && echo tscprobe-test-before >"$TR/trace_marker"
	# shellcheck disable=SC2016,SC2086
	tscprobe noise -q -j -c 0-1 -d 3s --irqs on --threshold 20us \
		--stop-at 20us $snap \
		--on-threshold 'exec echo "$TSCPROBE_ACTION|$TSCPROBE_RUN_ID|$TSCPROBE_CPU|$TSCPROBE_GAP_NS|$TSCPROBE_GAP_CYCLES|$TSCPROBE_CAUSE|$TSCPROBE_EVENTS|$TSCPROBE_SNAPSHOT" >>'"$OUT"'/events.txt; echo tscprobe-marker-$TSCPROBE_EVENTS >'"$TR"'/trace_marker 2>/dev/null; echo noise-on-stdout' \
		--on-end 'exec echo "$TSCPROBE_ACTION|$TSCPROBE_RUN_ID|$TSCPROBE_STOP_REASON|$TSCPROBE_GAP_NS|$TSCPROBE_EVENTS" >'"$OUT"'/end.txt; echo noise-on-stdout' \
		>"$OUT/run.json" 2>"$OUT/run.err"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$OUT/run.err"; return 1; }
	jq -e . "$OUT/run.json" >/dev/null ||
		{ echo "the report is not JSON:"; head -c 500 "$OUT/run.json"; return 1; }
	grep -q noise-on-stdout "$OUT/run.err" ||
		{ echo "the commands' output did not reach standard error"; return 1; }
}

jqt() {
	jq -e "$1" "$OUT/run.json" >/dev/null && return 0
	echo "false: $1"
	jq -c '{stop_reason, stop_at_ns, elapsed_ns, actions,
		cpus: [.cpus[] | {cpu, events_total, events_not_notified}]}' \
		"$OUT/run.json"
	return 1
}

went_on() {
	# elapsed_ns is the guest's clocksource, which under TCG has fallen 12 %
	# behind the TSC that timed the run (see test_warm_up.sh).
	jqt '.stop_reason == "completed" and .stop_at_ns == null and
		.elapsed_ns >= 1800000000'
}

counts_add_up() {
	jqt '.actions as $a | $a.events == $a.acted + $a.limited and
		$a.acted >= 1 and $a.acted <= 5 and $a.failed == 0 and
		$a.busy < $a.acted and $a.ended and $a.level_ns == 20000' &&
	jqt '.actions.overruns > 0 or .actions.events ==
		([.cpus[] | .events_total - .events_not_notified] | add)'
}

# Each line of events.txt: an event of this run, on a measured CPU, at the
# level or above; a line for each event acted on but those whose command
# was skipped (busy: the last one still ran, on a host that is slow).
commands_saw_events() {
	id=$(jq -r .run_id "$OUT/run.json")
	started=$(jq -r '.actions.acted - .actions.busy' "$OUT/run.json")
	thr=$(jq -r .threshold_cycles "$OUT/run.json")
	[ "$(wc -l <"$OUT/events.txt")" -eq "$started" ] ||
		{ echo "$(wc -l <"$OUT/events.txt") lines, $started commands started"; return 1; }
	n=0
	while IFS='|' read -r what rid cpu ns cyc cause events file; do
		n=$((n + 1))
		[ "$what" = threshold ] && [ "$rid" = "$id" ] &&
			{ [ "$cpu" = 0 ] || [ "$cpu" = 1 ]; } &&
			[ "$ns" -ge 20000 ] && [ "$cyc" -ge "$thr" ] &&
			[ -n "$cause" ] && [ "$events" -ge "$n" ] || {
			echo "line $n: $what|$rid|$cpu|$ns|$cyc|$cause|$events|$file"
			return 1
		}
		if [ "$snapshot" = 1 ] && [ ! -s "$file" ]; then
			echo "line $n: no snapshot file '$file'"
			return 1
		fi
	done <"$OUT/events.txt"
}

# One snapshot per event acted on, the first with the trace from before
# the run; tracing went on and each file holds what came since the last:
# every command's marker is in exactly one snapshot or in the trace after
# them.
snapshots_kept() {
	acted=$(jq -r .actions.acted "$OUT/run.json")
	files=$(ls "$OUT/snap" | wc -l)
	[ "$files" -eq "$acted" ] && jqt ".actions.snapshots == $acted" || {
		echo "$files files, $acted acted on; the CLI said:"
		grep -v noise-on-stdout "$OUT/run.err"
		return 1
	}
	id=$(jq -r .run_id "$OUT/run.json")
	grep -q tscprobe-test-before "$OUT/snap/tscprobe-$id-1.trace" ||
		{ echo "snapshot 1 lacks the marker written before the run"; return 1; }
	[ "$(cat "$TR/tracing_on")" = 1 ] || { echo "tracing is off"; return 1; }
	markers=$(cat "$OUT"/snap/*.trace "$TR/trace" | grep -c tscprobe-marker-)
	started=$(jq -r '.actions.acted - .actions.busy' "$OUT/run.json")
	[ "$markers" -eq "$started" ] ||
		{ echo "$markers markers in the trace, $started commands started"; return 1; }
}

end_ran() {
	id=$(jq -r .run_id "$OUT/run.json")
	events=$(jq -r .actions.events "$OUT/run.json")
	IFS='|' read -r what rid reason ns ev <"$OUT/end.txt"
	[ "$what" = end ] && [ "$rid" = "$id" ] && [ "$reason" = completed ] &&
		[ "$ns" -ge 20000 ] && [ "$ev" = "$events" ] || {
		echo "end.txt: $what|$rid|$reason|$ns|$ev (run $id, $events events)"
		return 1
	}
}

# stop among the actions: the module ends the run at the first gap, and
# the other actions run for it once.  The command holds none of the CLI's
# netlink sockets (they are close-on-exec).
stop_acts_once() {
	rm -f "$OUT/stop.txt"
	# shellcheck disable=SC2016
	tscprobe noise -q -j -c 0-1 -d 20s --irqs on --threshold 20us \
		--stop-at 20us --on-threshold stop \
		--on-threshold 'exec echo "$TSCPROBE_GAP_NS $(ls -l /proc/$$/fd | grep -c socket:)" >>'"$OUT"'/stop.txt' \
		>"$OUT/stop.json" 2>"$OUT/stop.err" ||
		{ echo "exit $?"; cat "$OUT/stop.err"; return 1; }
	jq -e '.stop_reason == "threshold" and .stop_at_ns == 20000 and
		.elapsed_ns < 20000000000 and .actions.acted == 1 and
		.actions.failed == 0' "$OUT/stop.json" >/dev/null ||
		{ jq -c '{stop_reason, stop_at_ns, elapsed_ns, actions}' "$OUT/stop.json"; return 1; }
	read -r ns sockets <"$OUT/stop.txt"
	[ "$(wc -l <"$OUT/stop.txt")" -eq 1 ] && [ "$ns" -ge 20000 ] &&
		[ "$sockets" -eq 0 ] ||
		{ echo "stop.txt (gap ns, sockets the command held):"; cat "$OUT/stop.txt"; return 1; }
}

# A command that fails, and one still running at the next event: counted,
# said on standard error, and the run's exit status stays 0.
failures_counted() {
	tscprobe noise -q -j -c 0-1 -d 3s --irqs on --threshold 20us \
		--stop-at 20us --on-threshold 'exec sleep 1.5; exit 3' \
		>"$OUT/fail.json" 2>"$OUT/fail.err" ||
		{ echo "exit $?"; cat "$OUT/fail.err"; return 1; }
	jq -e '.actions as $a | $a.acted >= 1 and
		$a.failed == $a.acted - $a.busy and
		$a.events == $a.acted + $a.limited' "$OUT/fail.json" >/dev/null ||
		{ jq -c .actions "$OUT/fail.json"; return 1; }
	grep -q "exited 3" "$OUT/fail.err" || { cat "$OUT/fail.err"; return 1; }
}

tap_fresh_module "$KO"
tap_check "bad actions: one line, exit 2, no run" bad_input
tap_check "acting run: exit 0, the report whole on standard output" acting_run
tap_check "acting run: the run went its whole duration" went_on
tap_check "acting run: acted on + limited = events = notified" counts_add_up
tap_check "acting run: each command saw its event" commands_saw_events
if [ "$snapshot" = 1 ]; then
	tap_check "acting run: a snapshot per event, tracing goes on" snapshots_kept
else
	echo "# no tracing snapshot on this kernel: its error was checked above"
fi
tap_check "acting run: --on-end ran once with the run's figures" end_ran
tap_check "--on-threshold stop: the run ends, the others act once" stop_acts_once
tap_check "failing and still-running commands are counted" failures_counted
tap_check "rmmod" rmmod tscprobe
tap_done
