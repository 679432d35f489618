#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Commit subjects since CONTRIBUTING.md set the rule: at most 72
# characters, prefixed by one of the areas it names.  Without the history
# (an export, a shallow clone that lacks the rule's commit) there is
# nothing to check, and the test says so as a skip.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The subjects on standard input that break the rule, printed; false if any.
check_subjects() {
	awk 'length($0) > 72 ||
		$0 !~ /^(kmod|core|cli|selftests|docs|build): [^ ]/ {
			print; bad = 1
		}
		END { exit bad }'
}

# check_one EXPECT SUBJECT: the rule says EXPECT (good or bad) of SUBJECT.
check_one() {
	if [[ $1 == good ]]; then
		check_subjects <<<"$2"
	else
		! check_subjects <<<"$2"
	fi
}

tap_check "a subject with an area's prefix is good" \
	check_one good "kmod: validate a START whole before attaching probes"
tap_check "a prefix that is no area is refused" \
	check_one bad "noise: count SMIs through a PMU counter"
tap_check "a subject without a prefix is refused" \
	check_one bad "validate a START whole"
tap_check "a subject of 73 characters is refused" \
	check_one bad "cli: $(printf '%068d' 0)"

base=$(git -C "$REPO" log --diff-filter=A --format=%H -- CONTRIBUTING.md \
	2>/dev/null | tail -n 1)
TAP_N=$((TAP_N + 1))
if [[ -z $base ]]; then
	echo "ok $TAP_N # SKIP no history of CONTRIBUTING.md in this tree"
elif git -C "$REPO" log --no-merges --format=%s "$base..HEAD" >"$TAP_LAST" &&
	check_subjects <"$TAP_LAST" >"$TAP_LAST.bad"; then
	echo "ok $TAP_N every subject since CONTRIBUTING.md follows it"
else
	TAP_FAIL=$((TAP_FAIL + 1))
	sed 's/^/# /' "$TAP_LAST.bad"
	echo "not ok $TAP_N every subject since CONTRIBUTING.md follows it"
fi
rm -f "$TAP_LAST.bad"
tap_done
