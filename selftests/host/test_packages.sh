#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packages a fleet installs (make deb, make rpm; tools/package.sh),
# installed as a lab machine would: with apt, into a clean Debian 12 root
# with the 6.1 cloud kernel's headers (selftests/kernels/fetch-bookworm.sh)
# and into the Debian 13 root with the newest line's (fetch-newest.sh),
# each through a throwaway overlay, so that the cached roots stay clean.
# In each: apt pulls in dkms and its build tools, DKMS builds the module
# for the kernel, and again through its autoinstall (what a kernel upgrade
# runs); the CLI runs and reports no module (exit 3); the timer is not
# enabled; purge leaves nothing.  The module DKMS built there loads in the
# guest of that kernel and answers info.  The RPMs: their versions, file
# lists, config file, requirements and dkms scriptlets.  The .debs pass
# lintian (package.sh fails on any error or warning).
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
VERSION=$(cat "$REPO/VERSION")
OUT=$REPO/build/packages
mkdir -p "$OUT"
tp_tmpdir WORK

# in_overlay NAME CMD...: CMD as root of the overlay NAME (its changes in
# $WORK/NAME/up over the root in $WORK/NAME/lower), in a mount namespace
# of its own; the root's /proc is mounted by in-root.sh.
in_overlay() {
	local o=$WORK/$1

	shift
	unshare --mount --propagation private /bin/bash -c '
		mount -t overlay overlay -o "lowerdir=$(cat "$0/lower"),upperdir=$0/up,workdir=$0/work" "$0/merged" &&
		exec "$1" "$0/merged" "${@:2}"' "$o" "$REPO/selftests/kernels/in-root.sh" "$@"
}

# overlay NAME ROOT RELEASE: a fresh overlay NAME over ROOT, with the .debs
# in /tmp and the headers of kernels other than RELEASE out of DKMS's sight
# (their build links whited out), so that it builds for RELEASE once.
overlay() {
	local o=$WORK/$1 dir mods

	rm -rf "$o" && mkdir -p "$o/up/tmp" "$o/work" "$o/merged"
	realpath "$2" >"$o/lower"
	cp "$OUT"/deb/tscprobe_*.deb "$OUT"/deb/tscprobe-dkms_*.deb "$o/up/tmp/"
	# /lib may be a link to usr/lib: the whiteouts go where it points.
	mods=$(realpath --relative-to="$2" "$2/lib/modules")
	for dir in "$2/$mods"/*; do
		[[ -e $dir/build && $(basename "$dir") != "$3" ]] || continue
		mkdir -p "$o/up/$mods/$(basename "$dir")"
		mknod "$o/up/$mods/$(basename "$dir")/build" c 0 0
	done
}

build_debs() {
	"$REPO/tools/package.sh" deb "$OUT/deb" >"$OUT/deb.log" 2>&1 ||
		{ tail -n 20 "$OUT/deb.log"; return 1; }
	local f

	for f in tscprobe_${VERSION}_amd64.deb tscprobe-dkms_${VERSION}_all.deb; do
		[[ -s $OUT/deb/$f ]] || { echo "no $f"; ls "$OUT/deb"; return 1; }
	done
}

# install NAME: apt installs both packages, pulling in dkms (its
# recommendations left out: the test's time; they build nothing).
install_debs() {
	in_overlay "$1" sh -c 'apt-get install -y -q --no-install-recommends \
		/tmp/tscprobe_*.deb /tmp/tscprobe-dkms_*.deb' \
		>"$OUT/$1-install.log" 2>&1 ||
		{ tail -n 20 "$OUT/$1-install.log"; return 1; }
}

# built NAME RELEASE: DKMS built and installed the module for RELEASE, at
# install and through autoinstall, probing RELEASE's headers; the module is
# copied to $OUT/NAME.ko.
built() {
	local ko

	grep -q "Building initial module.* for $2" "$OUT/$1-install.log" ||
		{ echo "apt's install built nothing for $2:"; tail -n 20 "$OUT/$1-install.log"; return 1; }
	in_overlay "$1" dkms autoinstall -k "$2" >>"$OUT/$1-install.log" 2>&1 ||
		{ tail -n 20 "$OUT/$1-install.log"; return 1; }
	grep -q ": installed" <<<"$(in_overlay "$1" dkms status -m tscprobe -k "$2")" ||
		{ in_overlay "$1" dkms status; tail -n 20 "$OUT/$1-install.log"; return 1; }
	grep -q "PROBE   the features of $2" \
		"$WORK/$1/up/var/lib/dkms/tscprobe/$VERSION/$2/x86_64/log/make.log" ||
		{ echo "DKMS's build did not probe $2's headers"; return 1; }
	ko=$(find "$WORK/$1/up/lib/modules/$2" "$WORK/$1/up/usr/lib/modules/$2" \
		-name 'tscprobe.ko*' 2>/dev/null | head -n 1)
	[[ -n $ko ]] || { echo "no tscprobe.ko for $2 in the overlay"; return 1; }
	case $ko in
	*.xz) xz -dc "$ko" >"$OUT/$1.ko" ;;
	*.zst) zstd -dcq "$ko" >"$OUT/$1.ko" ;;
	*) cp "$ko" "$OUT/$1.ko" ;;
	esac
}

# The CLI runs, finds no module (exit 3); the timer is installed, not
# enabled; the settings are a conffile.
cli_runs() {
	local v rc

	v=$(in_overlay "$1" tscprobe --version) || { echo "--version failed"; return 1; }
	[[ $v == *"$VERSION"* ]] || { echo "version '$v', not $VERSION"; return 1; }
	in_overlay "$1" tscprobe info >/dev/null 2>&1
	rc=$?
	((rc == 3)) || { echo "info: exit $rc, not 3 (no module)"; return 1; }
	in_overlay "$1" sh -c 'test -e /lib/systemd/system/tscprobe-textfile.timer &&
		! test -e /etc/systemd/system/timers.target.wants/tscprobe-textfile.timer &&
		dpkg-query -W -f="\${Conffiles}" tscprobe | grep -q /etc/default/tscprobe' ||
		{ echo "timer missing, enabled, or /etc/default/tscprobe no conffile"; return 1; }
}

# Purge leaves no package, file, module or DKMS state behind.
purged() {
	in_overlay "$1" apt-get purge -y -q tscprobe tscprobe-dkms >"$OUT/$1-purge.log" 2>&1 ||
		{ tail -n 20 "$OUT/$1-purge.log"; return 1; }
	in_overlay "$1" sh -c '! dpkg-query -W tscprobe tscprobe-dkms 2>/dev/null | grep -q . &&
		! ls -d /usr/src/tscprobe-* /var/lib/dkms/tscprobe /etc/default/tscprobe \
			/usr/sbin/tscprobe 2>/dev/null | grep -q . &&
		! find /lib/modules /usr/lib/modules -name "tscprobe.ko*" 2>/dev/null | grep -q .' ||
		{ echo "left behind:"; in_overlay "$1" sh -c 'dpkg -l "tscprobe*";
			ls -d /usr/src/tscprobe-* /var/lib/dkms/tscprobe /etc/default/tscprobe 2>&1;
			find /lib/modules -name "tscprobe.ko*"'; return 1; }
}

# loads NAME IMAGE: the module DKMS built loads in the guest of IMAGE and
# answers info with the packaged version.
loads() {
	cat >"$WORK/guest.sh" <<EOF
insmod /tscprobe.ko || exit 1
tscprobe info -j | jq -e '.version == "$VERSION"' || exit 1
rmmod tscprobe
EOF
	"$REPO/selftests/qemu/run-vm.sh" --kernel "$2" --smp 2 --timeout 120 \
		--add "$OUT/$1.ko:/tscprobe.ko" --add "$REPO/build/tscprobe:/bin/tscprobe" \
		--add "$(command -v jq):/bin/jq" "$WORK/guest.sh" >"$OUT/$1-vm.log" 2>&1 ||
		{ tail -n 20 "$OUT/$1-vm.log"; return 1; }
}

# A Debian root: install, build, run, load, purge.
on_root() {
	local name=$1 root=$2 release=$3 image=$4

	if [[ ! -e $root/.tscprobe-chroot ]]; then
		tap_check "$name: the root is there (make deps)" false
		return
	fi
	overlay "$name" "$root" "$release"
	tap_check "$name: apt installs both packages, and dkms" install_debs "$name"
	tap_check "$name: DKMS built the module for $release, autoinstall too" \
		built "$name" "$release"
	tap_check "$name: the CLI runs, no module: exit 3; timer not enabled" cli_runs "$name"
	tap_check "$name: the module DKMS built loads in the guest" loads "$name" "$image"
	tap_check "$name: purge leaves nothing" purged "$name"
}

# The RPMs: version, files, config, requirements, dkms scriptlets.
rpms_right() {
	local cli=$OUT/rpm/tscprobe-$VERSION-1.x86_64.rpm
	local dkms=$OUT/rpm/tscprobe-dkms-$VERSION-1.noarch.rpm f files scripts

	"$REPO/tools/package.sh" rpm "$OUT/rpm" >"$OUT/rpm.log" 2>&1 ||
		{ tail -n 20 "$OUT/rpm.log"; return 1; }
	files=$(rpm -qlp "$cli" 2>/dev/null)
	for f in /usr/sbin/tscprobe /usr/sbin/tscprobe-textfile \
		/usr/share/man/man8/tscprobe.8 /usr/share/man/man8/tscprobe-textfile.8 \
		/usr/lib/systemd/system/tscprobe-textfile.timer \
		/usr/share/bash-completion/completions/tscprobe /etc/default/tscprobe; do
		grep -q "^$f" <<<"$files" || { echo "$cli lacks $f"; return 1; }
	done
	grep -qx /etc/default/tscprobe <<<"$(rpm -qcp "$cli" 2>/dev/null)" ||
		{ echo "/etc/default/tscprobe is no config file"; return 1; }
	grep -qx "/usr/src/tscprobe-$VERSION/dkms.conf" <<<"$(rpm -qlp "$dkms" 2>/dev/null)" ||
		{ echo "$dkms lacks dkms.conf"; return 1; }
	grep -qx dkms <<<"$(rpm -qp --requires "$dkms" 2>/dev/null)" ||
		{ echo "$dkms does not require dkms"; return 1; }
	scripts=$(rpm -qp --scripts "$dkms" 2>/dev/null)
	grep -q "dkms add -m tscprobe -v $VERSION" <<<"$scripts" &&
		grep -q "dkms remove -m tscprobe -v $VERSION --all" <<<"$scripts" ||
		{ echo "$scripts"; return 1; }
}

# The release of a KDIR: /lib/modules/RELEASE/build or
# /usr/src/linux-headers-RELEASE.
release_of() {
	local kdir

	kdir=$("$@") || return 1
	if [[ $(basename "$kdir") == build ]]; then
		basename "$(dirname "$kdir")"
	else
		basename "$kdir" | sed 's/^linux-headers-//'
	fi
}

tap_check "make deb: both packages, lintian clean" build_debs
if [[ -s $OUT/deb/tscprobe_${VERSION}_amd64.deb ]]; then
	r61=$(release_of "$REPO/tools/kernels.sh" kdir 6.1-cloud)
	on_root bookworm "$("$REPO/selftests/kernels/fetch-bookworm.sh" root)" "$r61" \
		"/boot/vmlinuz-$r61"
	rn=$(release_of "$REPO/selftests/kernels/fetch-newest.sh" kdir cloud)
	troot=$("$REPO/selftests/kernels/fetch-newest.sh" root)
	on_root trixie "$troot" "$rn" "$troot/boot/vmlinuz-$rn"
fi
tap_check "make rpm: files, config, requirements and dkms scriptlets" rpms_right
tap_done
