#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh - the kernels tscprobe is built for and tested on, by name.
#
# usage: kernels.sh list               the names, one per line
#        kernels.sh kdir NAME          the build tree (KDIR) of NAME
#        kernels.sh image [KDIR]       the bootable image that matches KDIR
#                                      (default: the default KDIR)
#        kernels.sh default            the default KDIR (Makefile)
#
# Names: 6.1-cloud, 6.1-rt, 6.12-cloud, 6.12-rt (Debian's kernels, installed
# by "make deps": /lib/modules/<release>/build and /boot/vmlinuz-<release>);
# newest-cloud and newest-rt (the newest line Debian ships, trixie-
# backports': headers and image in the trixie root "make deps" makes with
# fetch-newest.sh, built in with its gcc-14); debug (the project's debug
# guest kernel, built from that newest line's source in the same root by
# build-debug-kernel.sh on first use and cached under build/); and
# 5.10-cloud (Debian 11's 5.10 LTS cloud kernel, the oldest the module
# supports: fetched and unpacked, never installed, by fetch-5.10.sh on first
# use, cached under build/); backport (6.1-cloud's headers made to look
# like a distribution kernel's: another version number, a later API
# backported; make-backport.sh; it boots 6.1-cloud's image); arm64-cloud
# (Debian 12's arm64 cloud kernel, unpacked by fetch-arm64.sh, for "make
# ARCH=arm64": not in the list, which is the x86 matrix).  The scripts
# named are in selftests/kernels/.
# Within a line (6.1 cloud, say) the newest installed ABI is taken, so that
# a security update moves the tests along; a kernel of another line is never
# picked by accident.
#
# The default KDIR is the running kernel's build tree when it has one (a lab
# machine), else 6.1-cloud: Debian 12's own kernel, the one the guest boots
# where the running kernel cannot load modules.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NAMES=(6.1-cloud 6.1-rt 6.12-cloud 6.12-rt newest-cloud newest-rt debug 5.10-cloud backport)

die() {
	echo "kernels: $*" >&2
	exit 1
}

# The newest /lib/modules/<series>.<minor>-*-<flavour>-amd64 with a build
# tree: Debian's releases are 6.1.0-57-cloud-amd64, 6.12.117+deb12-rt-amd64.
debian_kdir() {
	local series=$1 flavour=$2 dir

	dir=$(find /lib/modules -mindepth 1 -maxdepth 1 \
		-regex "/lib/modules/${series//./\\.}\.[0-9][^/]*-$flavour-amd64" \
		-printf '%f\n' 2>/dev/null | sort -V | tail -n 1)
	[[ -n $dir && -d /lib/modules/$dir/build ]] ||
		die "no $series $flavour kernel headers in /lib/modules (run 'make deps')"
	echo "/lib/modules/$dir/build"
}

kdir_of() {
	case $1 in
	6.1-cloud | 6.1-rt | 6.12-cloud | 6.12-rt)
		debian_kdir "${1%-*}" "${1#*-}" ;;
	newest-cloud | newest-rt)
		"$REPO/selftests/kernels/fetch-newest.sh" kdir "${1#newest-}" ;;
	debug)
		"$REPO/selftests/kernels/build-debug-kernel.sh" | tail -n 1 ;;
	5.10-cloud)
		"$REPO/selftests/kernels/fetch-5.10.sh" | tail -n 1 ;;
	backport)
		"$REPO/selftests/kernels/make-backport.sh" | tail -n 1 ;;
	arm64-cloud)
		"$REPO/selftests/kernels/fetch-arm64.sh" | tail -n 1 ;;
	*)
		die "unknown kernel '$1' (one of: ${NAMES[*]} arm64-cloud)" ;;
	esac
}

# The image to boot for a build tree: a tree that was built here has its
# own bzImage; Debian's headers name their release in utsrelease.h, and
# the image is in /boot, or in the boot/ of the root they were unpacked or
# installed in (ROOT/usr/src/linux-headers-RELEASE: 5.10-cloud, newest-*).
image_of() {
	local kdir=$1 release unpacked

	if [[ -r $kdir/arch/x86/boot/bzImage ]]; then
		echo "$kdir/arch/x86/boot/bzImage"
		return
	fi
	release=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		"$kdir/include/generated/utsrelease.h" 2>/dev/null)
	[[ -n $release ]] || die "$kdir is not a kernel build tree"
	unpacked=${kdir%/usr/src/*}/boot/vmlinuz-$release
	if [[ $kdir == */usr/src/* && -r $unpacked ]]; then
		echo "$unpacked"
		return
	fi
	[[ -r /boot/vmlinuz-$release ]] ||
		die "no /boot/vmlinuz-$release for the headers in $kdir (run 'make deps')"
	echo "/boot/vmlinuz-$release"
}

default_kdir() {
	local running=/lib/modules/$(uname -r)/build

	if [[ -d $running ]]; then
		echo "$running"
	else
		kdir_of 6.1-cloud
	fi
}

case ${1:-} in
list) printf '%s\n' "${NAMES[@]}" ;;
kdir) (($# == 2)) || die "usage: kernels.sh kdir NAME"; kdir_of "$2" ;;
image) (($# <= 2)) || die "usage: kernels.sh image [KDIR]"; image_of "${2:-$(default_kdir)}" ;;
default) default_kdir ;;
*) die "usage: kernels.sh list | kdir NAME | image [KDIR] | default" ;;
esac
