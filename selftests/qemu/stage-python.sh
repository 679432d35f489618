#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-python.sh [DIR] - a Python for the guest, for the tests that run the
# kernel's ynl (selftests/vm/test_ynl.sh): Debian's python3.11 standard
# library and the few packages ynl imports, staged in DIR (default
# $VM_BUILD_DIR/python, else build/vm/python) as
#
#   DIR/python3.11      -> /usr/lib/python3.11 in the guest
#   DIR/dist-packages   -> /usr/lib/python3/dist-packages (PyYAML, and
#                          jsonschema with attrs and pyrsistent: ynl checks
#                          a spec against its schema with it)
#
# The interpreter itself is /usr/bin/python3.11, added by the caller as
# /usr/bin/python3 (mkinitramfs.sh brings its shared libraries).  Left out:
# what a test never imports (test suites, IDLE, Tk, 2to3, distutils, the
# build configuration) and the extension modules for TLS, SQLite, curses,
# readline and dbm.  Every module is compiled ahead with unchecked-hash
# .pyc files: the initramfs sets every mtime to 0, which would make
# timestamp-checked .pyc files stale and every import compile in the guest.
# Extension modules are made executable so that mkinitramfs.sh copies the
# libraries they link.  Rebuilt only when the interpreter's version changes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PYTHON=/usr/bin/python3.11
STDLIB=/usr/lib/python3.11
DIST=/usr/lib/python3/dist-packages
SKIP_STDLIB=(test idlelib tkinter turtledemo turtle.py ensurepip lib2to3
	     pydoc_data distutils site-packages dist-packages '__pycache__'
	     'config-3.11-*')
SKIP_DYNLOAD=('_test*' 'xx*' '_xx*' '_ctypes_test*' '_ssl.*' '_hashlib.*'
	      '_sqlite3.*' '_curses*' '_dbm.*' '_gdbm.*' 'readline.*'
	      '_tkinter.*' 'nis.*' 'ossaudiodev.*' 'audioop.*')
PACKAGES=(yaml _yaml jsonschema attr attrs pyrsistent _pyrsistent_version.py)

die() {
	echo "stage-python: $*" >&2
	exit 1
}

stage() {
	local out=$1 pattern pkg
	local -a excl=()

	for pattern in "${SKIP_STDLIB[@]}"; do
		excl+=(--exclude="/$pattern")
	done
	for pattern in "${SKIP_DYNLOAD[@]}"; do
		excl+=(--exclude="/lib-dynload/$pattern")
	done
	excl+=(--exclude='__pycache__')
	mkdir -p "$out/python3.11" "$out/dist-packages"
	# tar keeps the tree; --exclude patterns anchored at the library's top.
	tar -C "$STDLIB" --anchored "${excl[@]/=\//=./}" -cf - . | tar -C "$out/python3.11" -xf -
	for pkg in "${PACKAGES[@]}"; do
		[[ -e $DIST/$pkg ]] || die "$DIST/$pkg missing (apt-get install python3-yaml python3-jsonschema)"
		tar -C "$DIST" --exclude='__pycache__' -cf - "$pkg" | tar -C "$out/dist-packages" -xf -
	done
	chmod 0755 "$out"/python3.11/lib-dynload/*.so
	find "$out/dist-packages" -name '*.so' -exec chmod 0755 {} +
	"$PYTHON" -m compileall -q -j 2 --invalidation-mode unchecked-hash \
		"$out/python3.11" "$out/dist-packages" >/dev/null ||
		die "compileall failed"
}

main() {
	local dir=${1:-${VM_BUILD_DIR:-$REPO/build/vm}/python} key tmp

	[[ -x $PYTHON ]] || die "$PYTHON not found (apt-get install python3)"
	key="$("$PYTHON" -VV 2>&1 | head -n 1) $(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
	[[ -f $dir/.key && $(cat "$dir/.key") == "$key" ]] && return 0
	# Staged aside and renamed: a parallel run never sees half a tree.
	mkdir -p "$(dirname "$dir")"
	tmp=$(mktemp -d "$dir.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	stage "$tmp"
	echo "$key" >"$tmp/.key"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT
}

main "$@"
