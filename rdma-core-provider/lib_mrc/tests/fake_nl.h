/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A stand-in for lib_mrc's netlink socket (mrc_ctl_nl_sock.c) and its
 * capability check (mrc_ctl_cap.c), for the unit tests: every request the
 * library sends is kept, byte for byte, and answered from a script the
 * test queues (an errno and the answer's messages, built with libmnl from
 * the uapi's attribute numbers, as the kernel would).
 */
#ifndef LIB_MRC_FAKE_NL_H
#define LIB_MRC_FAKE_NL_H

#include <stdbool.h>
#include <stddef.h>

#include "mrc_ctl_nl.h"

#define FAKE_NL_FAMILY		0x2a
#define FAKE_NL_MAX_TALKS	16
#define FAKE_NL_MSG_SIZE	8192

struct fake_nl_answer {
	int err;
	const char *why;		/* the extended ack's message, or NULL */
	size_t len;
	char buf[FAKE_NL_MSG_SIZE];	/* one or more messages */
};

struct fake_nl_request {
	size_t len;
	char buf[FAKE_NL_MSG_SIZE];
};

/* A datagram the event socket receives, or an error it meets instead. */
struct fake_nl_datagram {
	int err;			/* -1 with errno @err; 0: the bytes */
	size_t len;
	char buf[FAKE_NL_MSG_SIZE];
};

#define FAKE_NL_MAX_DATAGRAMS	8

struct fake_netlink {
	bool capable;
	int open_err;
	int opens, closes;
	/* the event socket: the group exists, the join's errno */
	bool has_events;
	int events_open_err;
	int events_opens, events_rcvbuf;
	int events_fd;			/* what mrc_nl_fd() answers */
	struct fake_nl_datagram datagrams[FAKE_NL_MAX_DATAGRAMS];
	int num_datagrams, next_datagram;
	/* queued answers, in order */
	struct fake_nl_answer answers[FAKE_NL_MAX_TALKS];
	int num_answers, next_answer;
	/* requests as sent */
	struct fake_nl_request requests[FAKE_NL_MAX_TALKS];
	int num_requests;
};

extern struct fake_netlink fake_nl;

void fake_nl_reset(void);
/* A new answer, empty, with errno @err; its messages are added next. */
struct fake_nl_answer *fake_nl_answer(int err);
/* A message of command @cmd at the end of @a; attributes follow. */
struct nlmsghdr *fake_nl_msg(struct fake_nl_answer *a, uint8_t cmd);
/* Closes the message @nlh of @a (its length counted in). */
void fake_nl_msg_end(struct fake_nl_answer *a, struct nlmsghdr *nlh);
/*
 * A datagram for the event socket; @err non-zero: recv fails with it.
 * Messages are added as to an answer (fake_nl_dgram_msg(), _end()).
 */
struct fake_nl_datagram *fake_nl_datagram(int err);
struct nlmsghdr *fake_nl_dgram_msg(struct fake_nl_datagram *d, uint8_t cmd);
void fake_nl_dgram_end(struct fake_nl_datagram *d, struct nlmsghdr *nlh);

#endif /* LIB_MRC_FAKE_NL_H */
