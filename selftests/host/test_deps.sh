#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What "make run" installs (tools/deps.sh --for run): where the running
# kernel loads modules, its headers, a compiler, libmnl and kmod and
# nothing of the test matrix; elsewhere also the cloud kernel and QEMU the
# demo boots, all of them part of what "make test" installs.  And that
# "make run" asks for that set, not for "make deps".
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir W
DEPS=$REPO/tools/deps.sh
# Only in the test matrix: kernels and sources the demo never uses, the
# trixie root's maker, the report renderers, the gates' tools.
MATRIX_ONLY='^(linux-image-rt-amd64|linux-headers-rt-amd64|linux-image-6\.12-.*|linux-headers-6\.12-.*|linux-source-.*|debootstrap|chromium|sparse|rt-tests|python3-.*|dkms|debhelper|dh-dkms|lintian|rpm|man-db|jq)$'

: >"$W/modules"
TSCPROBE_PROC_MODULES=$W/modules "$DEPS" --for run --list >"$W/here"
TSCPROBE_PROC_MODULES=$W/none "$DEPS" --for run --list >"$W/vm"
"$DEPS" --list >"$W/test"

# has FILE PKG...: every PKG is a line of FILE.
has() {
	local f=$1 p
	shift
	for p; do
		grep -qx -- "$p" "$f" || { echo "$f lacks $p"; return 1; }
	done
}

# only_run FILE: no line of FILE is a package of the matrix alone.
only_run() {
	! grep -E "$MATRIX_ONLY" "$1"
}

modules_here() {
	has "$W/here" build-essential libmnl-dev kmod "linux-headers-$(uname -r)" &&
		! grep -E '^(qemu-system-x86|busybox-static|cpio|linux-image-)' "$W/here" &&
		only_run "$W/here"
}

modules_in_vm() {
	has "$W/vm" build-essential libmnl-dev kmod linux-image-cloud-amd64 \
		linux-headers-cloud-amd64 qemu-system-x86 busybox-static cpio &&
		! grep -x "linux-headers-$(uname -r)" "$W/vm" &&
		only_run "$W/vm"
}

# Each package of the VM's set is one "make test" installs too, and the
# matrix is far larger.
vm_set_within_test() {
	local p

	while read -r p; do
		has "$W/test" "$p" || return 1
	done <"$W/vm"
	(($(wc -l <"$W/test") > 2 * $(wc -l <"$W/vm")))
}

# The recipe of "make run": deps.sh --for run, and no "make deps".
make_run_asks_for_run() {
	local recipe

	recipe=$(make -C "$REPO" -n -s --no-print-directory run 2>&1 | head -n 3)
	if ! grep -q 'tools/deps.sh --for run' <<<"$recipe" ||
		grep -qx 'tools/deps.sh' <<<"$recipe"; then
		echo "$recipe"
		return 1
	fi
}

bad_choice() {
	local out rc

	out=$("$DEPS" --for everything 2>&1)
	rc=$?
	if ((rc != 2)) || [[ $(wc -l <<<"$out") != 1 ]] || ! grep -q -- '--for' <<<"$out"; then
		echo "exit $rc: $out"
		return 1
	fi
	out=$("$DEPS" --bogus 2>&1)
	rc=$?
	if ((rc != 2)) || ! grep -q usage <<<"$out"; then
		echo "exit $rc: $out"
		return 1
	fi
}

tap_check "make run where modules load: headers, compiler, libmnl, kmod" modules_here
tap_check "make run in the VM: also the cloud kernel and QEMU's makings" modules_in_vm
tap_check "make run's set is part of make test's" vm_set_within_test
tap_check "make run installs its set, not make deps'" make_run_asks_for_run
tap_check "a bad --for: one line, exit 2" bad_choice
tap_done
