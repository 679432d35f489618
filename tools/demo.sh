#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the measurements "make run" shows, with the module loaded.
# Plain sh: it runs on a lab machine and inside the busybox guest alike.
# TSCPROBE names the CLI (default: tscprobe on PATH).
set -e
tp=${TSCPROBE:-tscprobe}

step() {
	echo
	echo "\$ tscprobe $*"
	"$tp" "$@"
}

step info
step noise -d 3s -q
step noise --irqs on -c 0 -d 1s -q
step skew -n 64 -q
step cache -c 0 -n 1e5 --nodes -q
step status
