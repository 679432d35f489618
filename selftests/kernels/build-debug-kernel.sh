#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh - build (once) the debug guest kernel the VM suite
# runs on, and print its build directory.
#
# usage: build-debug-kernel.sh [--check] [BUILD_ROOT]
#   BUILD_ROOT  where builds are cached (default: the trixie root's
#               /var/cache/tscprobe/debug-kernel, under build/trixie)
#   --check     build nothing: print the directory if the cached kernel is
#               there, else exit 1
#
# From the newest kernel line's linux-source tarball, in the trixie root
# with its compiler (fetch-newest.sh): "make allnoconfig" with
# debug-kernel.config as KCONFIG_ALLCONFIG, then bzImage and the
# module build files. The build lives in BUILD_ROOT/<key>/, where the key
# hashes the fragment, the source package's version and the compiler, so a
# changed fragment or a new source builds afresh and an unchanged one is
# reused; older builds are removed. BUILD_ROOT is inside the root, whose
# paths the build's files use. The last line of output is the build
# directory (O=): the module is built in the root with "make -C DIR M=..."
# (tools/build-module.sh does), the guest boots DIR/arch/x86/boot/bzImage.
# The build log is DIR/../build.log.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FRAGMENT=$HERE/debug-kernel.config
NEWEST=$HERE/fetch-newest.sh

die() {
	echo "debug-kernel: $*" >&2
	exit 1
}

in_root() {
	"$HERE/in-root.sh" "$ROOT" "$@"
}

cache_key() {
	local package version

	package=$(basename "$TARBALL")
	package=${package%.tar.*}
	version=$(in_root dpkg-query -W -f='${Version}' "$package") ||
		die "$package is not installed in the root (make deps)"
	{ cat "$FRAGMENT"; echo "$package $version"; in_root gcc --version | head -n 1; } |
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

# build DIR: DIR is the host's path, ${DIR#$ROOT} the root's.
build() {
	local dir=$1 src obj jobs

	src=${dir#"$ROOT"}/src obj=${dir#"$ROOT"}/obj
	jobs=$(nproc 2>/dev/null || echo 1)
	rm -rf "$dir/src" "$dir/obj"
	mkdir -p "$dir/src" "$dir/obj"
	cp "$FRAGMENT" "$dir/fragment.config"
	echo "debug-kernel: extracting $(basename "$TARBALL")" >&2
	tar -xf "$TARBALL" -C "$dir/src" --strip-components=1
	echo "debug-kernel: configuring (allnoconfig + $(basename "$FRAGMENT"))" >&2
	in_root make -C "$src" O="$obj" ARCH=x86_64 \
		KCONFIG_ALLCONFIG="${dir#"$ROOT"}/fragment.config" \
		allnoconfig >>"$dir/build.log" 2>&1
	check_config "$dir/obj/.config" || die "the fragment does not apply to this source"
	echo "debug-kernel: building $(basename "$TARBALL") with $jobs jobs (about 20 minutes on 2 cores; log: $dir/build.log)" >&2
	SECONDS=0
	if ! in_root make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" bzImage modules \
		>>"$dir/build.log" 2>&1; then
		tail -n 30 "$dir/build.log" >&2
		die "the build failed (log: $dir/build.log)"
	fi
	echo "debug-kernel: built in $((SECONDS / 60)) min $((SECONDS % 60)) s" >&2
	touch "$dir/obj/.tscprobe-built"
}

main() {
	local check=0 root key dir old

	if [[ ${1:-} == --check ]]; then
		check=1
		shift
	fi
	ROOT=$("$NEWEST" root)
	[[ -e $ROOT/.tscprobe-chroot ]] || die "no trixie root in $ROOT (make deps)"
	TARBALL=$("$NEWEST" source)
	root=$(realpath -m "${1:-$ROOT/var/cache/tscprobe/debug-kernel}")
	[[ $(realpath -m "$root") == "$ROOT"/* ]] ||
		die "$root is not inside the root $ROOT"
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
