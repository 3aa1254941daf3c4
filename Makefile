# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# soft-MRC top-level build.
#   make            module (against KDIR), provider, lib_mrc, unit tests
#   make deps       apt-installs what a Debian 12 machine needs
#   make demo       deps, build, then the main job in the lab VM
#   make bench-vs-rxe  build, then mrc against rxe in one deterministic lab
#                   boot (scripts/bench-vs-rxe; figures.rst)
#   make bench-fabric  build, then the fabric benchmarks in one deterministic
#                   lab boot (figures on stdout, timeline PNGs in
#                   Documentation/)
#   make bench-mrc-api build, then the OCP MRC API (mrc.h) against plain
#                   verbs in one deterministic lab boot
#                   (scripts/bench-mrc-api; mrc-api.rst)
#   make bench-core    the protocol core's instructions per packet, under
#                   callgrind, no VM (scripts/bench-core; figures.rst)
#   make check      deps, build, then every test: unit, lint, lab kselftests
#   make install    on a real host: module, provider, libibverbs config,
#                   lib_mrc (the OCP MRC API), mrcctl, the Wireshark
#                   dissector (install-wireshark)
#   make C=1        also runs sparse over the module
#   make include-graph  the module's include and call graph and its cycles

# Where we are when invoked as a kbuild external module (M=...), kbuild reads
# Kbuild, not this file; everything below is for the user-facing targets.
TOP := $(CURDIR)

ifndef KDIR
LAB_KVER := $(shell $(TOP)/scripts/lab-kernel 2>/dev/null)
KDIR := /lib/modules/$(LAB_KVER)/build
endif
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h 2>/dev/null)

MODULE := drivers/infiniband/sw/mrc/mrc.ko
PROVIDER_DIR := rdma-core-provider
LIB_MRC_DIR := rdma-core-provider/lib_mrc
DESTDIR ?=
# The targets that build before they run (check, demo, the benchmarks) use
# every CPU: CI has two, and a serial build of everything takes minutes.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)

.PHONY: all module provider lib_mrc tools unit deps check check-unit check-lab lint \
	demo install install-module install-provider install-lib-mrc install-tools \
	install-wireshark \
	clean help \
	bench-vs-rxe bench-fabric bench-mrc-api bench-core include-graph

all: module provider lib_mrc tools unit

help:
	@sed -n 's/^#   //p' Makefile

# The core's boundary first: a core file that reaches for the kernel fails
# the build (scripts/core-lint).
module:
	@scripts/core-lint >/dev/null || { scripts/core-lint; exit 1; }
	@test -e $(KDIR)/Makefile || { \
		echo "error: no kernel build tree at KDIR=$(KDIR)"; \
		echo "  run 'make deps', or set KDIR=/lib/modules/\$$(uname -r)/build"; \
		exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules

provider:
	$(MAKE) -C $(PROVIDER_DIR)

# The OCP MRC application API over libibverbs (Documentation/mrc-api.rst).
lib_mrc:
	$(MAKE) -C $(LIB_MRC_DIR)

# mrcctl links lib_mrc's netlink layer (libmrc_nl.a): after lib_mrc, so
# that a parallel make does not build lib_mrc's objects twice at once.
tools: lib_mrc
	$(MAKE) -C tools/mrcctl
	$(MAKE) -C tools/trim
	$(MAKE) -C tools/wireshark/test

# selftests/mrc's OCP API probes link lib_mrc.
unit: lib_mrc
	$(MAKE) -C selftests/unit
	$(MAKE) -C selftests/mrc

deps:
	@scripts/setup

check-unit: unit
	$(MAKE) -s -j$(JOBS) -C selftests/unit run

# deps first. No build here: each step of run-tests builds what it runs,
# and its lint rebuilds everything from clean to see every warning, so a
# build before it would be thrown away.
check: deps
	@scripts/run-tests

check-lab: all
	@scripts/run-tests --lab-only

demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/main-job

bench-vs-rxe: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/bench-vs-rxe

bench-fabric: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/bench-fabric

bench-mrc-api: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@scripts/bench-mrc-api

bench-core: deps
	@scripts/bench-core

include-graph:
	@scripts/include-graph

lint:
	@scripts/core-lint
	@scripts/lint

install: install-module install-provider install-lib-mrc install-tools \
	install-wireshark

# Installing a module built for another kernel than the running one is
# almost always a mistake on a real host: say so instead of doing it.
install-module: module
	@if [ "$(KVER)" != "$$(uname -r)" ] && [ -z "$(FORCE_KVER)" ]; then \
		echo "error: mrc.ko is built for $(KVER) but $$(uname -r) is running;"; \
		echo "  make install KDIR=/lib/modules/$$(uname -r)/build"; \
		echo "  (or FORCE_KVER=1 to install for $(KVER) anyway)"; \
		exit 1; fi
	$(MAKE) -C $(KDIR) M=$(TOP) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(KVER)

install-provider: provider
	$(MAKE) -C $(PROVIDER_DIR) install DESTDIR=$(DESTDIR)

install-lib-mrc: lib_mrc
	$(MAKE) -C $(LIB_MRC_DIR) install DESTDIR=$(DESTDIR)

install-tools: tools
	$(MAKE) -C tools/mrcctl install DESTDIR=$(DESTDIR)

# tools/wireshark/mrc.lua into Wireshark's global Lua plugin folder.
install-wireshark:
	$(MAKE) -C tools/wireshark install DESTDIR=$(DESTDIR)

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean
	$(MAKE) -C $(PROVIDER_DIR) clean
	$(MAKE) -C $(LIB_MRC_DIR) clean
	$(MAKE) -C selftests/unit clean
	$(MAKE) -C selftests/fuzz clean
	$(MAKE) -C selftests/mrc clean
	$(MAKE) -C tools/mrcctl clean
	$(MAKE) -C tools/trim clean
	$(MAKE) -C tools/wireshark clean
