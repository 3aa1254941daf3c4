// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs-probe: exercises an RDMA device through libibverbs for the shell
 * selftests, checking every result so the tests need only an exit status.
 *
 *   verbs-probe DEVICE pd        open, allocate and free PDs, close
 *   verbs-probe DEVICE hold SECS open, allocate a PD, print "ready", then
 *                                wait up to SECS for IBV_EVENT_DEVICE_FATAL
 *                                (the device removed under us); exit 0 only
 *                                if it came and everything was released
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

#define PD_ROUNDS 64

static int probe_pd(struct ibv_context *ctx)
{
	struct ibv_pd *pds[PD_ROUNDS];

	for (int i = 0; i < PD_ROUNDS; i++) {
		pds[i] = ibv_alloc_pd(ctx);
		if (!pds[i]) {
			fprintf(stderr, "ibv_alloc_pd #%d: %s\n", i,
				strerror(errno));
			return 1;
		}
		/* Each PD is a distinct kernel object with its own handle. */
		for (int j = 0; j < i; j++) {
			if (pds[j]->handle == pds[i]->handle) {
				fprintf(stderr, "PD handle %u reused\n",
					pds[i]->handle);
				return 1;
			}
		}
	}
	for (int i = 0; i < PD_ROUNDS; i++) {
		int err = ibv_dealloc_pd(pds[i]);

		if (err) {
			fprintf(stderr, "ibv_dealloc_pd #%d: %s\n", i,
				strerror(err));
			return 1;
		}
	}
	printf("allocated and freed %d PDs\n", PD_ROUNDS);
	return 0;
}

static int probe_hold(struct ibv_context *ctx, int seconds)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event event;
	struct ibv_pd *pd;
	int fatal = 0;

	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		fprintf(stderr, "ibv_alloc_pd: %s\n", strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);

	while (!fatal) {
		int ready = poll(&pfd, 1, seconds * 1000);

		if (ready <= 0) {
			fprintf(stderr, "no device-fatal event within %d s\n",
				seconds);
			return 1;
		}
		if (ibv_get_async_event(ctx, &event)) {
			fprintf(stderr, "ibv_get_async_event: %s\n",
				strerror(errno));
			return 1;
		}
		printf("event: %s\n", ibv_event_type_str(event.event_type));
		fatal = event.event_type == IBV_EVENT_DEVICE_FATAL;
		ibv_ack_async_event(&event);
	}
	/* Freeing after disassociation must still succeed for userspace. */
	if (ibv_dealloc_pd(pd)) {
		fprintf(stderr, "ibv_dealloc_pd after removal failed\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	int status;

	if (argc < 3 || (strcmp(argv[2], "pd") && strcmp(argv[2], "hold")) ||
	    (!strcmp(argv[2], "hold") && argc < 4)) {
		fprintf(stderr, "usage: %s DEVICE pd | DEVICE hold SECONDS\n",
			argv[0]);
		return 2;
	}
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		return 1;

	if (!strcmp(argv[2], "pd"))
		status = probe_pd(ctx);
	else
		status = probe_hold(ctx, atoi(argv[3]));

	if (ibv_close_device(ctx)) {
		fprintf(stderr, "ibv_close_device failed\n");
		status = 1;
	}
	return status;
}
