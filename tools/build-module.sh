#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh - build tscprobe.ko for one kernel in a directory of its
# own, so that modules for several kernels can stand side by side (kmod/ is
# the default kernel's; Kbuild compiles ../core into the tree it builds).
#
# usage: build-module.sh [--check] KDIR OUT
#   KDIR     the kernel build tree
#   OUT      the directory for the copy of kmod/, core/, include/, VERSION
#   --check  the gate: W=1 and sparse (C=2); any compiler or sparse warning
#            fails. The log is OUT/build.log.
# The last line of output is the module's path.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check=0
if [[ ${1:-} == --check ]]; then
	check=1
	shift
fi
(($# == 2)) || { echo "usage: build-module.sh [--check] KDIR OUT" >&2; exit 2; }
kdir=$1 out=$2
[[ -d $kdir ]] || { echo "build-module: no kernel build tree at $kdir" >&2; exit 1; }

# Sources only: objects built in kmod/ for another kernel must not come along.
mkdir -p "$out"
rm -rf "$out/kmod" "$out/core" "$out/include"
(cd "$REPO" && find kmod core include \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) \
	-print0 | xargs -0 cp --parents -t "$out" && cp VERSION "$out/")

target=all
((check)) && target=check
set +e
make -C "$out/kmod" KDIR="$kdir" -j"$(nproc 2>/dev/null || echo 1)" "$target" >"$out/build.log" 2>&1
rc=$?
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
echo "$out/kmod/tscprobe.ko"
