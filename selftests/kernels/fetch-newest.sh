#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-newest.sh - the newest kernel line Debian ships (trixie-backports),
# cloud and rt, with the compiler it was built with, in a Debian 13 root
# under build/trixie/root that the module and the debug kernel are built in
# (chroot).  The machine's own apt state is never touched: the root has its
# own, from the mirror the machine already uses (tools/apt-mirror.sh).
#
# usage: fetch-newest.sh               make the root, install the newest
#                                      headers, images and source (the index
#                                      is refreshed at most once a day)
#        fetch-newest.sh kdir FLAVOUR  the build tree of the installed
#                                      newest FLAVOUR (cloud or rt) kernel
#        fetch-newest.sh source        the linux-source tarball of that line
#        fetch-newest.sh root          the root's directory
#        fetch-newest.sh run CMD...    run CMD in the root (chroot)
#
# In the root: gcc-14 and what a kernel build needs, sparse, the headers of
# the kernel the trixie-backports meta-packages point at (7.3.x today; it
# moves along by itself) and its linux-source.  The images are unpacked
# from linux-binary-RELEASE into the root's /boot, where tools/kernels.sh
# finds the image that matches a build tree.  Paths inside the root are
# absolute to it: its build trees are used through chroot only.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEST=$REPO/build/trixie
ROOT=$DEST/root
# The root's mark: build-module.sh chroots into a KDIR's root when it has one.
MARK=.tscprobe-chroot
TOOLCHAIN=gcc,make,libc6-dev,libelf-dev,libssl-dev,bc,kmod,flex,bison,sparse,cpio,xz-utils
FLAVOURS=(cloud rt)
LOG=$DEST/fetch.log

die() {
	echo "fetch-newest: $*" >&2
	exit 1
}

in_root() {
	"$REPO/selftests/kernels/in-root.sh" "$ROOT" "$@"
}

# Into a new directory, renamed into place when complete: an interrupted
# debootstrap never leaves a root that looks usable.
make_root() {
	local uri=$1 tmp=$DEST/root.new

	command -v debootstrap >/dev/null || die "debootstrap is not installed (make deps)"
	echo "fetch-newest: making a Debian 13 (trixie) root with gcc-14 in $ROOT (about 3 minutes)"
	rm -rf "$tmp"
	debootstrap --variant=minbase --include="$TOOLCHAIN" trixie "$tmp" "$uri" \
		>>"$LOG" 2>&1 || die "debootstrap failed (log: $LOG)"
	# Only sparse comes from forky (fetch_sparse): nothing is installed from
	# it, and the mirror's copy of a moving suite may be past its date.
	printf 'deb %s %s main\n' "$uri" trixie "$uri" trixie-backports \
		>"$tmp/etc/apt/sources.list"
	printf 'deb [check-valid-until=no] %s forky main\n' "$uri" \
		>"$tmp/etc/apt/sources.list.d/forky.list"
	printf 'Package: *\nPin: release n=forky\nPin-Priority: 1\n' \
		>"$tmp/etc/apt/preferences.d/forky"
	touch "$tmp/$MARK"
	mv "$tmp" "$ROOT"
}

# A day old at most; where the mirror cannot be reached, what is installed
# is used.
refresh_index() {
	local stamp=$ROOT/var/lib/apt/tscprobe.stamp

	[[ -n $(find "$stamp" -mmin -1440 2>/dev/null) ]] && return 0
	if ! in_root apt-get update -q >>"$LOG" 2>&1; then
		[[ -n $(installed_release cloud) && -n $(installed_release rt) ]] ||
			die "apt-get update in the root failed (log: $LOG)"
		echo "fetch-newest: apt-get update in the root failed; using what is installed (log: $LOG)" >&2
		return 0
	fi
	touch "$stamp"
}

# The release a trixie-backports meta-package of FLAVOUR points at.
newest_release() {
	in_root apt-cache depends "linux-headers-$1-amd64/trixie-backports" 2>/dev/null |
		sed -n "s/^ *Depends: linux-headers-\([0-9][^ ]*-$1-amd64\)$/\1/p" | head -n 1
}

# The image: unpacked from linux-binary-RELEASE (Debian's 7.x packages keep
# it there), never installed, so the root runs no kernel hooks.
fetch_image() {
	local release=$1 dir

	[[ -r $ROOT/boot/vmlinuz-$release ]] && return 0
	dir=$(mktemp -d "$ROOT/tmp/image.XXXXXX")
	in_root sh -c "cd '${dir#"$ROOT"}' && apt-get download -q 'linux-binary-$release'" \
		>>"$LOG" 2>&1 || die "downloading linux-binary-$release failed (log: $LOG)"
	dpkg-deb -x "$dir"/linux-binary-*.deb "$dir/x"
	install -D -m 0644 "$dir/x/usr/lib/modules/$release/vmlinuz" \
		"$ROOT/boot/vmlinuz-$release" ||
		die "linux-binary-$release has no usr/lib/modules/$release/vmlinuz"
	rm -rf "$dir"
}

# Prints the releases when it installed anything.
install_newest() {
	local flavour release releases=() packages=()

	for flavour in "${FLAVOURS[@]}"; do
		release=$(newest_release "$flavour")
		if [[ -z $release ]]; then
			release=$(installed_release "$flavour")
			[[ -n $release ]] || die "no $flavour kernel in trixie-backports"
		fi
		releases+=("$release")
		[[ -d $ROOT/usr/src/linux-headers-$release &&
		   -e $ROOT/usr/src/linux-source-$(series_of "$release").tar.xz &&
		   -r $ROOT/boot/vmlinuz-$release ]] && continue
		packages+=("linux-headers-$release" "linux-source-$(series_of "$release")")
	done
	if ((${#packages[@]})); then
		in_root apt-get install -y -q --no-install-recommends \
			$(printf '%s\n' "${packages[@]}" | sort -u) >>"$LOG" 2>&1 ||
			die "installing ${packages[*]} in the root failed (log: $LOG)"
	fi
	for release in "${releases[@]}"; do
		fetch_image "$release"
		repair_checker "$release"
	done
	fetch_sparse
	((${#packages[@]})) || return 0
	for release in "${releases[@]}"; do
		echo "fetch-newest: $release (gcc $(in_root gcc -dumpfullversion), in $ROOT)"
	done
}

# Trixie's sparse (0.6.4) cannot read the headers of 6.13 and later
# (__typeof_unqual__), and Kbuild then turns C=2 off (scripts/checker-
# valid.sh): the root also has the newest sparse Debian has, unpacked from
# forky's package into /usr/local (it needs nothing but libc).
fetch_sparse() {
	local dir

	[[ -x $ROOT/usr/local/bin/sparse ]] && return 0
	dir=$(mktemp -d "$ROOT/tmp/sparse.XXXXXX")
	in_root sh -c "cd '${dir#"$ROOT"}' && apt-get download -q sparse/forky" \
		>>"$LOG" 2>&1 || die "downloading forky's sparse failed (log: $LOG)"
	dpkg-deb -x "$dir"/sparse_*.deb "$dir/x"
	install -D -m 0755 "$dir/x/usr/bin/sparse" "$ROOT/usr/local/bin/sparse"
	rm -rf "$dir"
}

# Debian's headers packages lack scripts/checker-valid.sh, without which
# Kbuild turns C=2 off as well: it comes from the same line's source.
repair_checker() {
	local release=$1 common series script

	common=$(find "$ROOT/usr/src" -maxdepth 1 -name "linux-headers-${release%-*-amd64}-common" | head -n 1)
	[[ -n $common ]] || return 0
	script=$common/scripts/checker-valid.sh
	[[ -e $script ]] && return 0
	series=$(series_of "$release")
	tar -xJf "$ROOT/usr/src/linux-source-$series.tar.xz" -O \
		"linux-source-$series/scripts/checker-valid.sh" >"$script.new" ||
		die "no scripts/checker-valid.sh in linux-source-$series"
	chmod 0755 "$script.new"
	mv "$script.new" "$script"
}

# 7.3.4+deb13-cloud-amd64 -> 7.3
series_of() {
	local version=${1%%[-+]*}

	echo "${version%.*}"
}

# The newest installed release of FLAVOUR, from the root's own files.
installed_release() {
	find "$ROOT/usr/src" -mindepth 1 -maxdepth 1 -name "linux-headers-*-$1-amd64" \
		-printf '%f\n' 2>/dev/null | sed 's/^linux-headers-//' | sort -V | tail -n 1
}

kdir_of() {
	local release

	[[ -e $ROOT/$MARK ]] || die "no trixie root in $ROOT (make deps)"
	release=$(installed_release "$1")
	[[ -n $release ]] || die "no newest $1 kernel in $ROOT (make deps)"
	echo "$ROOT/usr/src/linux-headers-$release"
}

source_of() {
	local release tarball

	release=$(installed_release cloud)
	[[ -n $release ]] || die "no newest kernel in $ROOT (make deps)"
	tarball=$(find "$ROOT/usr/src" -maxdepth 1 \
		-name "linux-source-$(series_of "$release").tar.*" | head -n 1)
	[[ -n $tarball ]] || die "no linux-source-$(series_of "$release") in $ROOT (make deps)"
	echo "$tarball"
}

fetch() {
	local uri

	((EUID == 0)) || die "making the trixie root needs root (make deps)"
	mkdir -p "$DEST"
	: >"$LOG"
	uri=$("$REPO/tools/apt-mirror.sh") || exit 1
	[[ -e $ROOT/$MARK ]] || make_root "$uri"
	refresh_index
	install_newest
}

case ${1:-} in
"") fetch ;;
kdir) (($# == 2)) || die "usage: fetch-newest.sh kdir cloud|rt"; kdir_of "$2" ;;
source) source_of ;;
root) echo "$ROOT" ;;
run) shift; in_root "$@" ;;
*) die "usage: fetch-newest.sh [kdir FLAVOUR | source | root | run CMD...]" ;;
esac
