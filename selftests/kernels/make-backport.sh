#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-backport.sh - a distribution kernel's build tree, for the tests: one
# whose version number says one thing and whose headers another, as RHEL's
# "5.14.0-..." kernels carry years of backports.  Made from Debian 12's 6.1
# cloud headers (tools/kernels.sh kdir 6.1-cloud), copied under
# build/kernels/backport, with
#   - the version number of RHEL 9: LINUX_VERSION_CODE is 5.14.0;
#   - 6.16's MSR accessor rename backported: rdmsrl_safe() is rdmsrq_safe().
# A module built on version tests fails against it (rdmsrl_safe() is gone)
# or takes the code for 5.14 (no missing-attribute report before 6.0);
# one built on the headers' own word loads into the 6.1 cloud kernel (same
# release, same ABI) and behaves as one built for 6.1.
#
# Prints the build tree (KDIR) on its last line; a second call only prints
# it.  tools/kernels.sh names it "backport".
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEST=$REPO/build/kernels/backport

die() {
	echo "make-backport: $*" >&2
	exit 1
}

if [[ -r $DEST/kdir ]]; then
	cat "$DEST/kdir"
	exit 0
fi
src=$(realpath "$("$REPO/tools/kernels.sh" kdir 6.1-cloud)") || exit 1
release=$(basename "$src")
release=${release#linux-headers-}
common=$(sed -n 's#^include \(/.*\)/Makefile$#\1#p' "$src/Makefile")
[[ -d $common ]] || die "$src/Makefile names no common tree"
rm -rf "$DEST"
mkdir -p "$DEST/usr/src"
kdir=$DEST/usr/src/$(basename "$src")
tree=$DEST/usr/src/$(basename "$common")
# copy FROM TO: links out of the tree (into /usr/lib's kbuild) made
# absolute, since the copy is not beside their targets.
copy() {
	local from=$1 to=$2 link target

	cp -a "$from" "$to"
	find "$to" -type l | while read -r link; do
		target=$(realpath -m "$from${link#"$to"}")
		[[ $target == "$src"/* || $target == "$common"/* ]] ||
			ln -sfn "$target" "$link"
	done
}

copy "$src" "$kdir"
copy "$common" "$tree"
sed -i "s#^include .*/Makefile\$#include $tree/Makefile#" "$kdir/Makefile"
cat >"$kdir/include/generated/uapi/linux/version.h" <<'EOF'
#define LINUX_VERSION_CODE 331264
#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_MAJOR 5
#define LINUX_VERSION_PATCHLEVEL 14
#define LINUX_VERSION_SUBLEVEL 0
EOF
grep -rlw rdmsrl_safe "$tree/arch/x86/include" | xargs sed -i -E 's/\<rdmsrl_safe\(/rdmsrq_safe(/g'
! grep -rqE '\<rdmsrl_safe\(' "$tree/arch/x86/include" || die "rdmsrl_safe() is still there"
grep -q 'rdmsrq_safe(' "$tree/arch/x86/include/asm/msr.h" || die "the rename found no rdmsrl_safe()"
echo "$kdir" >"$DEST/kdir"
echo "$kdir"
