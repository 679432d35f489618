#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.sh - checkpatch --strict on kmod/ and core/, with the kernel's
# own checkpatch.pl (from Debian's linux-source-6.1, extracted once into
# build/checkpatch).  Findings listed in tools/checkpatch-exceptions, each
# with its reason, are allowed; anything else fails.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CP=$REPO/build/checkpatch
TAR=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)

if [[ ! -x $CP/scripts/checkpatch.pl ]]; then
	[[ -n $TAR ]] || { echo "checkpatch: linux-source-6.1 missing (make deps)" >&2; exit 1; }
	mkdir -p "$CP"
	tar -xf "$TAR" -C "$CP" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

allowed() {
	local file=$1 type=$2 glob etype
	while read -r glob etype _; do
		[[ -z $glob || $glob == \#* ]] && continue
		# shellcheck disable=SC2053
		[[ $file == $glob && $type == "$etype" ]] && return 0
	done <"$REPO/tools/checkpatch-exceptions"
	return 1
}

cd "$REPO"
# Not kmod/netlink_gen.[ch]: ynl-gen-c's output, in its style (a policy
# entry on one line, past 100 columns), held to the spec by
# selftests/host/test_ynl_gen.py instead.
files=$(ls kmod/*.c kmod/*.h kmod/probes/*.c core/*.c core/*.h |
	grep -v -e '\.mod\.c$' -e '^kmod/probes\.h$' -e '^kmod/netlink_gen\.[ch]$')
bad=0
while IFS= read -r line; do
	[[ $line =~ ^([^:]+):[0-9]+:\ [A-Z]+:([A-Z_]+): ]] || continue
	if ! allowed "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"; then
		echo "$line"
		bad=$((bad + 1))
	fi
done < <("$CP/scripts/checkpatch.pl" --no-tree --strict --terse --show-types -f $files 2>&1)
if ((bad)); then
	echo "checkpatch: $bad finding(s) above" >&2
	exit 1
fi
echo "checkpatch: --strict clean on kmod/ and core/ (exceptions: tools/checkpatch-exceptions)"
