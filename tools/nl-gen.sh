#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nl-gen.sh - kmod/netlink_gen.c and kmod/netlink_gen.h, the module's
# netlink policies, as the kernel's own ynl-gen-c writes them (kernel mode)
# from Documentation/netlink/specs/tscprobe.yaml.
#
# usage: nl-gen.sh [OUTDIR]    (default kmod/; "make nl-gen")
#
# The generator is the newest kernel line's, in build/ynl-newest ("make
# ynl-newest"): 6.12's cannot write the spec's length check of a binary
# attribute.  It runs on a copy of the spec in a tree laid out like the
# kernel's, where it finds the schema beside specs/ and the tree's root by
# its MAINTAINERS.  A file is replaced only when it was generated whole.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
YNL=$REPO/build/ynl-newest
SPEC=Documentation/netlink/specs/tscprobe.yaml
out=${1:-$REPO/kmod}

gen=$YNL/tools/net/ynl/pyynl/ynl_gen_c.py
[[ -e $gen ]] || gen=$YNL/tools/net/ynl/ynl-gen-c.py
[[ -e $gen ]] || { echo "nl-gen: no ynl-gen-c in $YNL (make ynl-newest)" >&2; exit 1; }

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/Documentation/netlink/specs" "$tree/out"
ln -s "$YNL/MAINTAINERS" "$tree/MAINTAINERS"
ln -s "$YNL/Documentation/netlink/genetlink-legacy.yaml" "$tree/Documentation/netlink/"
cp "$REPO/$SPEC" "$tree/$SPEC"

# The handlers are named tp_nl_*, as the rest of the module's functions.
for part in source header; do
	file=netlink_gen.c
	[[ $part == header ]] && file=netlink_gen.h
	(cd "$tree" && python3 "$gen" --mode kernel "--$part" --spec "$SPEC" \
		--function-prefix tp-nl -o "out/$file") ||
		{ echo "nl-gen: ynl-gen-c failed ($part)" >&2; exit 1; }
done
mkdir -p "$out"
cp "$tree/out/netlink_gen.c" "$tree/out/netlink_gen.h" "$out/"
