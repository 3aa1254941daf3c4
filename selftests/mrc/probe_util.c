// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "probe_util.h"

struct ibv_context *probe_open_device(const char *name)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	bool found = false;
	int n;

	list = ibv_get_device_list(&n);
	if (!list) {
		fprintf(stderr, "ibv_get_device_list: %s\n", strerror(errno));
		return NULL;
	}
	for (int i = 0; i < n && !found; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name))
			continue;
		found = true;
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			fprintf(stderr, "ibv_open_device(%s): %s\n", name,
				strerror(errno));
	}
	if (!found)
		fprintf(stderr, "device %s not found\n", name);
	ibv_free_device_list(list);
	return ctx;
}

int probe_find_gid(struct ibv_context *ctx, const char *ip,
		   union ibv_gid *gid)
{
	uint8_t want[16] = { [10] = 0xff, [11] = 0xff };
	struct ibv_port_attr port;

	if (inet_pton(AF_INET, ip, want + 12) != 1 &&
	    inet_pton(AF_INET6, ip, want) != 1)
		return -1;
	if (ibv_query_port(ctx, 1, &port))
		return -1;
	for (int i = 0; i < port.gid_tbl_len; i++) {
		if (ibv_query_gid(ctx, 1, i, gid))
			continue;
		if (!memcmp(gid->raw, want, sizeof(want)))
			return i;
	}
	return -1;
}

double probe_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int probe_poll(struct ibv_cq *cq, struct ibv_wc *wc, int n, double seconds)
{
	double end = probe_now() + seconds;
	int got = 0, ret;

	while (got < n) {
		ret = ibv_poll_cq(cq, n - got, wc + got);
		if (ret < 0)
			return ret;
		got += ret;
		if (ret)
			continue;
		if (probe_now() >= end)
			break;
		/* The peer may be a process on the same CPU. */
		sched_yield();
	}
	return got;
}
