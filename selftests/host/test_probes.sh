#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The feature probes (kmod/probe.sh) with a stand-in compiler that accepts
# what a fake kernel "has": the header says 1 exactly for those, items and
# their lists follow, an export is required where a probe names one, the
# result is cached by kernel (a second build compiles nothing, another
# kernel probes again); a compiler that gives no answer (killed, crashed,
# missing, failing with no error at a line, a full disk) stops the build
# and caches nothing, while gcc's own errors are 0; and kmod/ tests no
# version number anywhere.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tp_tmpdir W

# The fake kernel: its generated headers, its exports, and what it "has":
# a probe compiles when its file (or its item) is listed in $W/has.
mkdir -p "$W/kernel/include/generated/uapi/linux" "$W/probes" "$W/out"
echo '#define UTS_RELEASE "9.9.0-fake"' >"$W/kernel/include/generated/utsrelease.h"
echo '#define CONFIG_FAKE 1' >"$W/kernel/include/generated/autoconf.h"
echo '#define LINUX_VERSION_CODE 1' >"$W/kernel/include/generated/uapi/linux/version.h"
printf '0x0\tthere_fn\tvmlinux\tEXPORT_SYMBOL\t\n' >"$W/kernel/Module.symvers"
# The stand-in compiler logs the call and succeeds when the file, or
# FILE:ITEM, is in has; else it fails as a compiler does, with an error at
# a line of the file.  For the probe file named in $W/kill-once it is
# killed by SIGKILL instead (once: an OOM kill), in $W/ice it crashes
# (exit 4, an internal compiler error), in $W/cc1-killed it says what
# gcc's driver says when its cc1 was killed (exit 1, an error at no line).
cat >"$W/cc" <<EOF
#!/bin/bash
echo "\$*" >>"$W/cc.log"
file=\${*: -1}
name=\$(basename "\$file")
item=\$(printf '%s\n' "\$@" | sed -n 's/^-DTP_PROBE_ITEM=//p')
if grep -qsx "\$name" "$W/kill-once" && [[ ! -e $W/killed ]]; then
	touch "$W/killed"
	kill -KILL \$\$
fi
if grep -qsx "\$name" "$W/ice"; then
	echo "\$file:1:5: internal compiler error: Segmentation fault" >&2
	exit 4
fi
if grep -qsx "\$name" "$W/cc1-killed"; then
	printf 'cc: fatal error: Killed signal terminated program cc1\ncompilation terminated.\n' >&2
	exit 1
fi
grep -qx "\$name\${item:+:\$item}" "$W/has" && exit 0
echo "\$file:1:1: error: not in this kernel" >&2
exit 1
EOF
chmod +x "$W/cc"
echo 'int x;' >"$W/probes/alpha.c"
echo 'int x;' >"$W/probes/beta.c"
printf '/* probe-export: there_fn */\n' >"$W/probes/exported.c"
printf '/* probe-export: absent_fn */\n' >"$W/probes/unexported.c"
printf '/*\n * probe-items: one two\n * probe-items: three\n */\n' >"$W/probes/list.c"
printf '%s\n' alpha.c exported.c unexported.c list.c:one list.c:three >"$W/has"

# probe [CC]: the probes of $W/probes with the stand-in compiler (or CC).
probe() {
	bash "$REPO/kmod/probe.sh" "$W/out/probes.h" "$W/probes" "$W/kernel" \
		-- "${1:-$W/cc}" -DFLAG >/dev/null
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

# A compiler that gave no answer: the build stops, names the probe and
# caches nothing, and the next build probes again.
export REPO W
export -f probe has
# A kernel configuration not probed yet: a new cache key.
kernel() {
	echo "#define CONFIG_FAKE $1" >"$W/kernel/include/generated/autoconf.h"
}
# Files under DIR/.probes: $2 of them, none half-written.
cached_in() {
	local n

	n=$(find "$1/.probes" -mindepth 1 2>/dev/null | wc -l)
	[[ $n == "$2" ]] || { echo "$n files in the cache, want $2:"; ls -la "$1/.probes"; return 1; }
}
# refused COMMAND... -- WORD...: COMMAND fails, its message has each WORD.
refused() {
	local word args=()

	while [[ $1 != -- ]]; do
		args+=("$1")
		shift
	done
	shift
	! "${args[@]}" 2>"$W/err" || { echo "the build went on"; return 1; }
	cat "$W/err"
	for word in "$@"; do
		grep -q -- "$word" "$W/err" || { echo "no '$word' in the message"; return 1; }
	done
}
export -f cached_in
kernel 3
echo beta.c >"$W/kill-once"
tap_check "a compiler killed by SIGKILL stops the build, naming the probe" \
	refused probe -- "probe beta" "SIGKILL"
tap_check "... and caches nothing" cached_in "$W/out" 2
tap_check "the next build, the compiler healthy: probed again, right, cached" \
	bash -c "probe && has 'TP_HAVE_BETA 1' && has 'TP_HAVE_ALPHA 1' && cached_in '$W/out' 3"
kernel 4
echo list.c >"$W/ice"
tap_check "an internal compiler error (exit 4) stops the build" \
	refused probe -- "probe list" "exit 4" "internal compiler error"
tap_check "... and caches nothing" cached_in "$W/out" 3
rm "$W/ice"
echo alpha.c >"$W/cc1-killed"
tap_check "exit 1 with no error at a line (cc1 killed) stops the build" \
	refused probe -- "probe alpha" "Killed signal terminated program cc1"
tap_check "... and caches nothing" cached_in "$W/out" 3
rm "$W/cc1-killed"
tap_check "no compiler stops the build" refused probe "$W/no-such-cc" -- "probe alpha" "exit 127"
tap_check "... and caches nothing" cached_in "$W/out" 3

# The real compiler: an error in the file, or a header the kernel lacks,
# is absence; gcc's driver saying its cc1 was killed (-wrapper) is not.
real() {
	bash "$REPO/kmod/probe.sh" "$W/real-out/probes.h" "$W/real" "$W/kernel" \
		-- gcc "$@" >/dev/null
}
real_has() {
	grep -qx "#define $1" "$W/real-out/probes.h" ||
		{ echo "want '#define $1' in:"; cat "$W/real-out/probes.h"; return 1; }
}
mkdir -p "$W/real" "$W/real-out"
echo 'int have;' >"$W/real/have.c"
echo 'int lack = undeclared;' >"$W/real/lack.c"
echo '#include <no/such/header.h>' >"$W/real/header.c"
# An item is a -D macro: gcc may place the error at "<command-line>".
printf '/*\n * probe-items: here gone\n */\nint here;\nint f(void) { return TP_PROBE_ITEM; }\n' \
	>"$W/real/name.c"
printf '#!/bin/bash\n[[ $1 == *cc1 ]] && kill -KILL $$\nexec "$@"\n' >"$W/kill-cc1"
chmod +x "$W/kill-cc1"
export -f real real_has
tap_check "gcc: what compiles is 1" bash -c "real && real_has 'TP_HAVE_HAVE 1'"
tap_check "gcc: an error is 0" real_has "TP_HAVE_LACK 0"
tap_check "gcc: a missing header is 0" real_has "TP_HAVE_HEADER 0"
tap_check "gcc: an item that compiles is 1, one that does not 0" \
	bash -c "real_has 'TP_HAVE_NAME_HERE 1' && real_has 'TP_HAVE_NAME_GONE 0'"
tap_check "gcc with its cc1 killed stops the build" \
	refused real -wrapper "$W/kill-cc1" -- "probe " "Killed signal terminated program"
tap_check "... and caches nothing" cached_in "$W/real-out" 1

# A full disk, in a mount namespace of this test's own: a tmpfs of one
# page, filled.  With TMPDIR there, or the cache there, the build stops
# and leaves nothing behind.
# full DIR COMMAND...: COMMAND with a full tmpfs on DIR.
full() {
	unshare -m bash -c 'mount -t tmpfs -o size=4k tmpfs "$1" || exit 99
		dd if=/dev/zero of="$1/fill" bs=4k status=none 2>/dev/null
		mkdir -p "$1/out"
		shift
		"$@"' full "$@"
}
# The probes with the cache on the full disk; the files left there after.
probe_into_full() {
	bash "$REPO/kmod/probe.sh" "$W/full/out/probes.h" "$W/probes" "$W/kernel" \
		-- "$W/cc" >/dev/null || { find "$W/full/out" -type f >"$W/left"; return 1; }
}
export -f probe_into_full
mkdir -p "$W/full"
if full "$W/full" true 2>/dev/null; then
	kernel 5
	tap_check "a full TMPDIR stops the build" \
		refused full "$W/full" env TMPDIR="$W/full" bash -c probe -- "probe"
	tap_check "... and caches nothing" cached_in "$W/out" 3
	tap_check "a full disk under the cache stops the build" \
		refused full "$W/full" probe_into_full -- "cache"
	tap_check "... and leaves nothing half-written" bash -c "! grep . '$W/left'"
else
	for what in "a full TMPDIR" "a full disk under the cache"; do
		TAP_N=$((TAP_N + 1))
		echo "ok $TAP_N $what # SKIP no mount namespace here"
	done
fi

tap_check "no version number tested in kmod/" bash -c \
	"! grep -rnE 'LINUX_VERSION_CODE|KERNEL_VERSION\\(' '$REPO/kmod' --include='*.[ch]'"
tap_done
