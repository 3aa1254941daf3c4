# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The protocol core's objects: plain C with no kernel calls, built into the
# module (../Kbuild) and into the userspace unit tests
# (selftests/unit/Makefile) from this one list. What may be in core/ is
# written in Documentation/architecture.rst and enforced by scripts/core-lint.
MRC_CORE_OBJS := \
	mrc_wire.o \
	mrc_sack.o \
	mrc_rto.o \
	mrc_nscc.o \
	mrc_departure.o \
	mrc_ev.o \
	mrc_ev_single.o \
	mrc_ev_profile.o \
	mrc_peer_ports.o \
	mrc_sender.o \
	mrc_receiver.o \
	mrc_task_state.o
