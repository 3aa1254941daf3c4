/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every verbs probe of the selftests needs: open a device by name,
 * find the GID of an address, wait for completions with a deadline.
 */
#ifndef MRC_PROBE_UTIL_H
#define MRC_PROBE_UTIL_H

#include <infiniband/verbs.h>

/* Opens device @name, or says on stderr why not and returns NULL. */
struct ibv_context *probe_open_device(const char *name);

/*
 * The port-1 GID index whose GID is address @ip (IPv4, as IPv4-mapped, or
 * IPv6), with the GID in @gid; -1 if there is none.
 */
int probe_find_gid(struct ibv_context *ctx, const char *ip,
		   union ibv_gid *gid);

/* CLOCK_MONOTONIC in seconds. */
double probe_now(void);

/*
 * Polls @cq until @n completions arrived in @wc or @seconds passed. Returns
 * how many arrived, or ibv_poll_cq()'s negative error.
 */
int probe_poll(struct ibv_cq *cq, struct ibv_wc *wc, int n, double seconds);

#endif
