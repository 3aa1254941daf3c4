// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * unsupported-probe: what soft-MRC does not have is refused cleanly, for
 * unsupported.sh. KTAP on stdout.
 *
 *   unsupported-probe DEV
 *
 * Each request a client may make for a feature mrc lacks (on-demand
 * paging, device memory, dma-buf MRs, XRC, raw packet QPs) must fail at
 * once with the error Documentation/conformance.rst lists for it, leave
 * nothing behind, and leave the device usable: an RC QP is created and
 * destroyed after them all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

#define KSFT_SKIP	4

static int case_no, failed;

/* A request that must fail with @want (or @also, when not 0). */
static void refused(const char *name, const void *obj, int err, int want,
		    int also)
{
	case_no++;
	if (obj) {
		printf("# %s: succeeded\nnot ok %d %s\n", name, case_no, name);
		failed++;
	} else if (err != want && (!also || err != also)) {
		printf("# %s: %s (%d), expected %s\nnot ok %d %s\n", name,
		       strerror(err), err, strerror(want), case_no, name);
		failed++;
	} else {
		printf("ok %d %s # %s\n", case_no, name, strerror(err));
	}
}

static void check(const char *name, int ok, const char *why)
{
	case_no++;
	if (!ok) {
		printf("# %s: %s\nnot ok %d %s\n", name, why, case_no, name);
		failed++;
	} else {
		printf("ok %d %s\n", case_no, name);
	}
}

int main(int argc, char **argv)
{
	struct ibv_device_attr_ex attr = { 0 };
	struct ibv_xrcd_init_attr xattr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		.oflags = O_CREAT,
	};
	struct ibv_alloc_dm_attr dm_attr = { .length = 4096 };
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	static char buf[8192];
	void *obj;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEV\n", argv[0]);
		return 2;
	}
	ctx = probe_open_device(argv[1]);
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	cq = pd ? ibv_create_cq(ctx, 4, NULL, NULL, 0) : NULL;
	if (!cq) {
		printf("KTAP version 1\n1..0 # SKIP cannot use %s\n", argv[1]);
		return KSFT_SKIP;
	}
	qa.send_cq = qa.recv_cq = cq;
	printf("KTAP version 1\n1..12\n");

	check("odp_not_advertised",
	      !ibv_query_device_ex(ctx, NULL, &attr) &&
	      !(attr.odp_caps.general_caps & IBV_ODP_SUPPORT),
	      "ibv_query_device_ex() says on-demand paging is supported");

	errno = 0;
	obj = ibv_reg_mr(pd, buf, sizeof(buf),
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	refused("odp_mr_refused", obj, errno, EOPNOTSUPP, EINVAL);
	if (obj)
		ibv_dereg_mr(obj);

	errno = 0;
	obj = ibv_reg_mr(pd, NULL, SIZE_MAX,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	refused("implicit_odp_mr_refused", obj, errno, EOPNOTSUPP, EINVAL);
	if (obj)
		ibv_dereg_mr(obj);

	errno = 0;
	obj = ibv_alloc_dm(ctx, &dm_attr);
	refused("device_memory_refused", obj, errno, EOPNOTSUPP, 0);
	if (obj)
		ibv_free_dm(obj);

	errno = 0;
	obj = ibv_reg_dmabuf_mr(pd, 0, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE);
	refused("dmabuf_mr_without_dmabuf_refused", obj, errno, EOPNOTSUPP,
		EPROTONOSUPPORT);
	if (obj)
		ibv_dereg_mr(obj);

	/* A file that is no dma-buf: refused before anyone looks at it. */
	fd = open("/dev/null", O_RDONLY);
	errno = 0;
	obj = ibv_reg_dmabuf_mr(pd, 0, 4096, 0, fd, IBV_ACCESS_LOCAL_WRITE);
	refused("dmabuf_mr_not_a_dmabuf_refused", obj, errno, EOPNOTSUPP,
		EPROTONOSUPPORT);
	if (obj)
		ibv_dereg_mr(obj);
	if (fd >= 0)
		close(fd);

	errno = 0;
	obj = ibv_open_xrcd(ctx, &xattr);
	refused("xrc_domain_refused", obj, errno, EOPNOTSUPP, 0);
	if (obj)
		ibv_close_xrcd(obj);

	qa.qp_type = IBV_QPT_XRC_SEND;
	errno = 0;
	obj = ibv_create_qp(pd, &qa);
	refused("xrc_send_qp_refused", obj, errno, EOPNOTSUPP, EINVAL);
	if (obj)
		ibv_destroy_qp(obj);

	qa.qp_type = IBV_QPT_RAW_PACKET;
	errno = 0;
	obj = ibv_create_qp(pd, &qa);
	refused("raw_packet_qp_refused", obj, errno, EOPNOTSUPP, EINVAL);
	if (obj)
		ibv_destroy_qp(obj);

	qa.qp_type = IBV_QPT_DRIVER;
	errno = 0;
	obj = ibv_create_qp(pd, &qa);
	refused("driver_qp_refused", obj, errno, EOPNOTSUPP, EINVAL);
	if (obj)
		ibv_destroy_qp(obj);

	qa.qp_type = IBV_QPT_RC;
	obj = ibv_create_qp(pd, &qa);
	check("rc_qp_still_created", obj != NULL, strerror(errno));
	check("rc_qp_destroyed", obj && !ibv_destroy_qp(obj),
	      "ibv_destroy_qp() failed");
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return failed ? 1 : 0;
}
