#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-arm64.sh - what building and testing tscprobe for arm64 takes from
# Debian 12, unpacked under build/arm64/root (never installed): the cloud
# kernel's headers and image, the build machine's kbuild of the same
# version (its host tools run here), libmnl for the CLI, and busybox, jq
# and the C library for the guest.  Prints the build tree (KDIR) on its
# last line; a second call only prints it.  tools/kernels.sh names it
# arm64-cloud; the Makefile's ARCH=arm64 uses the root as the CLI's
# sysroot (cross-compiler: gcc-aarch64-linux-gnu, from "make deps").
#
# The packages come through apt with a state of its own under
# build/arm64/apt (private-apt.sh; architectures arm64 and amd64), from
# the mirror the machine already uses (tools/apt-mirror.sh).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEST=$REPO/build/arm64
APT=$DEST/apt
ROOT=$DEST/root
# The CLI's libraries, and the guest's userland (tests use jq).
PACKAGES=(libmnl0 libmnl-dev libc6 busybox-static jq libjq1 libonig5)

die() {
	echo "fetch-arm64: $*" >&2
	exit 1
}

if [[ -r $DEST/kdir ]]; then
	cat "$DEST/kdir"
	exit 0
fi
rm -rf "$DEST"
mkdir -p "$ROOT"
# shellcheck source=selftests/kernels/private-apt.sh
source "$REPO/selftests/kernels/private-apt.sh"
private_apt_init "$APT"
for suite in bookworm bookworm-updates bookworm-security; do
	uri=$("$REPO/tools/apt-mirror.sh" "$suite") || continue
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nArchitectures: arm64 amd64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' \
		"$uri" "$suite" >>"$APT/parts/bookworm.sources"
done
[[ -s $APT/parts/bookworm.sources ]] || die "no apt source for bookworm"
opts=("${APT_OPTS[@]}" -o "APT::Architecture=arm64" -o "APT::Architectures::=arm64"
      -o "APT::Architectures::=amd64")
apt-get "${opts[@]}" update >"$APT/update.log" 2>&1 ||
	die "apt-get update for arm64 failed (log: $APT/update.log)"
# The ABI the meta-package points at: linux-headers-6.1.0-N-cloud-arm64.
headers=$(apt-cache "${opts[@]}" depends linux-headers-cloud-arm64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-headers-6\.1\.[^ ]*-cloud-arm64\)$/\1/p' | head -n 1)
[[ -n $headers ]] || die "no 6.1 arm64 cloud headers in bookworm"
release=${headers#linux-headers-}
version=$(apt-cache "${opts[@]}" show "$headers" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
(cd "$APT/cache/archives" &&
	apt-get "${opts[@]}" download "$headers" "linux-image-$release" \
		"linux-headers-${release%-cloud-arm64}-common=$version" \
		"linux-kbuild-6.1:amd64=$version" "${PACKAGES[@]}" \
		>"$APT/download.log" 2>&1) ||
	die "downloading $headers and the rest failed (log: $APT/download.log)"
for deb in "$APT"/cache/archives/*.deb; do
	dpkg-deb -x "$deb" "$ROOT"
done
kdir=$ROOT/usr/src/linux-headers-$release
[[ -r $kdir/Makefile && -r $ROOT/boot/vmlinuz-$release &&
   -x $ROOT/usr/lib/linux-kbuild-6.1/scripts/basic/fixdep ]] ||
	die "the packages of $release did not unpack as expected"
sed -i "s#^include /usr/src/#include $ROOT/usr/src/#" "$kdir/Makefile"
echo "$kdir" >"$DEST/kdir"
echo "$kdir"
