#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# in-root.sh ROOT CMD... - run CMD in the Debian root ROOT (chroot), with a
# clean environment and /proc mounted in a mount namespace of its own, so
# the mount goes away with the command, whatever ends it (objtool and
# process substitution need /proc).
set -euo pipefail

(($# >= 2)) || { echo "usage: in-root.sh ROOT CMD..." >&2; exit 2; }
root=$(realpath "$1")
shift
[[ -x $root/usr/bin/env ]] || { echo "in-root: $root is not a Debian root" >&2; exit 1; }
exec unshare --mount --propagation private /bin/sh -c \
	'mount -t proc proc "$0/proc" && exec chroot "$0" /usr/bin/env -i \
		PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' "$root" "$@"
