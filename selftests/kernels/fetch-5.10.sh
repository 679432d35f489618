#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-5.10.sh - Debian 11's 5.10 LTS cloud kernel, unpacked under
# build/kernels/5.10 (never installed): its headers, kbuild and image, the
# newest bullseye has.  Prints the build tree (KDIR) on its last line; a
# second call only prints it.  tools/kernels.sh names it 5.10-cloud.
#
# The packages come through apt with a state of its own under
# build/kernels/5.10/apt (private-apt.sh); debian-archive-keyring holds
# bullseye's keys.  The suite is taken from
# the mirror the machine already uses (tools/apt-mirror.sh).
#
# Two repairs make the unpacked headers a build tree: their Makefile
# includes the common part by its installed path, and they name gcc-10,
# which Debian 12 lacks; its gcc builds 5.10 modules (the gate checks the
# result with W=1 and sparse).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEST=$REPO/build/kernels/5.10
APT=$DEST/apt

die() {
	echo "fetch-5.10: $*" >&2
	exit 1
}

if [[ -r $DEST/kdir ]]; then
	cat "$DEST/kdir"
	exit 0
fi
uri=$("$REPO/tools/apt-mirror.sh") || exit 1
rm -rf "$DEST"
mkdir -p "$DEST/root"
# shellcheck source=selftests/kernels/private-apt.sh
source "$REPO/selftests/kernels/private-apt.sh"
private_apt_init "$APT"
printf 'Types: deb\nURIs: %s\nSuites: bullseye\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$uri" >"$APT/parts/bullseye.sources"
opts=("${APT_OPTS[@]}")
apt-get "${opts[@]}" update >"$APT/update.log" 2>&1 ||
	die "apt-get update of bullseye failed (log: $APT/update.log)"
# The ABI the meta-package points at: linux-headers-5.10.0-N-cloud-amd64.
headers=$(apt-cache "${opts[@]}" depends linux-headers-cloud-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-headers-5\.10\.[^ ]*-cloud-amd64\)$/\1/p' | head -n 1)
[[ -n $headers ]] || die "no 5.10 cloud headers in bullseye"
release=${headers#linux-headers-}
common=linux-headers-${release%-cloud-amd64}-common
(cd "$APT/cache/archives" &&
	apt-get "${opts[@]}" download "$headers" "$common" linux-kbuild-5.10 \
		"linux-image-$release" >"$APT/download.log" 2>&1) ||
	die "downloading $headers and its image failed (log: $APT/download.log)"
for deb in "$APT"/cache/archives/*.deb; do
	dpkg-deb -x "$deb" "$DEST/root"
done
kdir=$DEST/root/usr/src/linux-headers-$release
[[ -r $kdir/Makefile && -r $DEST/root/boot/vmlinuz-$release ]] ||
	die "the packages of $release did not unpack as expected"
sed -i "s#^include /usr/src/#include $DEST/root/usr/src/#" "$kdir/Makefile"
sed -i 's/gcc-10$/gcc/' "$kdir/.kernelvariables"
echo "$kdir" >"$DEST/kdir"
echo "$kdir"
