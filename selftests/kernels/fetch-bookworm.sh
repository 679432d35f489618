#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-bookworm.sh - a clean Debian 12 (bookworm) root with the headers of
# the 6.1 cloud kernel the guest boots, and nothing of tscprobe, cached in
# build/bookworm/root: where selftests/host/test_packages.sh installs the
# packages as a lab machine would (in a throwaway overlay; the root itself
# stays clean).  From the mirror already in the apt sources
# (tools/apt-mirror.sh); about two minutes, once.
#
# usage: fetch-bookworm.sh          make it (root; a no-op once there)
#        fetch-bookworm.sh root     print its path
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEST=$REPO/build/bookworm
ROOT=$DEST/root
MARK=.tscprobe-chroot
LOG=$DEST/fetch.log

die() {
	echo "fetch-bookworm: $*" >&2
	exit 1
}

fetch() {
	local uri sec release tmp=$DEST/root.new

	[[ -e $ROOT/$MARK ]] && return 0
	((EUID == 0)) || die "making the bookworm root needs root (make deps)"
	command -v debootstrap >/dev/null || die "debootstrap is not installed (make deps)"
	release=$(basename "$("$REPO/tools/kernels.sh" kdir 6.1-cloud | sed 's|/build$||')")
	[[ $release == *-cloud-amd64 ]] ||
		die "no 6.1 cloud kernel on this machine (make deps)"
	uri=$("$REPO/tools/apt-mirror.sh") || exit 1
	sec=$("$REPO/tools/apt-mirror.sh" bookworm-security) || exit 1
	mkdir -p "$DEST"
	: >"$LOG"
	echo "fetch-bookworm: making a Debian 12 root with linux-headers-$release in $ROOT (about 2 minutes)"
	rm -rf "$tmp"
	debootstrap --variant=minbase bookworm "$tmp" "$uri" >>"$LOG" 2>&1 ||
		die "debootstrap failed (log: $LOG)"
	# The kernel's point release may be newer than bookworm's own.
	printf 'deb %s bookworm bookworm-updates main\ndeb %s bookworm-security main\n' \
		"$uri" "$sec" >"$tmp/etc/apt/sources.list"
	"$REPO/selftests/kernels/in-root.sh" "$tmp" sh -c "apt-get update -q &&
		apt-get install -y -q --no-install-recommends linux-headers-$release" \
		>>"$LOG" 2>&1 || die "installing linux-headers-$release in the root failed (log: $LOG)"
	touch "$tmp/$MARK"
	mv "$tmp" "$ROOT"
}

case ${1:-} in
"") fetch ;;
root) echo "$ROOT" ;;
*) die "usage: fetch-bookworm.sh [root]" ;;
esac
