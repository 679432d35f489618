#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# private-apt.sh - sourced by the fetch scripts that unpack Debian packages
# without installing them (fetch-5.10.sh, fetch-arm64.sh): an apt state of
# their own under a directory of build/, so that the machine's apt state
# is left alone and its installed packages and pins never answer for
# another suite or architecture.  Signatures are checked against
# debian-archive-keyring.

# private_apt_init DIR: empty sources, lists, cache, status and pins under
# DIR; sets APT_OPTS, the options every apt-get and apt-cache call takes
# (add the sources to DIR/parts/*.sources).
private_apt_init() {
	local dir=$1

	mkdir -p "$dir/parts" "$dir/none" "$dir/lists/partial" "$dir/cache/archives/partial"
	: >"$dir/status"
	: >"$dir/preferences"
	# shellcheck disable=SC2034 # for the scripts that source this file
	APT_OPTS=(-q -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$dir/parts"
		  -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		  -o "Dir::Etc::Preferences=$dir/preferences" -o "Dir::Etc::PreferencesParts=$dir/none"
		  -o "Dir::State::status=$dir/status")
}
