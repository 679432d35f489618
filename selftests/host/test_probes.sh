#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The feature probes (kmod/probe.sh) with a stand-in compiler that accepts
# what a fake kernel "has": the header says 1 exactly for those, items and
# their lists follow, an export is required where a probe names one, the
# result is cached by kernel (a second build compiles nothing, another
# kernel probes again), and kmod/ tests no version number anywhere.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=selftests/tap.sh
source "$REPO/selftests/tap.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# The fake kernel: its generated headers, its exports, and what it "has":
# a probe compiles when its file (or its item) is listed in $W/has.
mkdir -p "$W/kernel/include/generated/uapi/linux" "$W/probes" "$W/out"
echo '#define UTS_RELEASE "9.9.0-fake"' >"$W/kernel/include/generated/utsrelease.h"
echo '#define CONFIG_FAKE 1' >"$W/kernel/include/generated/autoconf.h"
echo '#define LINUX_VERSION_CODE 1' >"$W/kernel/include/generated/uapi/linux/version.h"
printf '0x0\tthere_fn\tvmlinux\tEXPORT_SYMBOL\t\n' >"$W/kernel/Module.symvers"
cat >"$W/cc" <<EOF
#!/bin/bash
# Log the call; succeed when the file, or FILE:ITEM, is in has.
echo "\$*" >>"$W/cc.log"
file=\${*: -1}
item=\$(printf '%s\n' "\$@" | sed -n 's/^-DTP_PROBE_ITEM=//p')
grep -qx "\$(basename "\$file")\${item:+:\$item}" "$W/has"
EOF
chmod +x "$W/cc"
echo 'int x;' >"$W/probes/alpha.c"
echo 'int x;' >"$W/probes/beta.c"
printf '/* probe-export: there_fn */\n' >"$W/probes/exported.c"
printf '/* probe-export: absent_fn */\n' >"$W/probes/unexported.c"
printf '/*\n * probe-items: one two\n * probe-items: three\n */\n' >"$W/probes/list.c"
printf '%s\n' alpha.c exported.c unexported.c list.c:one list.c:three >"$W/has"

probe() {
	bash "$REPO/kmod/probe.sh" "$W/out/probes.h" "$W/probes" "$W/kernel" \
		-- "$W/cc" -DFLAG >/dev/null
}

has() {
	grep -qx "#define $1" "$W/out/probes.h" ||
		{ echo "want '#define $1' in:"; cat "$W/out/probes.h"; return 1; }
}

# Compilations so far (the key's "cc --version" aside).
calls() {
	local n

	n=$(grep -c -- -fsyntax-only "$W/cc.log" 2>/dev/null)
	[[ $n == "$1" ]] || { echo "$n compilations, want $1"; return 1; }
}

tap_check "probes run" probe
tap_check "a probe that compiles is 1" has "TP_HAVE_ALPHA 1"
tap_check "one that does not is 0" has "TP_HAVE_BETA 0"
tap_check "an exported symbol counts" has "TP_HAVE_EXPORTED 1"
tap_check "a symbol not exported makes it 0" has "TP_HAVE_UNEXPORTED 0"
tap_check "items one by one" bash -c "$(declare -f has); W=$W; has 'TP_HAVE_LIST_ONE 1' && has 'TP_HAVE_LIST_TWO 0' && has 'TP_HAVE_LIST_THREE 1'"
tap_check "the list of the items found" has "TP_HAVE_LIST_EACH(X) X(one), X(three)"
tap_check "a compile per probe and per item" calls 7
tap_check "the probe's flags reach the compiler" grep -q -- '-DFLAG .*-fsyntax-only' "$W/cc.log"
tap_check "the same kernel again: cached" bash -c "$(declare -f probe calls); REPO=$REPO W=$W; probe && calls 7"
rm -f "$W/out/probes.h"
tap_check "the header comes back from the cache" bash -c "$(declare -f probe calls); REPO=$REPO W=$W; probe && calls 7 && [[ -s $W/out/probes.h ]]"
echo '#define CONFIG_FAKE 2' >"$W/kernel/include/generated/autoconf.h"
echo beta.c >>"$W/has"
tap_check "another configuration: probed again" bash -c "$(declare -f probe calls has); REPO=$REPO W=$W; probe && calls 14 && has 'TP_HAVE_BETA 1'"
tap_check "no version number tested in kmod/" bash -c \
	"! grep -rnE 'LINUX_VERSION_CODE|KERNEL_VERSION\\(' '$REPO/kmod' --include='*.[ch]'"
tap_done
