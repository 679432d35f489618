# SPDX-License-Identifier: GPL-2.0
#
# tscprobe: one entry point.
#
#   make            the module, the CLI and the selftests
#   make deps       install what is missing (apt, as root)
#   make test       host tests, kernel gates, then the VM suite  (= make check)
#   make soak       the measurements on every CPU in the VM for SOAK_MINUTES
#                   (default 10), checking that the kernel stays healthy
#   make run        build, load the module (or boot the test VM) and measure
#   make bench      userspace benchmarks against a bare loop and peers
#   make nl-gen     kmod/netlink_gen.[ch], the policies, from the netlink spec
#   make install    module, CLI, man page, bash completion, the fleet's
#                   systemd units, disabled (DESTDIR, PREFIX)
#   make uninstall
#   make dkms       add, build and install the module with DKMS
#   make clean
#
#   make check-quick  the gates, host tests and the VM suite on the default
#                   kernel only: the day-to-day loop (make test does it all)
#   make vm-test    the VM suite on one kernel, or some of it:
#                   make vm-test KERNEL=6.1-cloud TESTS=test_sources.sh
#                   (selftests/README.md)
#
# Kernels (tools/kernels.sh): KDIR defaults to the running kernel's build
# tree when it exists, else to Debian 12's 6.1 cloud kernel's headers; the
# VM boots the image that matches KDIR (VM_KERNEL overrides it, and must be
# the kernel the module was built for).  KERNEL=NAME takes a kernel of the
# test matrix instead: 6.1-cloud, 6.1-rt, 6.12-cloud, 6.12-rt, newest-cloud,
# newest-rt, debug, 5.10-cloud or backport, as in "make vm-test
# KERNEL=newest-rt".  A KDIR in the trixie root (newest-*, debug) is built
# there, with that kernel's compiler (tools/build-module.sh).  "make test
# KERNELS=all" runs the full VM suite on every kernel of the matrix (by
# default: on 6.1-cloud, newest-cloud and debug, and a smoke run on the
# others).
#
# Nothing is computed from the installed kernels before "make deps" has
# run: the targets that install first call a second make for the rest.

SHELL := /bin/bash
.DEFAULT_GOAL := all

VERSION := $(shell cat VERSION)
BUILD := build

# ARCH=arm64, the kernel's name for it: the CLI, the module and the guest
# tests cross-built for arm64 (Debian's gcc-aarch64-linux-gnu) into
# build/arm64, against the arm64 cloud kernel and the libraries that
# selftests/kernels/fetch-arm64.sh unpacks under build/arm64/root.
ifeq ($(ARCH),arm64)
ifneq ($(shell uname -m),aarch64)
CROSS_COMPILE ?= aarch64-linux-gnu-
CC := $(CROSS_COMPILE)gcc
ARM64_ROOT := build/arm64/root
SYSROOT_CFLAGS := -isystem $(ARM64_ROOT)/usr/include
LDFLAGS += -L$(ARM64_ROOT)/usr/lib/aarch64-linux-gnu
KERNEL ?= arm64-cloud
# Fetched and unpacked on first use; its last step writes the stamp.
SYSROOT := build/arm64/kdir
endif
BUILD := build/arm64
endif

# KERNEL is resolved only when used (KERNEL=debug may build the kernel).
ifdef KERNEL
KDIR ?= $(shell tools/kernels.sh kdir $(KERNEL))
else ifeq ($(origin KDIR),undefined)
KDIR := $(shell tools/kernels.sh default 2>/dev/null)
endif
# The release the module is built for (Debian's headers say it here).
KVER = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
VM_KERNEL ?= $(shell tools/kernels.sh image $(KDIR))
VM_SMP ?= 4
# Parallel jobs for the builds that "make test" and "make run" start.
NPROC := $(shell nproc 2>/dev/null || echo 1)

CC ?= gcc
# "make V=1" shows every command.
ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @echo
endif
WARN := -Wall -Wextra -Werror
# A project include names its folder, from the including file's ("lib/nl.h"
# in user/) or from the top ("core/noise.h"); include/uapi comes first, so
# <linux/tscprobe.h> is this tree's.
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -Iinclude/uapi -I. \
	-DTSCPROBE_VERSION='"$(VERSION)"' $(SYSROOT_CFLAGS) $(EXTRA_CFLAGS)
# kselftest_harness.h is written for -Wall: its handler leaves a parameter
# unused and its EXPECT macros compare int literals with unsigned values.
TEST_CFLAGS := $(USER_CFLAGS) -I$(BUILD)/kselftest -Wno-unused-parameter \
	-Wno-sign-compare
LDLIBS_CLI := -lmnl -lpthread -lm

CORE_SRCS := $(wildcard core/*.c)
USER_LIB_SRCS := $(filter-out user/main.c,$(wildcard user/*.c user/lib/*.c))
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/obj/%.o)
USER_LIB_OBJS := $(USER_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
HEADERS := $(wildcard include/uapi/linux/*.h core/*.h core/arch/*.h user/*.h user/lib/*.h)

CLI := $(BUILD)/tscprobe
HOST_TESTS := $(patsubst selftests/host/%.c,$(BUILD)/host/%,$(wildcard selftests/host/test_*.c))
# The packages' test is its own target too: make test runs it beside the
# other host tests (selftests/run.sh), whose "make host-test" then gives
# HOST_SKIP=$(PACKAGE_TEST).
PACKAGE_TEST := selftests/host/test_packages.sh
HOST_SCRIPTS := $(filter-out $(HOST_SKIP),$(wildcard selftests/host/test_*.py selftests/host/test_*.sh))
HOST_BENCHES := $(patsubst selftests/host/%.c,$(BUILD)/host/%,$(wildcard selftests/host/bench_*.c))
VM_TESTS := $(patsubst selftests/vm/%.c,$(BUILD)/vm-tests/%,$(wildcard selftests/vm/*.c))
KSELFTEST_H := $(BUILD)/kselftest/kselftest_harness.h
LINUX_SRC_TAR := $(firstword $(wildcard /usr/src/linux-source-6.1.tar.*))
# A cross-built module stands apart from kmod/'s, the default kernel's.
MODULE := $(if $(filter arm64,$(ARCH)),$(BUILD)/mod/kmod/tscprobe.ko,kmod/tscprobe.ko)

# Plain make: what a lab machine runs.  The tests have their own target.
all: module cli

# ---- userspace ------------------------------------------------------------

$(BUILD)/obj/%.o: %.c $(HEADERS) | $(SYSROOT)
	@mkdir -p $(dir $@)
	$(quiet) "  CC      $<"
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(CLI): $(BUILD)/obj/user/main.o $(USER_LIB_OBJS) $(CORE_OBJS)
	$(quiet) "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_CLI)

cli: $(CLI)

ifdef SYSROOT
$(SYSROOT):
	$(Q)selftests/kernels/fetch-arm64.sh >/dev/null
endif

# The real kselftest headers, from Debian's kernel source, never copied in.
$(KSELFTEST_H):
	@test -n "$(LINUX_SRC_TAR)" || { echo "linux-source-6.1 is not installed: run 'make deps'" >&2; exit 1; }
	@mkdir -p $(BUILD)/kselftest
	$(quiet) "  TAR     kselftest headers from $(LINUX_SRC_TAR)"
	$(Q)tar -xf $(LINUX_SRC_TAR) -C $(BUILD)/kselftest --strip-components=4 \
		linux-source-6.1/tools/testing/selftests/kselftest.h \
		linux-source-6.1/tools/testing/selftests/kselftest_harness.h
	@touch $@

$(BUILD)/host/%: selftests/host/%.c $(wildcard selftests/host/*.h) $(CORE_OBJS) $(USER_LIB_OBJS) $(KSELFTEST_H) $(HEADERS)
	@mkdir -p $(dir $@)
	$(quiet) "  CC      $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< $(CORE_OBJS) $(USER_LIB_OBJS) $(LDLIBS_CLI)

# It compiles core/noise.c itself, on a synthetic clock: without core's copy.
NOISE_STEPS_OBJS := $(filter-out $(BUILD)/obj/core/noise.o,$(CORE_OBJS))
$(BUILD)/host/test_noise_steps: selftests/host/test_noise_steps.c core/noise.c $(NOISE_STEPS_OBJS) $(KSELFTEST_H) $(HEADERS)
	@mkdir -p $(dir $@)
	$(quiet) "  CC      $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< $(NOISE_STEPS_OBJS)

$(BUILD)/vm-tests/%: selftests/vm/%.c $(wildcard selftests/vm/*.h) $(CORE_OBJS) $(USER_LIB_OBJS) $(KSELFTEST_H) $(HEADERS)
	@mkdir -p $(dir $@)
	$(quiet) "  CC      $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< $(CORE_OBJS) $(USER_LIB_OBJS) $(LDLIBS_CLI)

selftests: $(HOST_TESTS) $(HOST_BENCHES) $(VM_TESTS)

# The kernel's ynl tooling (tools/net/ynl: cli.py, lib/, ynl-gen-c.py), the
# netlink schemas and MAINTAINERS from Debian's linux-source-6.12, never
# copied in: a small kernel tree in build/ynl that the spec's tests and the
# guest's ynl test use.  ynl-gen-c needs MAINTAINERS: it climbs from the
# spec to the directory that has one, without end when none does.
LINUX_612_TAR := $(firstword $(wildcard /usr/src/linux-source-6.12.tar.*))
YNL := $(BUILD)/ynl
YNL_STAMP := $(YNL)/.extracted

$(YNL_STAMP):
	@test -n "$(LINUX_612_TAR)" || { echo "linux-source-6.12 is not installed: run 'make deps'" >&2; exit 1; }
	@rm -rf $(YNL) && mkdir -p $(YNL)
	$(quiet) "  TAR     ynl and the netlink schemas from $(LINUX_612_TAR)"
	$(Q)tar -xf $(LINUX_612_TAR) -C $(YNL) --strip-components=1 --wildcards \
		linux-source-6.12/MAINTAINERS 'linux-source-6.12/tools/net/ynl/*' \
		'linux-source-6.12/Documentation/netlink/*.yaml'
	@touch $@

ynl: $(YNL_STAMP)
	@:

# The same from the newest line's linux-source, which "make deps" puts into
# the trixie root (selftests/kernels/fetch-newest.sh): its ynl-gen-c writes
# kmod's policies in kernel mode, which 6.12's cannot for this spec.
# Extracted again when that line moves on.
YNL_NEWEST := $(BUILD)/ynl-newest

ynl-newest:
	@src=$$(selftests/kernels/fetch-newest.sh source) || exit 1; \
	[ "$$(cat $(YNL_NEWEST)/.extracted 2>/dev/null)" = "$$src" ] && exit 0; \
	top=$$(basename "$$src" | sed 's/\.tar\..*//'); \
	echo "  TAR     ynl and the netlink schemas from $$src"; \
	rm -rf $(YNL_NEWEST) && mkdir -p $(YNL_NEWEST) && \
	tar -xf "$$src" -C $(YNL_NEWEST) --strip-components=1 --wildcards \
		"$$top/MAINTAINERS" "$$top/tools/net/ynl/*" \
		"$$top/Documentation/netlink/*" && \
	echo "$$src" >$(YNL_NEWEST)/.extracted

# kmod/netlink_gen.[ch], the module's policies, generated from the spec
# (tools/nl-gen.sh): run after changing the spec, and commit the result;
# test_ynl_gen.py fails while they differ.
nl-gen: ynl-newest
	$(quiet) "  GEN     kmod/netlink_gen.c kmod/netlink_gen.h"
	$(Q)tools/nl-gen.sh kmod

# ---- kernel -----------------------------------------------------------------

module: $(MODULE)

# Always handed to Kbuild: it rebuilds what changed, and everything when
# KDIR names another kernel than last time (its flags change).  A KDIR in
# a root of selftests/kernels/fetch-newest.sh is built in that root, and
# the copy of its module drops Kbuild's record of the one it linked here,
# so that the next KDIR here links its own again.
$(MODULE): FORCE
	@test -n "$(KDIR)" -a -d "$(KDIR)" || { echo "no kernel headers at '$(KDIR)': run 'make deps' or set KDIR" >&2; exit 1; }
	$(Q)if [ "$(ARCH)" = arm64 ]; then \
		tools/build-module.sh $(KDIR) $(BUILD)/mod >/dev/null; \
	elif [ -n "$$(tools/build-module.sh --root $(KDIR))" ]; then \
		tools/build-module.sh $(KDIR) $(BUILD)/mod/KDIR >/dev/null && \
		cp $(BUILD)/mod/KDIR/kmod/tscprobe.ko $@ && \
		rm -f kmod/.tscprobe.ko.cmd; \
	else \
		$(MAKE) --no-print-directory -s -C kmod KDIR=$(KDIR); \
	fi

# W=1 is in kmod/Makefile; this adds sparse and fails on any warning.
check-kernel:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || { echo "no kernel headers at '$(KDIR)': run 'make deps'" >&2; exit 1; }
	@tools/build-module.sh --check $(KDIR) $(BUILD)/mod/check >/dev/null
	@echo "check-kernel: W=1 and sparse (C=2) clean against $(KDIR)"

# ---- dependencies -----------------------------------------------------------

deps:
	@tools/deps.sh

# ---- tests ------------------------------------------------------------------

# Without linux-source-6.12 or the newest line's the other tests still run;
# test_ynl_gen.py fails, saying why.  test_choose.sh has test_smi choose
# among its tests, running none.
host-test: $(HOST_TESTS) $(CLI) $(BUILD)/vm-tests/test_smi
	@$(MAKE) --no-print-directory ynl || echo "host-test: no ynl in $(YNL): test_ynl_gen.py will fail" >&2
	@$(MAKE) --no-print-directory ynl-newest || echo "host-test: no ynl in $(YNL_NEWEST): test_ynl_gen.py will fail" >&2
	@selftests/host/run.sh $(HOST_TESTS) $(HOST_SCRIPTS)

# The CLI and the host test programs again, built with AddressSanitizer and
# UBSan in build/asan (any report fails the test that caused it).
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
package-test: $(CLI)
	@selftests/host/run.sh $(PACKAGE_TEST)

host-test-asan:
	@$(MAKE) -j$(NPROC) --no-print-directory BUILD=build/asan \
		EXTRA_CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" host-test-programs

host-test-programs: $(HOST_TESTS) $(CLI)
	@ASAN_OPTIONS=detect_leaks=1:exitcode=97 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98 \
		selftests/host/run.sh $(HOST_TESTS)

# TESTS: the programs to run (default: all); MACHINE=server: the
# server-shaped guest (its own 8 CPUs, so no VM_SMP).
TESTS ?=
MACHINE ?= pc
vm-test: all selftests
	@selftests/vm/run.sh --kernel $(VM_KERNEL) --machine $(MACHINE) \
		$(if $(filter pc,$(MACHINE)),--smp $(VM_SMP)) $(TESTS)

# KERNELS=all: the full VM suite on every kernel (selftests/run.sh).  The
# suite's line names no $(MAKE), which would make "make -n test" run it.
KERNELS ?=
check: deps
	@$(MAKE) -j$(NPROC) --no-print-directory all selftests
	@KERNELS="$(KERNELS)" selftests/run.sh

check-quick: deps
	@$(MAKE) -j$(NPROC) --no-print-directory all selftests
	@selftests/run.sh --quick

test: check

FORCE:

# ---- the main job -------------------------------------------------------------

# The demo in a second make: KDIR and VM_KERNEL exist only after deps.
# Only what the demo needs on this machine (tools/deps.sh --for run), not
# the test matrix.
run:
	@tools/deps.sh --for run
	@$(MAKE) -j$(NPROC) --no-print-directory all
	@$(MAKE) --no-print-directory run-demo

run-demo:
	@tools/run-demo.sh --kernel $(VM_KERNEL) --smp $(VM_SMP)

bench: all selftests
	@tools/bench.sh

SOAK_MINUTES ?= 10
soak: all selftests
	@tools/soak.sh --minutes $(SOAK_MINUTES) --kernel $(VM_KERNEL) --smp $(VM_SMP)

# ---- installation ---------------------------------------------------------

PREFIX ?= /usr/local
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/extra
# The fleet's systemd units (user/systemd), installed disabled.
UNITDIR = $(DESTDIR)/lib/systemd/system
DEFAULTS = $(DESTDIR)/etc/default/tscprobe
INSTALLED = $(MODDIR)/tscprobe.ko $(DESTDIR)$(PREFIX)/sbin/tscprobe \
	$(DESTDIR)$(PREFIX)/share/man/man8/tscprobe.8 \
	$(DESTDIR)$(PREFIX)/share/bash-completion/completions/tscprobe \
	$(DESTDIR)$(PREFIX)/sbin/tscprobe-textfile \
	$(DESTDIR)$(PREFIX)/share/man/man8/tscprobe-textfile.8 \
	$(UNITDIR)/tscprobe-textfile.service $(UNITDIR)/tscprobe-textfile.timer
DKMS_SRC = $(DESTDIR)/usr/src/tscprobe-$(VERSION)

install: module cli
	install -D -m 0644 $(MODULE) $(MODDIR)/tscprobe.ko
	install -D -m 0755 $(CLI) $(DESTDIR)$(PREFIX)/sbin/tscprobe
	install -D -m 0644 Documentation/tscprobe.8 $(DESTDIR)$(PREFIX)/share/man/man8/tscprobe.8
	install -D -m 0644 user/completion/tscprobe.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/tscprobe
	$(if $(DESTDIR),,depmod -a $(KVER))
	@$(MAKE) --no-print-directory install-fleet

# The textfile writer and its units; /etc/default/tscprobe only when there
# is none (the admin's settings stay), removed only when unchanged.
install-fleet:
	install -D -m 0755 user/systemd/tscprobe-textfile \
		$(DESTDIR)$(PREFIX)/sbin/tscprobe-textfile
	install -D -m 0644 Documentation/tscprobe-textfile.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/tscprobe-textfile.8
	install -d $(UNITDIR)
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' user/systemd/tscprobe-textfile.service.in \
		>$(UNITDIR)/tscprobe-textfile.service
	chmod 0644 $(UNITDIR)/tscprobe-textfile.service
	install -m 0644 user/systemd/tscprobe-textfile.timer $(UNITDIR)/
	test -e $(DEFAULTS) || install -D -m 0644 user/systemd/tscprobe.default $(DEFAULTS)
	$(if $(DESTDIR),,systemctl daemon-reload 2>/dev/null || true)

uninstall:
	rm -f $(INSTALLED)
	! cmp -s user/systemd/tscprobe.default $(DEFAULTS) || rm -f $(DEFAULTS)
	$(if $(DESTDIR),,depmod -a $(KVER))
	$(if $(DESTDIR),,systemctl daemon-reload 2>/dev/null || true)

# DKMS builds from a copy of what the module needs under /usr/src.
dkms-source:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r dkms.conf VERSION kmod core include $(DKMS_SRC)/
	$(MAKE) -s -C $(DKMS_SRC)/kmod KDIR=$(KDIR) clean >/dev/null

dkms: dkms-source
	dkms add -m tscprobe -v $(VERSION)
	dkms build -m tscprobe -v $(VERSION) -k $(KVER)
	dkms install -m tscprobe -v $(VERSION) -k $(KVER)

# The packages a fleet installs (tools/package.sh): build/deb, build/rpm.
deb:
	@tools/package.sh deb $(BUILD)/deb

rpm:
	@tools/package.sh rpm $(BUILD)/rpm

clean:
	-$(MAKE) -C kmod KDIR=$(KDIR) clean
	rm -rf $(BUILD)

.PHONY: all cli module selftests ynl ynl-newest nl-gen check-kernel deps \
	host-test host-test-asan host-test-programs package-test vm-test check check-quick \
	test run run-demo bench soak install install-fleet uninstall \
	dkms-source dkms deb rpm clean FORCE
