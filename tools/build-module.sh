#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh - build tscprobe.ko for one kernel in a directory of its
# own, so that modules for several kernels can stand side by side (kmod/ is
# the default kernel's; Kbuild compiles ../core into the tree it builds).
#
# usage: build-module.sh [--check] KDIR OUT
#        build-module.sh --root KDIR
#   KDIR     the kernel build tree
#   OUT      the directory for the copy of kmod/, core/, include/, VERSION
#   --check  the gate: W=1 and sparse (C=2); any compiler or sparse warning
#            fails, and so does a build where sparse did not run. The log
#            is OUT/build.log.
#   --root   print the root KDIR is built in (see below), or nothing
# The last line of output is the module's path.
#
# A KDIR inside a root that selftests/kernels/fetch-newest.sh made (kernels
# built with another compiler than this machine's) is built there, with
# chroot: the copy goes into the root, the results come back to OUT.  An
# arm64 KDIR (fetch-arm64.sh) is cross-built.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The root of the chroot KDIR must be built in, if any.
chroot_of() {
	local dir=$1

	while [[ $dir != / && $dir != . ]]; do
		[[ -e $dir/.tscprobe-chroot ]] && { echo "$dir"; return; }
		dir=$(dirname "$dir")
	done
}

if [[ ${1:-} == --root ]]; then
	(($# == 2)) || { echo "usage: build-module.sh --root KDIR" >&2; exit 2; }
	chroot_of "$(realpath -m "$2")"
	exit 0
fi
check=0
if [[ ${1:-} == --check ]]; then
	check=1
	shift
fi
(($# == 2)) || { echo "usage: build-module.sh [--check] KDIR OUT" >&2; exit 2; }
kdir=$1 out=$2
[[ -d $kdir ]] || { echo "build-module: no kernel build tree at $kdir" >&2; exit 1; }

# Sources only: objects built in kmod/ for another kernel must not come
# along.  The probes' cache (kmod/.probes) stays: it is keyed by kernel.
copy_sources() {
	local dest=$1

	mkdir -p "$dest"
	rm -rf "$dest/core" "$dest/include"
	find "$dest/kmod" -mindepth 1 -maxdepth 1 ! -name .probes -exec rm -rf {} + 2>/dev/null || true
	(cd "$REPO" && find kmod core include \( -name '*.[ch]' -o -name '*.sh' -o -name Kbuild \
		-o -name Makefile \) ! -name '*.mod.c' ! -path kmod/probes.h -print0 |
		xargs -0 cp --parents -t "$dest" && cp VERSION "$dest/")
}

# A KDIR of another architecture (arm64's: fetch-arm64.sh) is cross-built
# with Debian's cross-compiler; its kbuild's host tools are this machine's.
cross_args() {
	grep -q '^#define CONFIG_ARM64 1' "$1/include/generated/autoconf.h" 2>/dev/null &&
		[[ $(uname -m) != aarch64 ]] &&
		echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
	return 0
}

target=all
((check)) && target=check
jobs=$(nproc 2>/dev/null || echo 1)
mkdir -p "$out/kmod"
rm -f "$out/kmod/tscprobe.ko"
kdir=$(realpath "$kdir")
root=$(chroot_of "$kdir")
set +e
if [[ -n $root ]]; then
	# Inside the root, one directory per OUT.
	inner=/var/cache/tscprobe/mod/$(realpath -m "$out" | sha256sum | cut -c 1-12)
	copy_sources "$root$inner"
	"$REPO/selftests/kernels/in-root.sh" "$root" make -C "$inner/kmod" \
		KDIR="${kdir#"$root"}" -j"$jobs" "$target" >"$out/build.log" 2>&1
	rc=$?
	((rc == 0)) && cp "$root$inner/kmod/tscprobe.ko" "$out/kmod/"
else
	copy_sources "$out"
	# shellcheck disable=SC2046 # the arguments split at their spaces
	make -C "$out/kmod" KDIR="$kdir" $(cross_args "$kdir") -j"$jobs" "$target" \
		>"$out/build.log" 2>&1
	rc=$?
fi
set -e
if ((rc != 0)); then
	tail -n 30 "$out/build.log" >&2
	echo "build-module: the build against $kdir failed (log: $out/build.log)" >&2
	exit 1
fi
if ((check)) && grep -E 'warning:|error:' "$out/build.log" >&2; then
	echo "build-module: compiler or sparse warnings against $kdir (above)" >&2
	exit 1
fi
# Kbuild turns C=2 off, with a note only, where its checker does not work.
if ((check)) && ! grep -q '^ *CHECK ' "$out/build.log"; then
	grep -E 'C=2 specified' "$out/build.log" >&2 || true
	echo "build-module: sparse did not run against $kdir" >&2
	exit 1
fi
echo "$out/kmod/tscprobe.ko"
