#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rules of the house that keep user/ in layers (the admin guide's
# "Where things are"): a project header is written one way, its path from
# the tree's root ("user/lib/result.h", "core/noise.h"; a test's own
# helpers beside it by their name); user/lib/ includes nothing of the
# commands above it; no two headers of the project share a name; no
# include loop in user/, kmod/ or core/.  Each rule is first shown to
# catch a tree that breaks it, then run on this one.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The C files of ROOT's folders FOLDER..., one per line.
c_files() {
	local root=$1

	shift
	(cd "$root" && find "$@" -name '*.[ch]' -type f 2>/dev/null | sort)
}

# spelled_from_root ROOT: every quoted include of user/ and selftests/
# names a file from the root, or (a test's helper) one beside it.
spelled_from_root() {
	local root=$1 f inc bad=0

	while read -r f; do
		while read -r inc; do
			[[ -f $root/$inc && $inc == */* ]] && continue
			[[ $f == selftests/* && $inc != */* &&
				-f $root/$(dirname "$f")/$inc ]] && continue
			# Generated beside the build (kselftest_harness.h).
			[[ $f == selftests/* && $inc != */* &&
				! -e $root/$inc ]] && continue
			echo "$f: #include \"$inc\""
			bad=1
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$f")
	done < <(c_files "$root" user selftests)
	return $bad
}

# lib_below_commands ROOT: user/lib/ includes no header of user/ above it.
lib_below_commands() {
	local root=$1

	! (cd "$root" && grep -HnE '#[[:space:]]*include[[:space:]]*"user/[^/"]*"' \
		$(c_files "$root" user/lib))
}

# header_names_unique ROOT: no file name of a header twice in the tree.
header_names_unique() {
	local root=$1 twice

	twice=$(c_files "$root" core kmod user include selftests |
		grep '\.h$' | xargs -r -n1 basename | sort | uniq -d)
	[[ -z $twice ]] || { echo "twice: $twice"; return 1; }
}

# room_includes ROOT: "A B" for every project header B that a file of
# room A includes, in user/, kmod/ and core/.  A room is a file with its
# header (user/lib/live.c and user/lib/live.h are user/lib/live): a .c
# that includes B's header while B's .h includes A's header is a loop.
# An include is looked up beside its file (kmod's "run.h"), then from the
# root; one found in neither is no project header.
room_includes() {
	local root=$1 f inc to

	while read -r f; do
		while read -r inc; do
			to=$(dirname "$f")/$inc
			[[ -f $root/$to ]] || to=$inc
			[[ -f $root/$to && ${to%.*} != "${f%.*}" ]] &&
				echo "${f%.*} ${to%.*}"
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$f")
	done < <(c_files "$root" user kmod core)
}

# no_include_loop ROOT: the rooms' includes sort in layers; tsort names
# the rooms of every loop it meets.
no_include_loop() {
	local root=$1 loops

	loops=$(room_includes "$root" | sort -u | tsort 2>&1 >/dev/null)
	[[ -z $loops ]] || {
		echo "$loops" | sed 's/^tsort: //; s/^-: input contains a/an include/'
		return 1
	}
}

# A tree of one header of each layer and a command, broken as asked.
broken_tree() {
	local dir=$1 how=$2

	mkdir -p "$dir/user/lib" "$dir/core" "$dir/kmod" "$dir/selftests/host"
	echo '#include "user/lib/format.h"' >"$dir/user/show_cmd.c"
	echo '#include "core/noise.h"' >"$dir/user/lib/format.c"
	touch "$dir/user/lib/format.h" "$dir/core/noise.h" "$dir/user/commands.h"
	echo '#include "jq.h"' >"$dir/selftests/host/test_x.c"
	touch "$dir/selftests/host/jq.h"
	case $how in
	spelling) echo '#include "format.h"' >>"$dir/user/lib/format.c" ;;
	test-spelling) echo '#include "lib/format.h"' >>"$dir/selftests/host/test_x.c" ;;
	layers) echo '#include "user/commands.h"' >>"$dir/user/lib/format.c" ;;
	names) touch "$dir/kmod/noise.h" ;;
	loop) echo '#include "user/lib/format.h"' >"$dir/core/noise.h" ;;
	kmod-loop)
		echo '#include "run.h"' >"$dir/kmod/info.c"
		echo '#include "info.h"' >"$dir/kmod/run.h"
		touch "$dir/kmod/info.h" ;;
	esac
}

# catches RULE HOW: the rule fails on a tree broken HOW, passes on a whole one.
catches() {
	local trees

	tp_tmpdir trees
	broken_tree "$trees/whole" none
	broken_tree "$trees/broken" "$2"
	"$1" "$trees/whole" && ! "$1" "$trees/broken"
}

tap_check "a header without its folder is caught" \
	catches spelled_from_root spelling
tap_check "a test's user/ header from user/ is caught" \
	catches spelled_from_root test-spelling
tap_check "user/lib/ including a command's header is caught" \
	catches lib_below_commands layers
tap_check "two headers of one name are caught" \
	catches header_names_unique names
tap_check "an include loop across layers is caught" \
	catches no_include_loop loop
tap_check "an include loop of a folder's own headers is caught" \
	catches no_include_loop kmod-loop
tap_check "every project header is written from the root" \
	spelled_from_root "$REPO"
tap_check "user/lib/ includes nothing of the commands" \
	lib_below_commands "$REPO"
tap_check "no two headers share a name" \
	header_names_unique "$REPO"
tap_check "no include loop in user/, kmod/ or core/" \
	no_include_loop "$REPO"
tap_done
