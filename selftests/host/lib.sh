# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - the host test scripts' preamble (bash), sourced first:
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Unset variables are errors and a pipe fails with any of its commands;
# REPO is the tree, CLI the CLI built in it; TAP comes from
# selftests/tap.sh; tp_tmpdir makes directories removed at exit.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC2034 # for the scripts that source this
CLI=$REPO/build/tscprobe
# shellcheck source=selftests/tap.sh
source "$REPO/selftests/tap.sh"
TP_TMPDIRS=()
trap 'rm -rf "${TP_TMPDIRS[@]}"' EXIT

# tp_tmpdir NAME: a new directory, removed at exit, in the variable NAME.
tp_tmpdir() {
	local dir

	dir=$(mktemp -d) || exit 1
	TP_TMPDIRS+=("$dir")
	printf -v "$1" %s "$dir"
}
