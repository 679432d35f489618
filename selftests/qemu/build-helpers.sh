#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-helpers.sh [DIR] - build the guest helpers vm-exit, vm-runas and vm-pace.
#
# DIR defaults to $VM_BUILD_DIR, else build/vm in the repository. A helper
# is rebuilt only when it is missing or older than its source. The guest has
# no libc of its own, so they are linked statically.  VM_CC is the compiler
# (default gcc; aarch64-linux-gnu-gcc for an arm64 guest).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
HELPERS=(vm-exit vm-runas vm-pace)
CFLAGS=(-std=c11 -static -O2 -Wall -Wextra -Werror)
CC=${VM_CC:-gcc}

die() {
	echo "build-helpers: $*" >&2
	exit 1
}

# Compile to a temporary name and rename: parallel runs never see half a file.
build_one() {
	local src=$1 bin=$2 tmp

	[[ -x $bin && $bin -nt $src ]] && return 0
	command -v "$CC" >/dev/null || die "$CC not found (needed to build ${bin##*/})"
	tmp=$(mktemp "$bin.XXXXXX")
	if ! "$CC" "${CFLAGS[@]}" -o "$tmp" "$src"; then
		rm -f "$tmp"
		die "cannot build ${bin##*/} (is libc6-dev installed? static glibc is needed)"
	fi
	chmod 0755 "$tmp"
	mv -f "$tmp" "$bin"
}

main() {
	local dir=${1:-${VM_BUILD_DIR:-$REPO/build/vm}} h

	mkdir -p "$dir" || die "cannot create $dir"
	for h in "${HELPERS[@]}"; do
		build_one "$HERE/$h.c" "$dir/$h"
	done
}

main "$@"
