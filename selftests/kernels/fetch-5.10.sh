#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-5.10.sh - Debian 11's 5.10 LTS cloud kernel, unpacked under
# build/kernels/5.10 (never installed): its headers, kbuild and image, the
# newest bullseye has.  Prints the build tree (KDIR) on its last line; a
# second call only prints it.  tools/kernels.sh names it 5.10-cloud.
#
# The packages come through apt with a private configuration (sources,
# lists and cache under build/kernels/5.10/apt): apt checks their
# signatures against debian-archive-keyring, which holds bullseye's keys,
# and the machine's own apt state is left alone.  The suite is taken from
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
mkdir -p "$APT/parts" "$APT/none" "$APT/lists/partial" "$APT/cache/archives/partial" "$DEST/root"
# No packages installed and no pinning, as far as this apt knows: the
# machine's own bookworm kernel must not answer for bullseye's.
: >"$APT/status"
: >"$APT/preferences"
printf 'Types: deb\nURIs: %s\nSuites: bullseye\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$uri" >"$APT/parts/bullseye.sources"
opts=(-q -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$APT/parts"
      -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache"
      -o "Dir::Etc::Preferences=$APT/preferences" -o "Dir::Etc::PreferencesParts=$APT/none"
      -o "Dir::State::status=$APT/status")
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
