#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A load beside a measurement (--load, --load-cpus), with the userspace
# engine measuring CPU 0 and the load on CPU 1: each kind runs there for
# the whole run and no longer, does work that adds up, is a busy thread
# bound to CPU 1 while the run lasts, and is named in the report; without
# --load nothing runs and the report says null; bad input gets one line
# and exit 2, and nothing starts.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir OUT

# loaded KIND CMD...: CMD (noise or cache on CPU 0, JSON) with KIND on
# CPU 1; its report in $OUT/KIND.json.
loaded() {
	local kind=$1
	shift
	"$CLI" "$@" -c 0 -q -j --dma-latency off --load "$kind" --load-cpus 1 >"$OUT/$kind.json"
}

# The load's figures add up, and it lasted the run and not a second more.
# KIND BYTES: BYTES "some" (more than one chunk's) or 0.
load_adds_up() {
	local kind=$1 bytes=$2
	jq -e --arg k "$kind" --argjson some "$([[ $bytes == some ]] && echo true || echo false)" '
		.load as $l | $l.kind == $k and $l.cpus == [1] and $l.chunks > 0 and
		$l.misplaced_chunks == 0 and
		(if $some then $l.bytes >= $l.chunks * 1048576 else $l.bytes == 0 end) and
		$l.elapsed_ns >= .elapsed_ns and $l.elapsed_ns < .elapsed_ns + 2000000000' \
		"$OUT/$kind.json" >/dev/null || { jq -c '{elapsed_ns, load}' "$OUT/$kind.json"; return 1; }
}

# While a run goes on, one of its threads is bound to CPU 1 alone and busy
# there: runnable at each of ten looks over a second (a thread that waits
# sleeps between its turns) and gaining CPU time.  Not a share of the CPU,
# which a host busy with guests, or a nice level, takes from it.  The run
# would last a minute: Ctrl-C ends it once the looks are done, however
# long a starved host made them.
busy_on_cpu1_during_run() {
	local pid task tid i best=0 gained rc
	local -A before=() runnable=()

	"$CLI" noise --user -c 0 -d 60s -q --dma-latency off --load cpu --load-cpus 1 >/dev/null &
	pid=$!
	# Caught once the measurement begins, after the load has started.
	tap_wait_for 20 tap_catches "$pid" 2 || { echo "Ctrl-C never caught"; kill -9 "$pid"; return 1; }
	for task in /proc/"$pid"/task/*; do
		[[ $(taskset -pc "${task##*/}" 2>/dev/null) == *": 1" ]] || continue
		before[${task##*/}]=$(awk '{ print $14 + $15 }' "$task/stat")
		runnable[${task##*/}]=0
	done
	for ((i = 0; i < 10; i++)); do
		for tid in "${!before[@]}"; do
			[[ $(awk '{ print $3 }' "/proc/$pid/task/$tid/stat") == R ]] &&
				runnable[$tid]=$((runnable[$tid] + 1))
		done
		sleep 0.1
	done
	for tid in "${!before[@]}"; do
		gained=$(($(awk '{ print $14 + $15 }' "/proc/$pid/task/$tid/stat") - before[$tid]))
		((runnable[$tid] == 10 && gained > best)) && best=$gained
	done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	((rc == 130)) || { echo "exit $rc after Ctrl-C"; return 1; }
	((best > 0)) || {
		echo "threads on CPU 1 alone (tid: runnable of 10):" \
			"$(for tid in "${!runnable[@]}"; do printf '%s: %s ' "$tid" "${runnable[$tid]}"; done)"
		return 1
	}
}

# The report whole, then searched: grep -q leaving early could end the CLI
# by SIGPIPE, which pipefail would count against it.
text_names_it() {
	local out rc

	out=$("$CLI" noise --user -c 0 -d 300ms -q --dma-latency off --load memmove \
		--load-cpus 1 2>&1)
	rc=$?
	if ((rc != 0)) || ! grep -qE '^load: memmove on CPU 1 for [0-9.]+ s, [0-9.]+ GB/s$' <<<"$out"; then
		echo "exit $rc"
		tail -n 12 <<<"$out"
		return 1
	fi
}

no_load_is_null() {
	local text

	"$CLI" noise --user -c 0 -d 200ms -q -j >"$OUT/none.json" &&
		jq -e '.load == null' "$OUT/none.json" >/dev/null || return 1
	text=$("$CLI" noise --user -c 0 -d 200ms -q) || return 1
	! grep -q '^load:' <<<"$text"
}

# Ctrl-C: exit 130, and the report still says what the load did.
interrupted_run_reports_it() {
	local rc

	"$CLI" noise --user -c 0 -d 10s -q -j --dma-latency off --load stream --load-cpus 1 \
		>"$OUT/int.json" &
	tap_ctrl_c $!
	rc=$?
	if ((rc != 130)) || ! jq -e '.load.kind == "stream" and .load.bytes > 0' "$OUT/int.json" >/dev/null; then
		echo "exit $rc"
		return 1
	fi
}

# refused ARGS...: one line, exit 2.
refused() {
	local out rc

	out=$("$CLI" "$@" 2>&1)
	rc=$?
	if ((rc != 2)) || [[ $(wc -l <<<"$out") != 1 ]]; then
		echo "$*: exit $rc: $out"
		return 1
	fi
}

tap_check "noise under memmove on CPU 1" loaded memmove noise --user -d 1s
tap_check "memmove: moved what it says, for the whole run, on CPU 1" load_adds_up memmove some
tap_check "noise under stream on CPU 1" loaded stream noise --user -d 1s
tap_check "stream: its triads add up, for the whole run" load_adds_up stream some
tap_check "cache under cpu on CPU 1" loaded cpu cache --user -n 1e5
tap_check "cpu: chunks, no memory traffic, for the whole run" load_adds_up cpu 0
tap_check "during the run a thread of the CLI is busy on CPU 1" busy_on_cpu1_during_run
tap_check "text: 'load: memmove on CPU 1 for ... GB/s'" text_names_it
tap_check "no --load: nothing ran, JSON null, no text" no_load_is_null
tap_check "Ctrl-C: exit 130, the load in the report" interrupted_run_reports_it
tap_check "a load CPU that is measured: exit 2" refused noise --user -c 0-1 -d 1s --load cpu --load-cpus 1
tap_check "every CPU measured (no -c) and a load: exit 2" refused noise --user -d 1s --load cpu --load-cpus 1
tap_check "--load without --load-cpus: exit 2" refused noise --user -c 0 --load cpu
tap_check "--load-cpus without --load: exit 2" refused cache --user -c 0 --load-cpus 1
tap_check "an unknown load: exit 2" refused noise --user -c 0 --load disk --load-cpus 1
tap_check "a load CPU not online: exit 2" refused noise --user -c 0 --load cpu --load-cpus 4000
tap_check "skew takes no load: exit 2" refused skew --user --load cpu --load-cpus 1
tap_check "--compare runs no load: exit 2" refused noise --compare -c 0 --load cpu --load-cpus 1
tap_done
