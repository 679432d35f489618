#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh - build (once) the debug guest kernel the VM suite
# runs on, and print its build directory.
#
# usage: build-debug-kernel.sh [--check] [BUILD_ROOT]
#   BUILD_ROOT  where builds are cached (default: build/debug-kernel)
#   --check     build nothing: print the directory if the cached kernel is
#               there, else exit 1
#
# From Debian's linux-source-6.1 tarball: "make allnoconfig" with
# tools/vm/debug-kernel.config as KCONFIG_ALLCONFIG, then bzImage and the
# module build files. The build lives in BUILD_ROOT/<key>/, where the key
# hashes the fragment, the source package's version and the compiler, so a
# changed fragment or a new source builds afresh and an unchanged one is
# reused; older builds are removed. The last line of output is the build
# directory (O=): the module is built with "make -C DIR M=...", the guest
# boots DIR/arch/x86/boot/bzImage. The build log is DIR/../build.log.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
FRAGMENT=$HERE/debug-kernel.config
SOURCE_PKG=linux-source-6.1

die() {
	echo "debug-kernel: $*" >&2
	exit 1
}

cache_key() {
	local version

	version=$(dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null) ||
		die "$SOURCE_PKG is not installed (make deps)"
	{ cat "$FRAGMENT"; echo "$SOURCE_PKG $version"; "${CC:-gcc}" --version | head -n 1; } |
		sha256sum | cut -c 1-16
}

# Every line of the fragment must be in the final .config, exactly: an
# option that kconfig dropped (renamed, or a dependency not enabled) would
# otherwise quietly leave a bug finder out.
check_config() {
	local config=$1 line name missing=0

	while IFS= read -r line; do
		[[ $line =~ ^CONFIG_ ]] || continue
		name=${line%%=*}
		if [[ $line == *=n ]]; then
			grep -qx "# $name is not set" "$config" && continue
		else
			grep -qxF "$line" "$config" && continue
		fi
		echo "debug-kernel: $line did not make it into the .config" >&2
		missing=1
	done <"$FRAGMENT"
	return "$missing"
}

build() {
	local dir=$1 tarball src obj jobs

	tarball=$(find /usr/src -maxdepth 1 -name "$SOURCE_PKG.tar.*" | head -n 1)
	[[ -n $tarball ]] || die "no /usr/src/$SOURCE_PKG.tar.* (make deps)"
	src=$dir/src obj=$dir/obj
	jobs=$(nproc 2>/dev/null || echo 1)
	rm -rf "$src" "$obj"
	mkdir -p "$src" "$obj"
	echo "debug-kernel: extracting $(basename "$tarball")" >&2
	tar -xf "$tarball" -C "$src" --strip-components=1
	echo "debug-kernel: configuring (allnoconfig + $(basename "$FRAGMENT"))" >&2
	make -C "$src" O="$obj" ARCH=x86_64 KCONFIG_ALLCONFIG="$FRAGMENT" \
		allnoconfig >>"$dir/build.log" 2>&1
	check_config "$obj/.config" || die "the fragment does not apply to this source"
	echo "debug-kernel: building with $jobs jobs (about 15 minutes on 2 cores; log: $dir/build.log)" >&2
	SECONDS=0
	if ! make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" bzImage modules \
		>>"$dir/build.log" 2>&1; then
		tail -n 30 "$dir/build.log" >&2
		die "the build failed (log: $dir/build.log)"
	fi
	echo "debug-kernel: built in $((SECONDS / 60)) min $((SECONDS % 60)) s" >&2
	touch "$obj/.tscprobe-built"
}

main() {
	local check=0 root key dir old

	if [[ ${1:-} == --check ]]; then
		check=1
		shift
	fi
	root=${1:-$REPO/build/debug-kernel}
	key=$(cache_key)
	dir=$root/$key
	if [[ -e $dir/obj/.tscprobe-built ]]; then
		echo "$dir/obj"
		return 0
	fi
	((check)) && return 1
	mkdir -p "$root"
	# One build at a time: a second caller waits for the first one's result.
	exec 9>"$root/.lock"
	flock 9
	if [[ ! -e $dir/obj/.tscprobe-built ]]; then
		for old in "$root"/*/; do
			[[ $old == "$dir/" ]] || rm -rf "$old"
		done
		mkdir -p "$dir"
		: >"$dir/build.log"
		build "$dir"
	fi
	echo "$dir/obj"
}

main "$@"
