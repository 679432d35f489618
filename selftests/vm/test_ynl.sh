#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_ynl.sh - the kernel's generic netlink client, ynl (cli.py, from
# linux-source-6.12), against the live module, driven by nothing but
# Documentation/netlink/specs/tscprobe.yaml: GET_INFO; START of a noise
# run with its attributes; GET_STATUS during it; a second START refused;
# STOP with a subscription to the "events" group, which receives
# RUN_FINISHED; the GET_RESULT dump; a bad START whose extended ack names
# the attribute; then Documentation/examples/ynl_noise.py, which does a
# whole run through ynl's library, with its per-CPU figures checked.
#
# Runs as root in the guest (busybox sh).  selftests/vm/run.sh puts
# python3 (selftests/qemu/stage-python.sh) and a small kernel-like tree at $YNL:
# tools/net/ynl, Documentation/netlink/{genetlink-legacy.yaml,specs/},
# Documentation/examples.  Prints TAP and the kselftest totals line.
. /selftests/lib.sh
YNL=${TP_YNL_TREE:-/usr/share/tscprobe/ynl}
SPEC=$YNL/Documentation/netlink/specs/tscprobe.yaml

# ynl ARGS...: cli.py with the spec, JSON out.  Without checking the spec
# against the schema each time (--list-ops below does, once): that takes a
# few seconds of an emulated CPU.
ynl() {
	python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" --no-schema --output-json "$@"
}

# ynl_to FILE ARGS...: ynl, its output in FILE (shown on failure).
ynl_to() {
	f=$1
	shift
	ynl "$@" >"$f" 2>&1
	s=$?
	cat "$f"
	return $s
}

# jqt FILE FILTER: FILTER (a jq boolean) holds on FILE.
jqt() {
	jq -e "$2" "$1" >/dev/null || { echo "jq '$2' fails on:"; head -c 2000 "$1"; echo; return 1; }
}

# subscribed PID: cli.py PID has subscribed: it sleeps in nanosleep (its
# --sleep), which it calls only after subscribing; /proc/PID/wchan names
# the kernel function a sleeping task waits in.
subscribed() {
	i=0
	while [ $i -lt 1200 ]; do
		grep -q nanosleep "/proc/$1/wchan" 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || { echo "the listener exited:"; cat "$OUT/ntf"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	echo "the listener did not subscribe within 120 s"
	return 1
}

# wait_exit PID SECONDS: PID has ended within SECONDS.
wait_exit() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		[ $i -ge $(($2 * 10)) ] && { echo "still running after $2 s"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# python_runs: the interpreter and the modules ynl needs, with the time.
python_runs() {
	t0=$(cut -d' ' -f1 /proc/uptime)
	python3 -c 'import argparse, json, yaml, jsonschema, socket, struct' || return 1
	echo "# python3 with yaml and jsonschema started in $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime) s" >&3
}

# example_figures FILE: one row per CPU 0 and 1, samples > 0 and
# 0 < p99.99 <= max, in cycles and in ns.
example_figures() {
	cat "$1"
	awk '$1 ~ /^[0-9]+$/ {
		rows++; cpus = cpus " " $1
		if ($2 <= 0 || $3 <= 0 || $3 > $4 || $5 > $6) { print "implausible: " $0; bad = 1 }
	}
	END { if (rows != 2 || cpus != " 0 1") { print "rows for CPUs" cpus; bad = 1 }; exit bad }' "$1"
}

tap_check "python3 runs with the modules ynl needs" python_runs 3>&1
tap_fresh_module "$KO"
tap_check "cli.py --list-ops: every operation of the spec" sh -c \
	"python3 '$YNL/tools/net/ynl/cli.py' --spec '$SPEC' --list-ops > '$OUT/ops' &&
	 for op in get-info start stop get-status get-result reset; do grep -q \"^\$op \" '$OUT/ops' || exit 1; done"

tap_check "--do get-info" ynl_to "$OUT/info" --do get-info
tap_check "get-info: version, TSC rate, CPUs, features, idle" jqt "$OUT/info" \
	'(.version | length > 0) and .["tsc-khz"] > 0 and .["nr-cpu-ids"] >= 2
	 and (.["cpus-online"] | startswith("0f")) and .state == "idle"
	 and (.features | type == "array")'

# Windows of 1 ms every 100 ms: the run lasts until STOP while its CPUs
# stay free enough for the emulated guest to start python between them;
# a threshold no gap reaches: no EVENT notifications to fill the
# listener's socket.
tap_check "--do start: noise on CPUs 0-1, threshold 500 ms, 1 ms windows" ynl_to "$OUT/start" --do start \
	--json '{"kind": "noise", "cpus": "03", "duration-ns": 600000000000, "threshold-ns": 500000000,
		 "irqs": "off", "width-ns": 1000000, "gap-ns": 100000000, "clock": "rdtscp"}'
tap_check "start's reply: run id and the parameters" jqt "$OUT/start" \
	'.["run-id"] > 0 and .kind == "noise" and .state == "running"
	 and .["duration-ns"] == 600000000000 and .["threshold-ns"] == 500000000
	 and .["width-ns"] == 1000000 and .["gap-ns"] == 100000000
	 and .irqs == "off" and .clock == "rdtscp" and (.cpus | startswith("03"))'
run_id=$(jq '.["run-id"]' "$OUT/start" 2>/dev/null)

tap_check "--do get-status" ynl_to "$OUT/status" --do get-status
tap_check "get-status: the run, running" jqt "$OUT/status" \
	".[\"run-id\"] == $run_id and .state == \"running\" and .kind == \"noise\"
	 and .cpu == null"
tap_check "--dump get-status" ynl_to "$OUT/status-cpus" --dump get-status
tap_check "get-status's dump: the run, then both CPUs" jqt "$OUT/status-cpus" \
	".[0][\"run-id\"] == $run_id and .[0].state == \"running\"
	 and ([.[1:][] | .cpu[].id] | sort == [0, 1])"
tap_check "--do start during the run: refused (EBUSY)" sh -c \
	"! python3 '$YNL/tools/net/ynl/cli.py' --spec '$SPEC' --no-schema --do start --json '{\"kind\": \"noise\", \"cpus\": \"01\", \"duration-ns\": 1000000}' > '$OUT/busy' 2>&1 &&
	 cat '$OUT/busy' && grep -qi 'busy' '$OUT/busy'"

# A listener in a cli.py of its own: 6.12's cli.py fails when a
# notification arrives before the answer to its own --do (AttributeError
# in YnlFamily._ops).  It subscribes, sleeps 60 s (time for the STOP's
# cli.py to start in a busy emulated guest), then prints what it got.
# python3 itself in the background, not the ynl function: $! must be its
# PID, not that of a subshell waiting for it.
python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" --no-schema --output-json \
	--subscribe events --sleep 60 >"$OUT/ntf" 2>&1 &
listener=$!
tap_check "--subscribe events: subscribed" subscribed $listener
tap_check "--do stop" ynl_to "$OUT/stop" --do stop
tap_check "--subscribe events: the listener ends" wait_exit $listener 120
tap_check "RUN_FINISHED received: the run, stopped on request" jqt "$OUT/ntf" \
	"[.[] | select(.name == \"run-finished\") | .msg
	  | select(.[\"run-id\"] == $run_id and .kind == \"noise\" and .state == \"stopped\"
		   and .[\"stop-reason\"] == \"requested\")] | length == 1"
tap_check "--do get-status after it: stopped" sh -c \
	"python3 '$YNL/tools/net/ynl/cli.py' --spec '$SPEC' --no-schema --output-json --do get-status > '$OUT/status2' 2>&1 &&
	 jq -e '.state == \"stopped\" and .[\"stop-reason\"] == \"requested\"' '$OUT/status2'"

tap_check "--dump get-result" sh -c \
	"python3 '$YNL/tools/net/ynl/cli.py' --spec '$SPEC' --no-schema --output-json --dump get-result --json '{\"run-id\": $run_id}' > '$OUT/result' 2>&1;
	 s=\$?; head -c 1500 '$OUT/result'; exit \$s"
tap_check "get-result: the run, then the gap series of CPUs 0 and 1" jqt "$OUT/result" \
	".[0][\"run-id\"] == $run_id and .[0].state == \"stopped\"
	 and ([.[].cpu[]?.id] | unique == [0, 1])
	 and ([.[].cpu[]?.series[]? | select(.id == \"gap\" and .count > 0)] | length >= 2)
	 and ([.[].cpu[]?.series[]? | select(.count) | .minimum <= .maximum] | all)"

tap_check "a bad START: refused, the extended ack names duration-ns" sh -c \
	"! python3 '$YNL/tools/net/ynl/cli.py' --spec '$SPEC' --no-schema --do start --json '{\"kind\": \"noise\", \"duration-ns\": 5}' > '$OUT/bad' 2>&1 &&
	 cat '$OUT/bad' && grep -q 'duration-ns' '$OUT/bad'"

tap_check "Documentation/examples/ynl_noise.py: a run through ynl's library" sh -c \
	"python3 '$YNL/Documentation/examples/ynl_noise.py' --ynl '$YNL/tools/net/ynl' -c 0-1 -d 1 > '$OUT/example' 2>&1; s=\$?; cat '$OUT/example'; exit \$s"
tap_check "the example's figures: a row per CPU, 0 < p99.99 <= max" example_figures "$OUT/example"
tap_check "the example's run completed" grep -q '^run [0-9]*: .*done (completed)' "$OUT/example"
sed 's/^/# /' "$OUT/example"

tap_check "rmmod" rmmod tscprobe
tap_done
