#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install, with apt, only what tscprobe's build and tests need and
# this machine lacks.  Idempotent, and silent when everything is there.
set -euo pipefail

# The Debian cloud kernel and its headers (the module is built for and
# tested in it), QEMU for the VM tests, busybox and cpio for the guest's
# initramfs, libmnl for the CLI, the kernel source for kselftest headers
# and checkpatch, sparse, rt-tests for oslat (benchmarks), jq to parse the
# CLI's JSON inside the guest, python3-yaml to check the netlink spec, dkms
# and man-db to test the packaging, the Prometheus parser, PIL and Chromium
# to parse the reports back and render their SVGs.
PACKAGES=(
	build-essential
	linux-image-cloud-amd64
	linux-headers-cloud-amd64
	qemu-system-x86
	busybox-static
	cpio
	libmnl-dev
	linux-source-6.1
	sparse
	rt-tests
	jq
	python3-yaml
	python3-prometheus-client
	python3-pil
	chromium
	dkms
	man-db
	xz-utils
	kmod
)

missing=()
for pkg in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$pkg")
done
((${#missing[@]})) || exit 0

if ((EUID != 0)); then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run 'make deps' as root (it uses apt-get)" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Refresh the index only when an install needs it (a fresh machine).
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/tscprobe-apt.log 2>&1; then
	apt-get update -q >>/tmp/tscprobe-apt.log 2>&1
	apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/tscprobe-apt.log 2>&1 || {
		tail -n 20 /tmp/tscprobe-apt.log >&2
		echo "deps: apt-get install failed (log: /tmp/tscprobe-apt.log)" >&2
		exit 1
	}
fi
echo "deps: done"
