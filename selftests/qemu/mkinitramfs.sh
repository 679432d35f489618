#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh - build the test VM's initramfs (newc cpio).
#
# usage: mkinitramfs.sh -o OUT [--gzip] [--script FILE] [--add SRC[:DST]]...
#                       [--helpers DIR] [--busybox PATH] [--init FILE]
#                       [--sysroot DIR]
#
#   -o OUT          the image to write
#   --gzip          gzip it (default: uncompressed, which boots faster
#                   under TCG than decompressing in the guest)
#   --script FILE   becomes /test.sh, run by /init
#   --add SRC[:DST] copy a file or directory into the image. DST is an
#                   absolute path; as with cp, a DST ending in "/" or naming
#                   an existing directory receives SRC under its own name.
#                   Without DST, executable files go to /usr/local/bin/,
#                   anything else to / (the test's working directory).
#                   Dynamically linked ELF files bring the shared libraries
#                   ldd lists, at the same absolute paths; with --sysroot,
#                   those their dynamic section needs, from DIR.
#   --sysroot DIR   the root of another architecture's libraries (an arm64
#                   guest's: build/arm64/root), which ldd cannot list
#   --helpers DIR   where vm-exit, vm-runas and vm-pace are (default: build them
#                   with build-helpers.sh)
#   --busybox PATH  a static busybox (default: $VM_BUSYBOX or /bin/busybox)
#   --init FILE     the /init to use (default: init.sh next to this script)
#
# The image is deterministic: sorted entries, owner root, mtime 0.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

usage() {
	# The header comment, from the line after the SPDX tag to the code.
	awk 'NR > 3 && /^#/ { sub(/^# ?/, ""); print; next } NR > 3 { exit }' \
		"${BASH_SOURCE[0]}" >&2
	exit 2
}

SYSROOT=

# The libraries the ELF file $1 needs and their own, found under SYSROOT
# by name, and its loader at the path it names: what ldd would list for
# the guest's architecture, one path a line.
sysroot_closure() {
	local -A seen=()
	local -a todo=("$1")
	local f name lib

	while ((${#todo[@]})); do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		while IFS= read -r name; do
			[[ -n ${seen[$name]:-} ]] && continue
			seen[$name]=1
			for lib in "$SYSROOT"/{lib,usr/lib}/*-linux-gnu/"$name" "$SYSROOT/lib/$name"; do
				[[ -e $lib ]] || continue
				echo "${lib#"$SYSROOT"}"
				todo+=("$lib")
				break
			done
		done < <(LC_ALL=C readelf -d "$f" 2>/dev/null |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
	done
	LC_ALL=C readelf -l "$1" 2>/dev/null |
		sed -n 's/.*interpreter: \(\/.*\)\]$/\1/p'
}

# Copy every shared library that the ELF file $1 needs to the same path in
# the staging dir $2. ldd lists the whole closure, including the loader.
copy_libs() {
	local file=$1 stage=$2 magic out lib

	LC_ALL=C read -r -N 4 magic <"$file" 2>/dev/null || return 0
	[[ $magic == $'\x7fELF' ]] || return 0
	if [[ -n $SYSROOT ]]; then
		while IFS= read -r lib; do
			[[ -e $stage$lib ]] && continue
			mkdir -p "$stage${lib%/*}"
			cp -L "$SYSROOT$lib" "$stage$lib"
		done < <(sysroot_closure "$file")
		return 0
	fi
	# Static programs, kernel modules and objects: ldd fails, nothing to do.
	out=$(LC_ALL=C ldd "$file" </dev/null 2>/dev/null) || return 0
	if grep -q 'not found' <<<"$out"; then
		die "$file: missing shared libraries:"$'\n'"$(grep 'not found' <<<"$out")"
	fi
	while IFS= read -r lib; do
		[[ -e $stage$lib ]] && continue
		mkdir -p "$stage${lib%/*}"
		cp -L "$lib" "$stage$lib"
	done < <(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' <<<"$out")
}

# --add SRC[:DST]: copy, then pull in the libraries of every file copied.
add_entry() {
	local spec=$1 stage=$2 src dst f

	src=${spec%%:*}
	dst=
	[[ $spec == *:* ]] && dst=${spec#*:}
	[[ -e $src ]] || die "--add: $src: no such file or directory"
	if [[ -z $dst ]]; then
		if [[ -f $src && -x $src ]]; then
			dst=/usr/local/bin/
		else
			dst=/
		fi
	fi
	[[ $dst == /* ]] || die "--add: destination '$dst' must be an absolute path"
	# Like cp: into a directory that is named, or that already exists.
	if [[ $dst == */ || -d $stage$dst ]]; then
		dst=${dst%/}/${src##*/}
	fi

	mkdir -p "$stage${dst%/*}"
	if [[ -d $src ]]; then
		mkdir -p "$stage$dst"
		cp -RL "$src/." "$stage$dst/"
		while IFS= read -r -d '' f; do
			copy_libs "$f" "$stage"
		done < <(find "$src" -type f -perm -u+x -print0)
	else
		cp -L "$src" "$stage$dst"
		copy_libs "$src" "$stage"
	fi
}

# The skeleton: directories, busybox, helpers, /init, users.
make_base() {
	local stage=$1 busybox=$2 helpers=$3 init=$4

	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,etc,dev,proc,sys,tmp,root,run}
	chmod 1777 "$stage/tmp"
	chmod 0700 "$stage/root"
	# Applet links are made by /init ("busybox --install -s"): one process
	# there instead of hundreds of ln here, and added files take precedence.
	install -m 0755 "$busybox" "$stage/bin/busybox"

	install -m 0755 "$helpers/vm-exit" "$stage/bin/vm-exit"
	install -m 0755 "$helpers/vm-runas" "$stage/bin/vm-runas"
	install -m 0755 "$helpers/vm-pace" "$stage/bin/vm-pace"
	install -m 0755 "$init" "$stage/init"

	# Enough for id, ls -l and friends to print names.
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$stage/etc/passwd"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$stage/etc/group"
}

# Sorted entries, fixed mtime and owner: the same inputs give the same bytes.
write_cpio() {
	local stage=$1 out=$2 gzip=$3

	find "$stage" -exec touch -h -d @0 {} +
	(
		cd "$stage"
		find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --reproducible --quiet
	) | if ((gzip)); then gzip -n -9; else cat; fi >"$out.tmp"
	mv -f "$out.tmp" "$out"
}

main() {
	local out='' gzip=0 script='' helpers='' init=$HERE/init.sh
	local busybox=${VM_BUSYBOX:-/bin/busybox} spec
	local -a adds=()

	while (($#)); do
		case $1 in
		-o) out=${2:?}; shift ;;
		--gzip) gzip=1 ;;
		--script) script=${2:?}; shift ;;
		--add) adds+=("${2:?}"); shift ;;
		--helpers) helpers=${2:?}; shift ;;
		--busybox) busybox=${2:?}; shift ;;
		--init) init=${2:?}; shift ;;
		--sysroot) SYSROOT=$(cd "${2:?}" && pwd); shift ;;
		-h | --help) usage ;;
		*) echo "mkinitramfs: unknown argument '$1'" >&2; usage ;;
		esac
		shift
	done
	[[ -n $out ]] || usage
	[[ -x $busybox ]] || die "busybox not found at $busybox (apt-get install busybox-static)"
	[[ -r $init ]] || die "init $init not found"
	[[ -z $script || -r $script ]] || die "script $script not found"
	command -v cpio >/dev/null || die "cpio not found (apt-get install cpio)"
	if [[ -z $helpers ]]; then
		helpers=${VM_BUILD_DIR:-$(cd "$HERE/../.." && pwd)/build/vm}
		"$HERE/build-helpers.sh" "$helpers"
	fi

	umask 022
	# Global: the EXIT trap runs after main's locals are gone.
	STAGE=$(mktemp -d "${TMPDIR:-/tmp}/mkinitramfs.XXXXXX")
	trap 'rm -rf "$STAGE"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM

	make_base "$STAGE" "$busybox" "$helpers" "$init"
	[[ -n $script ]] && install -m 0755 "$script" "$STAGE/test.sh"
	for spec in "${adds[@]}"; do
		add_entry "$spec" "$STAGE"
	done
	write_cpio "$STAGE" "$out" "$gzip"
}

main "$@"
