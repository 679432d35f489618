#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# probe.sh - what the target kernel offers, decided by compiling against its
# headers rather than by its version number, which distribution kernels
# with backports do not keep in step with their APIs.
#
# usage: probe.sh OUT PROBES OBJTREE -- CC CFLAGS...
#
# kmod/Kbuild runs this where the kernel's build runs its compiler, with
# the flags it compiles the module's objects with, and kmod/compat.h reads
# the header OUT.  For each PROBES/NAME.c:
#   - TP_HAVE_NAME (upper case) is 1 when it compiles (-fsyntax-only) and,
#     where it says "probe-export: SYMBOL", OBJTREE's Module.symvers has
#     SYMBOL; else 0;
#   - where it says "probe-items: ITEM...", it is compiled once per item
#     with TP_PROBE_ITEM defined to it instead, setting TP_HAVE_NAME_ITEM,
#     and TP_HAVE_NAME_EACH(X) expands to X(ITEM), X(ITEM)... for each item
#     that compiled (an initializer's list).
# A probe is 0 only when the compiler ran and rejected it: exit 1 with an
# error at a line of a file (the probe's, or a header's it includes).
# Anything else (the compiler killed, say by the OOM killer, crashed,
# missing, failing with no such error, or a result that could not be
# written) is no answer: the build stops with the probe named, and nothing
# is cached, so that a later build probes again instead of building a
# module without the feature.
# The results are cached beside OUT, keyed by the probes, this script, the
# compiler, its flags and the kernel's configuration, release and exports:
# a second build against the same kernel costs a hash.
set -euo pipefail

(($# >= 5)) && [[ $4 == -- ]] ||
	{ echo "usage: probe.sh OUT PROBES OBJTREE -- CC CFLAGS..." >&2; exit 2; }
out=$1 probes=$2 objtree=$3
shift 4
cc=$1
shift
cflags=("$@")

shopt -s nullglob
files=("$probes"/*.c)
((${#files[@]})) || { echo "probe.sh: no probes in $probes" >&2; exit 1; }

key=$({
	cat "${BASH_SOURCE[0]}" "${files[@]}"
	printf '%s\n' "${files[@]##*/}"	# a probe renamed names another macro
	cat "$objtree/include/generated/autoconf.h" \
		"$objtree/include/generated/utsrelease.h" \
		"$objtree/include/generated/uapi/linux/version.h" \
		"$objtree/Module.symvers" 2>/dev/null || true
	"$cc" --version 2>&1 | head -n 1
	printf '%s\n' "$cc" "${cflags[@]}"
} | sha256sum | cut -c 1-16)
cache=$(dirname "$out")/.probes
cached=$cache/$key.h

# fail MESSAGE...: stop the build.
fail() {
	echo "probe.sh: $*" >&2
	exit 1
}

# OUT from the cache, replaced whole: a build never compiles against half
# of it.
install_header() {
	cmp -s "$cached" "$out" 2>/dev/null && return
	if ! { cp "$cached" "$out.$$" && mv "$out.$$" "$out"; }; then
		rm -f "$out.$$"
		fail "cannot write $out"
	fi
}

if [[ -r $cached ]]; then
	install_header
	exit 0
fi

exported() {
	[[ -r $objtree/Module.symvers ]] &&
		awk -v s="$1" '$2 == s { found = 1 } END { exit !found }' \
			"$objtree/Module.symvers"
}

# rejected ERRORS: the compiler's messages say it rejected the code: an
# error at a line of a file ("x.c:3:9: error:", "x.h:1:10: fatal error:")
# or in a macro defined by -D ("<command-line>: error:", TP_PROBE_ITEM's),
# and none from the driver itself, which is how gcc reports a cc1 that was
# killed ("gcc: fatal error: Killed signal terminated program cc1") and
# clang a crash.
rejected() {
	grep -Eq '^([^: ]+:[0-9]+(:[0-9]+)?|<command-line>): (fatal )?error: ' "$1" &&
		! grep -Eq '^[^<:][^:]*: (fatal )?error: ' "$1"
}

# why_failed STATUS: the compiler's failure, in words.
why_failed() {
	local status=$1

	if ((status > 128)); then
		echo "the compiler was killed by SIG$(kill -l "$status")"
	elif ((status == 127)); then
		echo "no compiler '$cc' (exit 127)"
	elif ((status == 1)); then
		echo "the compiler failed (exit 1) with no error at a line of code"
	else
		echo "the compiler failed (exit $status)"
	fi
}

# probe LABEL FILE [ITEM]: 1 or 0 on stdout; or "failed", and why on
# stderr with the compiler's last words.
probe() {
	local label=$1 file=$2 item=${3:-} symbol status=0 words
	local errors=$work/$label.errors
	local -a define=()

	[[ -n $item ]] && define=(-DTP_PROBE_ITEM="$item")
	"$cc" "${cflags[@]}" "${define[@]}" -fsyntax-only "$file" \
		>/dev/null 2>"$errors" || status=$?
	if ((status == 1)) && rejected "$errors"; then
		echo 0
		return
	fi
	if ((status != 0)); then
		# One write, so that parallel probes' messages do not mix.
		words=$(tail -n 3 "$errors" | sed 's/^/  /')
		printf 'probe.sh: probe %s (%s): %s\n%s' "$label" "$file" \
			"$(why_failed "$status")" "${words:+$words$'\n'}" >&2
		echo failed
		return
	fi
	symbol=$(sed -n 's/.*probe-export: *\([A-Za-z0-9_]*\).*/\1/p' "$file")
	if [[ -n $symbol ]] && ! exported "$symbol"; then
		echo 0
		return
	fi
	echo 1
}

# The items of a probe, on one line (no process substitution: a chroot
# without /proc has no /dev/fd).
items_of() {
	sed -n 's/.*probe-items://p' "$1" | tr '\n' ' '
}

work=$(mktemp -d) || fail "cannot make a directory in ${TMPDIR:-/tmp}; nothing cached"
trap 'rm -rf "$work"' EXIT
mkdir "$work/results" || fail "cannot write to $work; nothing cached"
max_jobs=$(($(nproc 2>/dev/null || echo 1) * 2))

# spawn LABEL COMMAND...: run in the background into results/LABEL, at most
# max_jobs at a time.
spawn() {
	local label=$1

	shift
	while (($(jobs -rp | wc -l) >= max_jobs)); do
		wait -n || true
	done
	"$@" >"$work/results/$label" &
}

# result LABEL: the answer of probe LABEL, 1 or 0; no answer stops the
# build.
result() {
	local answer

	answer=$(cat "$work/results/$1" 2>/dev/null) || answer=
	[[ $answer != failed ]] || fail "probe $1 gave no answer (above); nothing cached"
	[[ $answer == [01] ]] ||
		fail "probe $1's answer could not be written to $work (a full ${TMPDIR:-/tmp}?); nothing cached"
	echo "$answer"
}

release=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	"$objtree/include/generated/utsrelease.h" 2>/dev/null || true)
echo "  PROBE   the features of ${release:-$objtree} (kmod/probes)"
for file in "${files[@]}"; do
	name=$(basename "$file" .c)
	read -ra items <<<"$(items_of "$file")"
	if ((${#items[@]} == 0)); then
		spawn "$name" probe "$name" "$file"
	fi
	for item in "${items[@]}"; do
		spawn "$name.$item" probe "$name.$item" "$file" "$item"
	done
done
wait

# The header, in memory: the work directory holds the results only.
header="/* Generated by kmod/probe.sh for ${release:-$objtree}: do not edit. */"
for file in "${files[@]}"; do
	name=$(basename "$file" .c)
	macro=TP_HAVE_${name^^}
	read -ra items <<<"$(items_of "$file")"
	if ((${#items[@]} == 0)); then
		header+=$'\n'"#define $macro $(result "$name")"
		continue
	fi
	each=()
	for item in "${items[@]}"; do
		answer=$(result "$name.$item")
		header+=$'\n'"#define ${macro}_${item^^} $answer"
		((answer)) && each+=("X($item)")
	done
	header+=$'\n'"#define ${macro}_EACH(X) $(IFS=,; echo "${each[*]}" | sed 's/,/, /g')"
done
# Written beside the cache and read back before it is renamed into place:
# a concurrent build never reads half of it, and a full disk caches
# nothing.
partial=$cache/.$key.$$
if ! { mkdir -p "$cache" && printf '%s\n' "$header" >"$partial" &&
	printf '%s\n' "$header" | cmp -s - "$partial" && mv "$partial" "$cached"; }; then
	rm -f "$partial"
	fail "cannot write the cache $cached (a full disk?); nothing cached"
fi
install_header
