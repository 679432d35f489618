#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# package.sh - the packages a fleet installs: tscprobe (the CLI, its man
# page, completion and the textfile timer, disabled) and tscprobe-dkms
# (the module's source, which DKMS builds for every installed kernel).
#
# usage: package.sh deb OUT    Debian's: dpkg-buildpackage, then lintian,
#                              whose every error and warning fails
#        package.sh rpm OUT    Fedora's and RHEL's: rpmbuild with
#                              packaging/rpm/tscprobe.spec
#
# Both build from the files git knows (tracked, or new and not ignored) as
# they are in the working tree, copied into OUT/src: never from build/.
# The packages land in OUT; the last lines of output name them.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VERSION=$(cat "$REPO/VERSION")

die() {
	echo "package: $*" >&2
	exit 1
}

# The source tree, clean, in $1/tscprobe-$VERSION.
copy_source() {
	local dst=$1/tscprobe-$VERSION

	rm -rf "$1" && mkdir -p "$dst"
	(cd "$REPO" && git ls-files -z -co --exclude-standard |
		xargs -0 cp --parents -t "$dst")
	echo "$dst"
}

deb() {
	local out=$1 src f
	local -a debs=()

	command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null ||
		die "dpkg-buildpackage and lintian are missing (make deps)"
	src=$(copy_source "$out/src")
	cp -r "$REPO/packaging/debian" "$src/debian"
	(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log"; die "dpkg-buildpackage failed (log: $out/build.log)"; }
	for f in "$out"/src/*.deb; do
		mv "$f" "$out/"
		debs+=("$out/$(basename "$f")")
	done
	# Errors and warnings fail; informational tags and overrides do not.
	lintian --fail-on error,warning "${debs[@]}" ||
		die "lintian found errors or warnings"
	printf '%s\n' "${debs[@]}"
}

rpm() {
	local out=$1 src top

	command -v rpmbuild >/dev/null || die "rpmbuild is missing (make deps)"
	src=$(copy_source "$out/src")
	top=$out/rpmbuild
	mkdir -p "$top/SOURCES"
	tar -C "$out/src" -czf "$top/SOURCES/tscprobe-$VERSION.tar.gz" \
		"tscprobe-$VERSION"
	rpmbuild -bb --nodeps --define "_topdir $top" \
		--define "tp_version $VERSION" \
		"$REPO/packaging/rpm/tscprobe.spec" >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log"; die "rpmbuild failed (log: $out/build.log)"; }
	find "$top/RPMS" -name '*.rpm' -exec mv -t "$out" {} +
	ls "$out"/*.rpm
}

(($# == 2)) && [[ $1 == deb || $1 == rpm ]] ||
	{ echo "usage: package.sh deb|rpm OUT" >&2; exit 2; }
mkdir -p "$2"
out=$(cd "$2" && pwd)
rm -f "$out"/*.deb "$out"/*.rpm
"$1" "$out"
