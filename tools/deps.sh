#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install, with apt, only what tscprobe's build and tests need and
# this machine lacks.  Idempotent, and silent when everything is there.
#
# usage: deps.sh [--for test|run] [--list]
#
# --for test (the default, "make deps" and "make test"): the whole test
# matrix.  --for run ("make run"): where the running kernel can load
# modules, its headers, a compiler, libmnl and kmod; elsewhere those for
# Debian's cloud kernel and what booting it in QEMU takes (RUN_VM_PACKAGES).
# --list prints the packages of that set, one per line, and installs
# nothing.
set -euo pipefail

# The kernels the module is built for and tested in (tools/kernels.sh):
# Debian 12's 6.1 cloud and PREEMPT_RT kernels, and the 6.12 LTS cloud and
# rt kernels (bookworm-security carries them as linux-image-6.12-*; where it
# does not, bookworm-backports does, see install_612 below), each with its
# headers.  debootstrap makes the trixie root in which the newest line's
# kernels are built with their own compiler, and the debug guest kernel
# from their source (selftests/kernels/fetch-newest.sh, run last: it installs in
# that root only).  QEMU for the VM tests, busybox and cpio for the guest's
# initramfs, libmnl for the CLI, the kernel source for kselftest headers
# and checkpatch, sparse, rt-tests for oslat (benchmarks), jq to parse the
# CLI's JSON inside the guest, python3-yaml to check the netlink spec, dkms
# and man-db to test the packaging, debhelper, dh-dkms, lintian and rpm to
# build and check the packages (make deb, make rpm; their test installs
# them into a clean Debian 12 root, selftests/kernels/fetch-bookworm.sh,
# made last with the trixie root), the Prometheus parser, PIL and Chromium
# to parse the reports back and render their SVGs. python3-jsonschema
# checks the spec against the kernel's netlink schema (ynl's own check);
# linux-source-6.12 (install_612_source) holds the kernel's ynl tooling.
# gcc-aarch64-linux-gnu and its C library cross-build for arm64 ("make
# ARCH=arm64"; the arm64 packages are fetched by
# selftests/kernels/fetch-arm64.sh), and qemu-system-arm boots its guest.
PACKAGES=(
	build-essential
	linux-image-cloud-amd64
	linux-headers-cloud-amd64
	linux-image-rt-amd64
	linux-headers-rt-amd64
	debootstrap
	qemu-system-x86
	busybox-static
	cpio
	libmnl-dev
	linux-source-6.1
	sparse
	rt-tests
	jq
	python3-yaml
	python3-jsonschema
	python3-prometheus-client
	python3-pil
	chromium
	dkms
	debhelper
	dh-dkms
	lintian
	rpm
	man-db
	xz-utils
	kmod
	gcc-aarch64-linux-gnu
	libc6-dev-arm64-cross
	qemu-system-arm
)

# "make run": building the CLI and the module, and loading it here.
RUN_PACKAGES=(
	build-essential
	libmnl-dev
	kmod
)
# ... and where the running kernel cannot load modules (no /proc/modules),
# the kernel the demo boots and builds for, and the guest's makings.
RUN_VM_PACKAGES=(
	linux-image-cloud-amd64
	linux-headers-cloud-amd64
	qemu-system-x86
	busybox-static
	cpio
)
# Whether modules load here; the host tests point it at a file of theirs.
PROC_MODULES=${TSCPROBE_PROC_MODULES:-/proc/modules}

# The 6.12 kernels by flavour: found installed when /lib/modules has one.
FLAVOURS_612=(cloud rt)
LOG=/tmp/tscprobe-apt.log
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BPO_LIST=/etc/apt/sources.list.d/tscprobe-bookworm-backports.sources

die() {
	tail -n 20 "$LOG" >&2
	echo "deps: $* (log: $LOG)" >&2
	exit 1
}

installed() {
	[[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

have_612() {
	compgen -G "/lib/modules/6.12.*-$1-amd64/build" >/dev/null &&
		compgen -G "/boot/vmlinuz-6.12.*-$1-amd64" >/dev/null
}

# bookworm-backports from the mirror the machine already uses: the URIs of
# its entry for "bookworm" (deb822 or one-line format), never a host name
# of ours.
enable_backports() {
	local uri

	[[ -e $BPO_LIST ]] && return 0
	if apt-cache policy 2>/dev/null | grep -q 'a=bookworm-backports'; then
		return 0
	fi
	uri=$("$(dirname "${BASH_SOURCE[0]}")/apt-mirror.sh") || exit 1
	echo "deps: enabling bookworm-backports from $uri"
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" >"$BPO_LIST"
	UPDATED=0	# the new suite's index is needed even after an update
	update_once
}

update_once() {
	((UPDATED)) && return 0
	apt-get update -q >>"$LOG" 2>&1 || die "apt-get update failed"
	UPDATED=1
}

apt_install() {
	apt-get install -y -q --no-install-recommends "$@" >>"$LOG" 2>&1
}

# install_or_update PKG...: install; on failure refresh the index (once per
# run: a fresh machine has none) and try again.
install_or_update() {
	apt_install "$@" && return 0
	((UPDATED)) && return 1
	update_once
	apt_install "$@"
}

# One 6.12 flavour: Debian 12's versioned meta-packages (security updates)
# when the index has them, else the kernel bookworm-backports' meta-package
# points at, installed by its own name so that the 6.1 meta-packages stay.
install_612() {
	local flavour=$1 metas=("linux-image-6.12-$1-amd64" "linux-headers-6.12-$1-amd64")
	local ver image

	install_or_update "${metas[@]}" && return 0
	enable_backports
	ver=$(apt-cache madison "linux-image-$flavour-amd64" |
		awk -F' *[|] *' '$3 ~ /bookworm-backports/ { print $2; exit }')
	[[ -n $ver ]] || die "no 6.12 $flavour kernel in bookworm-security or bookworm-backports"
	image=$(apt-cache show "linux-image-$flavour-amd64=$ver" |
		sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n 1)
	apt_install -t bookworm-backports "$image" "${image/linux-image/linux-headers}" ||
		die "apt-get install $image failed"
}

# linux-source-6.12, for tools/net/ynl: from bookworm-security when the
# index has it, else from bookworm-backports.
install_612_source() {
	install_or_update linux-source-6.12 && return 0
	enable_backports
	apt_install -t bookworm-backports linux-source-6.12 ||
		die "apt-get install linux-source-6.12 failed"
}

# The trixie root and the newest kernels (a no-op once there, but for a
# daily look at the index), and the clean bookworm root the packages are
# installed into (a no-op once there).
newest() {
	if ((EUID != 0)) && [[ ! -e $REPO/build/trixie/root/.tscprobe-chroot ||
			! -e $REPO/build/bookworm/root/.tscprobe-chroot ]]; then
		echo "deps: the trixie or bookworm root is missing: run 'make deps' as root" >&2
		exit 1
	fi
	((EUID == 0)) || return 0
	"$REPO/selftests/kernels/fetch-newest.sh" || exit 1
	"$REPO/selftests/kernels/fetch-bookworm.sh" || exit 1
}

# The packages "make run" needs on this machine.
run_packages() {
	printf '%s\n' "${RUN_PACKAGES[@]}"
	if [[ -e $PROC_MODULES ]]; then
		echo "linux-headers-$(uname -r)"
	else
		printf '%s\n' "${RUN_VM_PACKAGES[@]}"
	fi
}

# for_run LIST: install what run_packages names and this machine lacks
# (LIST 1: print the names instead).
for_run() {
	local list=$1 missing=() pkg

	if ((list)); then
		run_packages
		return 0
	fi
	for pkg in $(run_packages); do
		installed "$pkg" || missing+=("$pkg")
	done
	((${#missing[@]})) || return 0
	if ((EUID != 0)); then
		echo "deps: missing: ${missing[*]}" >&2
		echo "deps: run 'make run' as root (it uses apt-get)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	: >"$LOG"
	UPDATED=0
	echo "deps: installing ${missing[*]}"
	install_or_update "${missing[@]}" || die "apt-get install ${missing[*]} failed"
	echo "deps: done"
}

# for_test LIST: the same for the whole test matrix.
for_test() {
	local list=$1 missing=() flavours=() pkg flavour source_612=0

	if ((list)); then
		printf '%s\n' "${PACKAGES[@]}"
		for flavour in "${FLAVOURS_612[@]}"; do
			echo "linux-image-6.12-$flavour-amd64"
			echo "linux-headers-6.12-$flavour-amd64"
		done
		echo linux-source-6.12
		return 0
	fi
	for pkg in "${PACKAGES[@]}"; do
		installed "$pkg" || missing+=("$pkg")
	done
	for flavour in "${FLAVOURS_612[@]}"; do
		have_612 "$flavour" || flavours+=("$flavour")
	done
	installed linux-source-6.12 || source_612=1
	if ((${#missing[@]} + ${#flavours[@]} + source_612 == 0)); then
		newest
		exit 0
	fi

	if ((EUID != 0)); then
		echo "deps: missing: ${missing[*]} ${flavours[*]/%/ 6.12 kernel}$( ((source_612)) && echo " linux-source-6.12")" >&2
		echo "deps: run 'make deps' as root (it uses apt-get)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	: >"$LOG"
	UPDATED=0
	if ((${#missing[@]})); then
		echo "deps: installing ${missing[*]}"
		install_or_update "${missing[@]}" || die "apt-get install failed"
	fi
	for flavour in "${flavours[@]}"; do
		echo "deps: installing the 6.12 $flavour kernel and headers"
		install_612 "$flavour"
	done
	if ((source_612)); then
		echo "deps: installing linux-source-6.12 (the kernel's ynl tooling)"
		install_612_source
	fi
	newest
	echo "deps: done"
}

main() {
	local what=test list=0

	while (($#)); do
		case $1 in
		--for)
			[[ ${2:-} == run || ${2:-} == test ]] ||
				{ echo "deps: --for takes run or test" >&2; exit 2; }
			what=$2
			shift 2
			;;
		--list)
			list=1
			shift
			;;
		*)
			echo "usage: deps.sh [--for test|run] [--list]" >&2
			exit 2
			;;
		esac
	done
	"for_$what" "$list"
}

main "$@"
