#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fleets: the systemd service and timer and /etc/default/tscprobe as "make
# install" puts them under DESTDIR (disabled, accepted by systemd-analyze
# verify without a word), the service's own command run on this machine
# with the userspace engine into a temporary collector directory, its file
# parsed by prometheus_client (run labels, families, types, one series per
# CPU), and the failures: a bad setting, a failing tscprobe, a run stopped
# with SIGTERM and one killed with SIGKILL never leave a half-written or
# changed file; then "make uninstall".
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir DEST
UNITS=$DEST/lib/systemd/system
OUT=$DEST/textfiles
mkdir -p "$OUT"
export REPO DEST UNITS OUT

# The service's command line (ExecStart), as installed under DEST.
exec_start() {
	sed -n 's/^ExecStart=//p' "$UNITS/tscprobe-textfile.service"
}

# run_service [VAR=VALUE...]: the service's command with the installed
# /etc/default/tscprobe, as systemd would run it, but into $OUT with the
# userspace engine on CPUs 0-1 for 300 ms and the CLI of the build tree;
# the arguments override any of these.
run_service() {
	env -i PATH="$PATH" bash -c 'set -a; source "$1"; shift; exec env "$@"' _ \
		"$DEST/etc/default/tscprobe" TSCPROBE_TEXTFILE_DIR="$OUT" \
		TSCPROBE_ARGS=--user TSCPROBE_DURATION=300ms TSCPROBE_CPUS=0-1 \
		TSCPROBE_CLI="$REPO/build/tscprobe" "$@" "$DEST$(exec_start)"
}

# Only FILES (names) in $OUT: no temporary file left.
only_in_out() {
	local got
	got=$(cd "$OUT" && ls -A | sort | tr '\n' ' ')
	[[ $got == "$* " ]] || { echo "in $OUT: '$got', want '$* '"; return 1; }
}

# verify UNIT...: systemd-analyze verify, silent and successful.  The units
# name the installed paths of their commands, here under DEST: copies that
# point there are checked (tscprobe itself is "make install"'s, not
# install-fleet's: the build's stands in); the man page is found in the
# source tree.
verify() {
	local dir=$DEST/verify u out

	mkdir -p "$dir" "$DEST/man/man8"
	ln -sf "$REPO/Documentation/tscprobe.8" "$DEST/man/man8/"
	[[ -e $DEST/usr/sbin/tscprobe ]] || ln -s "$REPO/build/tscprobe" "$DEST/usr/sbin/tscprobe"
	for u in "$@"; do
		sed "s|^\(Exec[A-Za-z]*=\)/|\1$DEST/|" "$UNITS/$u" >"$dir/$u"
	done
	out=$(cd "$dir" && MANPATH=$DEST/man systemd-analyze verify "$@" 2>&1) ||
		{ echo "$out"; return 1; }
	[[ -z $out ]] || { echo "$out"; return 1; }
}

# interrupted SIGNAL: a 5 s run, its process group sent SIGNAL once
# tscprobe runs (the temporary file made), as systemd stops a unit; it must
# fail and leave the old file alone.
interrupted() {
	local sig=$1 pid status before
	before=$(sha256sum <"$OUT/tscprobe-noise.prom")
	setsid bash -c 'source /dev/stdin' <<<"$(declare -f run_service exec_start); run_service TSCPROBE_DURATION=5s" &
	pid=$!
	tap_wait_for 10 pgrep -s "$pid" -x tscprobe >/dev/null
	kill "-$sig" -- "-$pid"
	wait "$pid"
	status=$?
	((status != 0)) || { echo "exit 0 after SIG$sig"; return 1; }
	[[ $(sha256sum <"$OUT/tscprobe-noise.prom") == "$before" ]] ||
		{ echo "the file changed"; return 1; }
}
export -f exec_start run_service only_in_out interrupted

tap_check "make install-fleet DESTDIR PREFIX=/usr" \
	make -s -C "$REPO" install-fleet DESTDIR="$DEST" PREFIX=/usr
tap_check "units, command and settings installed" bash -c \
	"test -x '$DEST/usr/sbin/tscprobe-textfile' && test -s '$UNITS/tscprobe-textfile.service' &&
	 test -s '$UNITS/tscprobe-textfile.timer' && test -s '$DEST/etc/default/tscprobe'"
tap_check "the service runs the installed command" \
	bash -c "[ \"\$(exec_start)\" = /usr/sbin/tscprobe-textfile ]"
tap_check "after it, even killed, 'tscprobe restore' puts back idle states left off" \
	grep -qx "ExecStopPost=/usr/sbin/tscprobe restore" "$UNITS/tscprobe-textfile.service"
tap_check "the timer is disabled: nothing in *.wants" \
	bash -c "! find '$DEST' -path '*.wants*' | grep -q ."
tap_check "the timer can be enabled: WantedBy=timers.target" \
	grep -qx "WantedBy=timers.target" "$UNITS/tscprobe-textfile.timer"
tap_check "systemd-analyze verify: silent" verify tscprobe-textfile.service tscprobe-textfile.timer
tap_check "the settings name the collector's directory" \
	grep -qx "TSCPROBE_TEXTFILE_DIR=/var/lib/prometheus/node-exporter" "$DEST/etc/default/tscprobe"

tap_check "the service's command: noise" run_service
tap_check "noise: prometheus_client parses it, labels, families, figures" \
	"$REPO/selftests/host/check_textfile.py" "$OUT/tscprobe-noise.prom" noise user 0 1
tap_check "noise: the format's rules" "$REPO/selftests/host/check_format.py" prom "$OUT/tscprobe-noise.prom"
tap_check "no temporary file left" only_in_out tscprobe-noise.prom
tap_check "the service's command: skew" run_service TSCPROBE_KIND=skew "TSCPROBE_ARGS=--user -n 32"
tap_check "skew: parses, one series per ordered pair" \
	"$REPO/selftests/host/check_textfile.py" "$OUT/tscprobe-skew.prom" skew user 0 1
tap_check "the service's command: cache" run_service TSCPROBE_KIND=cache "TSCPROBE_ARGS=--user -n 20000"
tap_check "cache: parses, one series per CPU" \
	"$REPO/selftests/host/check_textfile.py" "$OUT/tscprobe-cache.prom" cache user 0 1
tap_check "skew and cache: the format's rules" bash -c \
	"'$REPO/selftests/host/check_format.py' prom '$OUT/tscprobe-skew.prom' &&
	 '$REPO/selftests/host/check_format.py' prom '$OUT/tscprobe-cache.prom'"

cp "$OUT/tscprobe-noise.prom" "$DEST/noise.before"
tap_check "over a limit: the file replaced all the same, exit 7" bash -c \
	"run_service 'TSCPROBE_ARGS=--user --fail-above 1ns' 2>/dev/null; rc=\$?;
	 [ \$rc -eq 7 ] && ! cmp -s '$DEST/noise.before' '$OUT/tscprobe-noise.prom' &&
	 '$REPO/selftests/host/check_textfile.py' '$OUT/tscprobe-noise.prom' noise user 0 1 &&
	 grep -qx 'tscprobe_verdict_pass 0' '$OUT/tscprobe-noise.prom' &&
	 only_in_out tscprobe-cache.prom tscprobe-noise.prom tscprobe-skew.prom"
cp "$OUT/tscprobe-noise.prom" "$DEST/noise.before"
tap_check "a bad kind: exit 2" bash -c "run_service TSCPROBE_KIND=bogus 2>/dev/null; [ \$? -eq 2 ]"
tap_check "tscprobe refusing its options: exit 2" \
	bash -c "run_service TSCPROBE_ARGS='--user --bogus' 2>/dev/null; [ \$? -eq 2 ]"
tap_check "no module (no --user): exit 3" \
	bash -c "run_service TSCPROBE_ARGS= 2>/dev/null; [ \$? -eq 3 ]"
tap_check "a run stopped with SIGTERM fails" interrupted TERM
tap_check "a run killed with SIGKILL fails" interrupted KILL
tap_check "after the failures the file is the same" cmp "$DEST/noise.before" "$OUT/tscprobe-noise.prom"
tap_check "SIGTERM and the failures leave no temporary file; SIGKILL one" bash -c \
	"[ \$(ls -A '$OUT' | grep -c '^\.tscprobe-noise\.prom\.') -eq 1 ]"
tap_check "the next run removes it when a day old" bash -c \
	"touch -d '2 days ago' '$OUT'/.tscprobe-noise.prom.* && run_service && only_in_out tscprobe-cache.prom tscprobe-noise.prom tscprobe-skew.prom"
tap_check "an unwritable directory: exit 1" \
	bash -c "run_service TSCPROBE_TEXTFILE_DIR=/nonexistent 2>/dev/null; [ \$? -eq 1 ]"

echo "# changed" >>"$DEST/etc/default/tscprobe"
tap_check "make uninstall DESTDIR PREFIX=/usr" make -s -C "$REPO" uninstall DESTDIR="$DEST" PREFIX=/usr
tap_check "uninstall removes the units and the command" bash -c \
	"! ls '$UNITS'/tscprobe-textfile.* '$DEST/usr/sbin/tscprobe-textfile' 2>/dev/null | grep -q ."
tap_check "uninstall keeps changed settings" test -s "$DEST/etc/default/tscprobe"
tap_done
