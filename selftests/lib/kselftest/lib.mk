# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A minimal stand-in for the kernel's tools/testing/selftests/lib.mk, used
# by selftests/mrc/Makefile when no kernel source is at hand (KSFT_DIR
# unset and not inside a kernel tree). It has the same interface for what
# our collection uses: TEST_PROGS, TEST_PROGS_EXTENDED, TEST_FILES (files
# or directories, copied whole as the kernel's rsync -a does) and
# TEST_GEN_FILES; the targets all, run_tests, install (INSTALL_PATH),
# emit_tests (COLLECTION) and clean; OUTPUT; and RUN_TESTS, which runs
# programs with kselftest/runner.sh next to this file.

ifeq ($(OUTPUT),)
OUTPUT := $(shell pwd)
endif
selfdir = $(realpath $(dir $(filter %/lib.mk,$(MAKEFILE_LIST))))

TEST_GEN_FILES := $(patsubst %,$(OUTPUT)/%,$(TEST_GEN_FILES))

all: $(TEST_GEN_FILES)

define RUN_TESTS
	BASE_DIR="$(selfdir)";			\
	. $(selfdir)/kselftest/runner.sh;	\
	run_many $(1)
endef

run_tests: all
	@$(call RUN_TESTS, $(TEST_PROGS))

define INSTALL_RULE
	mkdir -p $(INSTALL_PATH)
	$(if $(strip $(TEST_PROGS) $(TEST_PROGS_EXTENDED) $(TEST_FILES) $(TEST_GEN_FILES) $(wildcard config settings)),\
		cp -pLR $(TEST_PROGS) $(TEST_PROGS_EXTENDED) $(TEST_FILES) $(TEST_GEN_FILES) $(wildcard config settings) $(INSTALL_PATH)/)
endef

install: all
ifdef INSTALL_PATH
	$(INSTALL_RULE)
else
	$(error Error: set INSTALL_PATH to use install)
endif

emit_tests:
	for TEST in $(TEST_PROGS); do \
		echo "$(COLLECTION):$$(basename $$TEST)"; \
	done

clean:
	rm -rf $(TEST_GEN_FILES) $(EXTRA_CLEAN)

.PHONY: all run_tests install emit_tests clean
