// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The sending half of hostile_flood.py: it makes the packets (seeded
 * mutations of the live capture), this sends them, sendmmsg() batches
 * instead of one Python sendto() a packet.
 *
 *   flood-send FD PEER PORT
 *
 * FD is a UDP socket the caller bound (so that it knows our source port
 * and never takes our own flood for live traffic). Standard input is a
 * stream of records, a 16-bit big-endian length then that many bytes;
 * each record is sent as one datagram to PEER:PORT. At the end of the
 * input, prints "PACKETS BYTES" and exits 0; 1 on a send error that is
 * not a full buffer (or a malformed input), 2 on usage.
 */
#define _GNU_SOURCE	/* sendmmsg */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 256
#define MAX_RECORD 65535
/* Room for a whole batch of the largest records, plus a partial one. */
#define INPUT_SIZE ((size_t)(BATCH + 1) * (2 + MAX_RECORD))

static unsigned char *input;
static size_t have;	/* bytes in input */
static int input_ended;

/* Reads more of standard input; 0 at its end. */
static int fill(void)
{
	ssize_t n;

	if (input_ended || have == INPUT_SIZE)
		return 0;
	do
		n = read(STDIN_FILENO, input + have, INPUT_SIZE - have);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		perror("flood-send: read");
		exit(1);
	}
	if (n == 0)
		input_ended = 1;
	have += n;
	return n > 0;
}

/* A full buffer or queue: what a flood meets, and waits out. */
static int transient(int err)
{
	return err == ENOBUFS || err == EAGAIN || err == ENOMEM ||
	       err == EINTR || err == ECONNREFUSED;
}

/* Sends msgs[0..n) all, waiting out full buffers. */
static void send_all(int fd, struct mmsghdr *msgs, unsigned int n)
{
	const struct timespec pause = { .tv_nsec = 1000000 };
	unsigned int done = 0;
	int ret;

	while (done < n) {
		ret = sendmmsg(fd, msgs + done, n - done, 0);
		if (ret > 0) {
			done += ret;
		} else if (ret < 0 && transient(errno)) {
			nanosleep(&pause, NULL);
		} else {
			perror("flood-send: sendmmsg");
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	static struct mmsghdr msgs[BATCH];
	static struct iovec iov[BATCH];
	unsigned long long packets = 0, bytes = 0;
	struct sockaddr_in peer = { .sin_family = AF_INET };
	char *end;
	long fd, port;

	if (argc != 4) {
		fprintf(stderr, "usage: flood-send FD PEER PORT\n");
		return 2;
	}
	fd = strtol(argv[1], &end, 10);
	if (*end || fd < 0 || fd > 65535) {
		fprintf(stderr, "flood-send: bad FD %s\n", argv[1]);
		return 2;
	}
	port = strtol(argv[3], &end, 10);
	if (*end || port <= 0 || port > 65535 ||
	    inet_pton(AF_INET, argv[2], &peer.sin_addr) != 1) {
		fprintf(stderr, "flood-send: bad PEER or PORT\n");
		return 2;
	}
	peer.sin_port = htons(port);
	input = malloc(INPUT_SIZE);
	if (!input) {
		perror("flood-send");
		return 1;
	}

	for (;;) {
		unsigned int n = 0;
		size_t off = 0, len;

		/* As many whole records as are here, up to a batch. */
		while (n < BATCH) {
			if (have - off < 2 ||
			    have - off < 2 + (size_t)(input[off] << 8 | input[off + 1])) {
				if (n || !fill())
					break;
				continue;
			}
			len = input[off] << 8 | input[off + 1];
			iov[n].iov_base = input + off + 2;
			iov[n].iov_len = len;
			msgs[n].msg_hdr = (struct msghdr) {
				.msg_name = &peer, .msg_namelen = sizeof(peer),
				.msg_iov = &iov[n], .msg_iovlen = 1,
			};
			bytes += len;
			off += 2 + len;
			n++;
		}
		if (!n) {
			if (have) {
				fprintf(stderr, "flood-send: %zu bytes of a partial record at the end\n",
					have);
				return 1;
			}
			break;
		}
		send_all((int)fd, msgs, n);
		packets += n;
		memmove(input, input + off, have - off);
		have -= off;
	}
	printf("%llu %llu\n", packets, bytes);
	return 0;
}
