#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Installing from the source tree: make install and make uninstall under
# DESTDIR, the installed man page and bash completion, modinfo of the
# module, and (as root) make dkms's source tree built by DKMS's own
# autoinstall (what a kernel upgrade runs) against the installed
# cloud-kernel headers, which it probes as a plain build does.  DKMS works
# in trees of the test's own (--dkmstree, --sourcetree, --installtree):
# the system's /var/lib/dkms, /usr/src and /lib/modules are another
# build's, which may run at the same time.  The packages' DKMS builds are
# test_packages.sh's.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
VERSION=$(cat "$REPO/VERSION")
KDIR=$(make -s -C "$REPO" --no-print-directory --eval 'kdir: ; @echo $(KDIR)' kdir)
KVER=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$KDIR/include/generated/utsrelease.h")
tp_tmpdir DEST

files=(lib/modules/$KVER/extra/tscprobe.ko usr/sbin/tscprobe
       usr/share/man/man8/tscprobe.8
       usr/share/bash-completion/completions/tscprobe)

all_installed() {
	local f
	for f in "${files[@]}"; do
		[[ -s $DEST/$f ]] || { echo "missing: $f"; return 1; }
	done
	[[ -x $DEST/usr/sbin/tscprobe ]]
}

none_installed() {
	local f
	for f in "${files[@]}"; do
		[[ ! -e $DEST/$f ]] || { echo "left behind: $f"; return 1; }
	done
}

completes() {
	local got
	got=$(bash -c "source '$DEST/usr/share/bash-completion/completions/tscprobe'
		COMP_WORDS=(tscprobe $1); COMP_CWORD=$2; _tscprobe; echo \${COMPREPLY[*]}")
	[[ $got == "$3" ]] || { echo "completing '$1': got '$got', want '$3'"; return 1; }
}

modinfo_has() {
	local v
	v=$(/sbin/modinfo -F "$1" "$REPO/kmod/tscprobe.ko")
	[[ $v == "$2" ]] || { echo "modinfo $1: '$v', want '$2'"; return 1; }
}

# What DKMS runs when a kernel is installed: the module built, probes and
# all, and installed for that kernel.
dkms_autoinstalls() {
	local trees log
	local -a own

	tp_tmpdir trees
	own=(--dkmstree "$trees/dkms" --sourcetree "$trees/src" --installtree "$trees/lib")
	log=$trees/dkms/tscprobe/$VERSION/$KVER/x86_64/log/make.log
	mkdir -p "$trees/dkms" "$trees/lib/$KVER" || return 1
	make -s -C "$REPO" dkms-source DKMS_SRC="$trees/src/tscprobe-$VERSION" >/dev/null &&
		dkms add -m tscprobe -v "$VERSION" "${own[@]}" >/dev/null &&
		dkms autoinstall -k "$KVER" "${own[@]}" >/dev/null || return 1
	grep -q ': installed' <<<"$(dkms status -m tscprobe -v "$VERSION" -k "$KVER" "${own[@]}")" ||
		{ echo "not installed: $(dkms status -m tscprobe "${own[@]}")"; return 1; }
	[[ -f $trees/lib/$KVER/updates/dkms/tscprobe.ko ]] ||
		{ echo "no module in $trees/lib/$KVER/updates/dkms"; return 1; }
	grep -q "PROBE   the features of $KVER" "$log" ||
		{ echo "DKMS's build did not probe $KVER ($log)"; return 1; }
}

tap_check "make install DESTDIR PREFIX=/usr" \
	make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr
tap_check "every file installed" all_installed
tap_check "installed man page renders" man -l "$DEST/usr/share/man/man8/tscprobe.8"
tap_check "completion of commands" completes "no" 1 "noise"
tap_check "completion of --clock" completes "noise --clock r" 3 "rdtscp"
tap_check "make uninstall DESTDIR PREFIX=/usr" \
	make -s -C "$REPO" uninstall DESTDIR="$DEST" PREFIX=/usr
tap_check "every file removed" none_installed
tap_check "modinfo version" modinfo_has version "$VERSION"
tap_check "modinfo license" modinfo_has license GPL
tap_check "modinfo author" modinfo_has author "The tscprobe authors"
tap_check "modinfo description" bash -c "/sbin/modinfo -F description '$REPO/kmod/tscprobe.ko' | grep -q 'interrupts off'"
tap_check "dkms.conf version is VERSION" grep -qx "PACKAGE_VERSION=\"$VERSION\"" "$REPO/dkms.conf"
if ((EUID == 0)); then
	tap_check "DKMS autoinstall builds and installs for $KVER" dkms_autoinstalls
else
	tap_check "DKMS build needs root" false
fi
tap_done
