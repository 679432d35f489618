#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apt-mirror.sh - the Debian mirror this machine's apt already uses: the
# URI of its entry for "bookworm", or for the suite given (as
# bookworm-security), deb822 or one-line format, on stdout.
# Suites the project adds (bookworm-backports in deps.sh, bullseye in
# selftests/kernels/fetch-5.10.sh) come from it, so no host name is ever ours.
# Exit 1, with a message, when no source names the suite.
set -euo pipefail

mapfile -t sources < <(find /etc/apt/sources.list /etc/apt/sources.list.d \
	-maxdepth 1 \( -name sources.list -o -name '*.list' -o -name '*.sources' \) \
	-type f 2>/dev/null)
suite=${1:-bookworm}
uri=$(awk -v s="$suite" '
	/^$/ { u = "" }
	/^URIs:/ { u = $2 }
	/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s && u != "") print u }
	/^deb / { line = $0; gsub(/\[[^]]*\]/, "", line); split(line, f)
		  if (f[3] == s) print f[2] }
' "${sources[@]}" /dev/null | head -n 1)
[[ -n $uri ]] || { echo "apt-mirror: no apt source for $suite to take the mirror from" >&2; exit 1; }
echo "$uri"
