// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc's calls over a fake libibverbs (fake_verbs.c): every NULL pointer
 * and out-of-range argument gets its documented errno and leaves nothing
 * behind; the version rules; the verbs attributes each transition gets;
 * the opcode filter, the WIMM limit and the wr_id hand-back of posting and
 * polling; events. Documentation/mrc-api.rst is the specification.
 */
#include <errno.h>
#include <string.h>

#include "check_errno.h"
#include "fake_verbs.h"
#include "ktap.h"
#include "mrc_lib.h"

/* Calls documented to return the errno value, as their verbs versions. */
#define CHECK_RETURNS(call, err)					\
	do {								\
		errno = 0;						\
		CHECK_EQ((call), err);					\
		CHECK_EQ(errno, err);					\
	} while (0)

#define CHECK_NULL(call, err)						\
	do {								\
		errno = 0;						\
		CHECK((call) == NULL);					\
		CHECK_EQ(errno, err);					\
	} while (0)

struct setup {
	struct mrc_context *ctx;
	struct mrc_cq *cq;
	struct mrc_qp *qp;
	struct ibv_qp *vqp;
};

static struct mrc_qp_init_attr qp_init(struct mrc_cq *cq)
{
	return (struct mrc_qp_init_attr){
		.send_cq = cq, .recv_cq = cq, .pd = &fake.pd,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
}

static struct setup setup(void)
{
	struct mrc_qp_init_attr ia;
	struct setup s;

	fake_reset();
	s.ctx = mrc_create_context(&fake.ctx, NULL);
	s.cq = mrc_create_cq(s.ctx, 64, NULL, NULL, 0);
	ia = qp_init(s.cq);
	s.qp = mrc_create_qp(s.ctx, &ia);
	CHECK(s.ctx && s.cq && s.qp);
	s.vqp = s.qp ? s.qp->qp : NULL;
	return s;
}

static void teardown(struct setup *s)
{
	if (s->qp)
		CHECK_EQ(mrc_destroy_qp(s->qp), 0);
	CHECK_EQ(mrc_destroy_cq(s->cq), 0);
	CHECK_EQ(mrc_destroy_context(s->ctx), 0);
	/* The context let go of the provider it found. */
	CHECK_EQ(fake.provider_refs, 0);
	CHECK_EQ(fake.live_qps, 0);
	CHECK_EQ(fake.live_cqs, 0);
	CHECK_EQ(fake.live_channels, 0);
}

static int to_state(struct mrc_qp *qp, enum ibv_qp_state state)
{
	struct ibv_qp_attr a = { .qp_state = state };
	int mask = IBV_QP_STATE;

	if (state == IBV_QPS_RTR) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = 0x99;
		a.rq_psn = 1;
		a.ah_attr.is_global = 1;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	} else if (state == IBV_QPS_RTS) {
		a.sq_psn = 1;
		mask |= IBV_QP_SQ_PSN;
	}
	return mrc_modify_qp(qp, &a, mask, NULL, 0);
}

static void to_rts(struct setup *s)
{
	CHECK_EQ(to_state(s->qp, IBV_QPS_INIT), 0);
	CHECK_EQ(to_state(s->qp, IBV_QPS_RTR), 0);
	CHECK_EQ(to_state(s->qp, IBV_QPS_RTS), 0);
}

/* ---- versions and devices ---- */

static void query_version_reports_the_library_ranges(void)
{
	uint32_t cur = 0, last = 1, vendor = 0, vendor_last = 1;

	mrc_query_version(&cur, &last, &vendor, &vendor_last);
	CHECK_EQ(cur, MRC_API_VER(1, 0, 1));
	CHECK_EQ(last, 0);
	CHECK_EQ(vendor, MRC_API_VER(1, 0, 0));
	CHECK_EQ(vendor_last, 0);
	mrc_query_version(NULL, NULL, NULL, NULL);	/* must not crash */
}

static void query_device_checks_pointers(void)
{
	struct mrc_device_attr attr;
	int supported;

	fake_reset();
	CHECK_FAILS(mrc_query_device(NULL, &attr, &supported), EINVAL);
	CHECK_FAILS(mrc_query_device(&fake.ctx, NULL, &supported), EINVAL);
	CHECK_FAILS(mrc_query_device(&fake.ctx, &attr, NULL), EINVAL);
	CHECK_FAILS(mrc_query_device_ex(NULL, NULL, &attr, &supported), EINVAL);
}

static void query_device_reports_soft_mrc_limits(void)
{
	struct mrc_device_attr attr;
	int supported = 0;

	fake_reset();
	memset(&attr, 0xff, sizeof(attr));
	CHECK_EQ(mrc_query_device(&fake.ctx, &attr, &supported), 0);
	CHECK(supported);
	CHECK_EQ(attr.mrc_protocol_version, 0);
	CHECK_EQ(attr.wimm_attr.max_wimm, 0x4000);
	CHECK_EQ(attr.wimm_attr.max_wimm_dest, 0x4000);
	CHECK_EQ(attr.mpr_attr.max_mpr, 8);
	/* The (fake) provider has the entry: any MPR up to the window. */
	CHECK_EQ(attr.mpr_attr.mpr_resolution, 1);
	CHECK_EQ(fake.provider_refs, 0);
	CHECK_EQ(attr.qp_attr.max_qp_hint, 1024);
	CHECK_EQ(attr.cap, MRC_DEVICE_CAP_TRIM_NACK);
}

static void query_device_says_unsupported_on_another_device(void)
{
	struct mrc_device_attr attr, zero;
	int supported = 1;

	fake_reset();
	fake.vendor_part_id = 0;	/* rxe's */
	memset(&attr, 0xff, sizeof(attr));
	memset(&zero, 0, sizeof(zero));
	CHECK_EQ(mrc_query_device(&fake.ctx, &attr, &supported), 0);
	CHECK_EQ(supported, 0);
	CHECK(memcmp(&attr, &zero, sizeof(attr)) == 0);
	CHECK_NULL(mrc_create_context(&fake.ctx, NULL), ENODEV);
}

static void query_device_ex_checks_the_context(void)
{
	struct mrc_device_attr attr;
	struct mrc_context *ctx;
	int supported = 0;

	fake_reset();
	ctx = mrc_create_context(&fake.ctx, NULL);
	CHECK_EQ(mrc_query_device_ex(&fake.ctx, ctx, &attr, &supported), 0);
	CHECK(supported);
	CHECK_EQ(mrc_query_device_ex(&fake.ctx, NULL, &attr, &supported), 0);
	CHECK_FAILS(mrc_query_device_ex(&fake_other.ctx, ctx, &attr, &supported),
		    EINVAL);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

/* ---- contexts and the version rules ---- */

static int ctx_with(uint32_t api, uint32_t vendor, uint32_t *chosen)
{
	struct mrc_context_attr a = { api, vendor };
	struct mrc_context *ctx;

	errno = 0;
	ctx = mrc_create_context(&fake.ctx, &a);
	if (!ctx)
		return errno;
	*chosen = ctx->api_version;
	CHECK_EQ(mrc_destroy_context(ctx), 0);
	return 0;
}

static void create_context_follows_the_version_rules(void)
{
	uint32_t chosen = 0;

	fake_reset();
	/* Unstated or "latest": the current version. */
	CHECK_EQ(ctx_with(0, 0, &chosen), 0);
	CHECK_EQ(chosen, MRC_API_CURRENT_VERSION);
	CHECK_EQ(ctx_with(MRC_API_VER_LATEST, MRC_API_VER_LATEST, &chosen), 0);
	CHECK_EQ(chosen, MRC_API_CURRENT_VERSION);
	/* Any version from the oldest supported to the current. */
	CHECK_EQ(ctx_with(MRC_API_VER(1, 0, 0), 0, &chosen), 0);
	CHECK_EQ(chosen, MRC_API_VER(1, 0, 0));
	CHECK_EQ(ctx_with(MRC_API_VER(0, 0, 1), 0, &chosen), 0);	/* the OCP benchmark's */
	CHECK_EQ(ctx_with(MRC_API_CURRENT_VERSION,
			  MRC_VENDOR_API_CURRENT_VERSION, &chosen), 0);
	/* A program newer than the library is refused. */
	CHECK_EQ(ctx_with(MRC_API_VER(1, 0, 2), 0, &chosen), ENOTSUP);
	CHECK_EQ(ctx_with(MRC_API_VER(1, 1, 0), 0, &chosen), ENOTSUP);
	CHECK_EQ(ctx_with(MRC_API_VER(2, 0, 0), 0, &chosen), ENOTSUP);
	CHECK_EQ(ctx_with(0, MRC_API_VER(1, 0, 1), &chosen), ENOTSUP);
	CHECK_EQ(ctx_with(0, MRC_API_VER(1, 1, 0), &chosen), ENOTSUP);
}

static void create_context_checks_pointers(void)
{
	fake_reset();
	CHECK_NULL(mrc_create_context(NULL, NULL), EINVAL);
	CHECK_FAILS(mrc_destroy_context(NULL), EINVAL);
}

static void destroy_context_refuses_while_it_owns_objects(void)
{
	struct mrc_comp_channel *ch = NULL;
	struct mrc_qp_hint_init_attr hi;
	struct mrc_qp_hint *hint;
	struct setup s = setup();

	CHECK_FAILS(mrc_destroy_context(s.ctx), EBUSY);
	CHECK_EQ(mrc_destroy_qp(s.qp), 0);
	s.qp = NULL;
	CHECK_FAILS(mrc_destroy_context(s.ctx), EBUSY);	/* the CQ */
	CHECK_EQ(mrc_create_comp_channel(s.ctx, &ch), 0);
	memset(&hi, 0, sizeof(hi));
	hint = mrc_create_qp_hint(s.ctx, &hi);
	CHECK(hint != NULL);
	CHECK_EQ(mrc_destroy_cq(s.cq), 0);
	CHECK_FAILS(mrc_destroy_context(s.ctx), EBUSY);	/* channel, hint */
	CHECK_EQ(mrc_destroy_comp_channel(ch), 0);
	CHECK_FAILS(mrc_destroy_context(s.ctx), EBUSY);	/* hint */
	CHECK_EQ(mrc_destroy_qp_hint(hint), 0);
	CHECK_EQ(mrc_destroy_context(s.ctx), 0);
}

/* ---- channels and CQs ---- */

static void comp_channels_check_arguments(void)
{
	struct mrc_comp_channel *ch = NULL;
	struct mrc_context *ctx;
	struct mrc_cq *cq;
	int fd = -1;

	fake_reset();
	ctx = mrc_create_context(&fake.ctx, NULL);
	CHECK_FAILS(mrc_create_comp_channel(NULL, &ch), EINVAL);
	CHECK_FAILS(mrc_create_comp_channel(ctx, NULL), EINVAL);
	CHECK_EQ(mrc_create_comp_channel(ctx, &ch), 0);
	CHECK_FAILS(mrc_get_comp_channel_fd(NULL, &fd), EINVAL);
	CHECK_FAILS(mrc_get_comp_channel_fd(ch, NULL), EINVAL);
	CHECK_EQ(mrc_get_comp_channel_fd(ch, &fd), 0);
	CHECK_EQ(fd, 100);
	cq = mrc_create_cq(ctx, 8, NULL, ch, 0);
	CHECK(cq != NULL);
	CHECK_RETURNS(mrc_destroy_comp_channel(ch), EBUSY);
	CHECK_EQ(mrc_destroy_cq(cq), 0);
	CHECK_EQ(mrc_destroy_comp_channel(ch), 0);
	CHECK_RETURNS(mrc_destroy_comp_channel(NULL), EINVAL);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
	CHECK_EQ(fake.live_channels, 0);
}

static void create_cq_checks_arguments(void)
{
	struct mrc_comp_channel *foreign = NULL;
	struct mrc_context *ctx, *other;

	fake_reset();
	ctx = mrc_create_context(&fake.ctx, NULL);
	other = mrc_create_context(&fake_other.ctx, NULL);
	CHECK_EQ(mrc_create_comp_channel(other, &foreign), 0);
	CHECK_NULL(mrc_create_cq(NULL, 8, NULL, NULL, 0), EINVAL);
	CHECK_NULL(mrc_create_cq(ctx, 0, NULL, NULL, 0), EINVAL);
	CHECK_NULL(mrc_create_cq(ctx, -1, NULL, NULL, 0), EINVAL);
	CHECK_NULL(mrc_create_cq(ctx, 8, NULL, NULL, -1), EINVAL);
	CHECK_NULL(mrc_create_cq(ctx, 8, NULL, NULL, 2), EINVAL);
	CHECK_NULL(mrc_create_cq(ctx, 8, NULL, foreign, 0), EINVAL);
	CHECK_EQ(fake.live_cqs, 0);
	CHECK_RETURNS(mrc_destroy_cq(NULL), EINVAL);
	CHECK_EQ(mrc_destroy_comp_channel(foreign), 0);
	CHECK_EQ(mrc_destroy_context(other), 0);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static void poll_cq_checks_arguments(void)
{
	struct setup s = setup();
	struct ibv_wc wc;

	CHECK_FAILS(mrc_poll_cq(NULL, 1, &wc), EINVAL);
	CHECK_FAILS(mrc_poll_cq(s.cq, 1, NULL), EINVAL);
	CHECK_FAILS(mrc_poll_cq(s.cq, -1, &wc), EINVAL);
	CHECK_EQ(mrc_poll_cq(s.cq, 0, &wc), 0);
	CHECK_EQ(mrc_poll_cq(s.cq, 1, &wc), 0);
	teardown(&s);
}

static void destroy_cq_refuses_while_a_qp_uses_it(void)
{
	struct setup s = setup();

	CHECK_RETURNS(mrc_destroy_cq(s.cq), EBUSY);
	CHECK_EQ(fake.live_cqs, 1);
	teardown(&s);
}

/* ---- QP hints ---- */

static void qp_hints_check_arguments(void)
{
	struct mrc_qp_hint_init_attr hi = { .attr = { 2, 4, 8, { 0 } } };
	struct mrc_qp_hint_attr q;
	struct mrc_qp_hint *hint;
	struct setup s = setup();

	CHECK_NULL(mrc_create_qp_hint(NULL, &hi), EINVAL);
	CHECK_NULL(mrc_create_qp_hint(s.ctx, NULL), EINVAL);
	hi.attr.num_send_peers = -1;
	CHECK_NULL(mrc_create_qp_hint(s.ctx, &hi), EINVAL);
	hi.attr.num_send_peers = 4;
	hi.attr.vendor_cfg[7] = 1;
	CHECK_NULL(mrc_create_qp_hint(s.ctx, &hi), EOPNOTSUPP);
	hi.attr.vendor_cfg[7] = 0;
	hint = mrc_create_qp_hint(s.ctx, &hi);
	CHECK(hint != NULL);

	memset(&q, 0x55, sizeof(q));
	CHECK_FAILS(mrc_query_qp_hint(NULL, &q, MRC_QP_HINT_NUM_SEND_PEERS), EINVAL);
	CHECK_FAILS(mrc_query_qp_hint(hint, NULL, MRC_QP_HINT_NUM_SEND_PEERS), EINVAL);
	CHECK_FAILS(mrc_query_qp_hint(hint, &q, 1 << 5), EINVAL);
	CHECK_EQ(mrc_query_qp_hint(hint, &q, MRC_QP_HINT_NUM_SEND_PEERS), 0);
	CHECK_EQ(q.num_send_peers, 4);
	CHECK_EQ(q.num_qps_per_peer, 0x55555555);	/* not asked for */

	q.num_qps_per_peer = -3;
	CHECK_FAILS(mrc_modify_qp_hint(hint, &q, MRC_QP_HINT_NUM_QPS_PER_PEER), EINVAL);
	CHECK_FAILS(mrc_modify_qp_hint(NULL, &q, 0), EINVAL);
	CHECK_FAILS(mrc_modify_qp_hint(hint, NULL, 0), EINVAL);
	q.num_qps_per_peer = 3;
	CHECK_EQ(mrc_modify_qp_hint(hint, &q, MRC_QP_HINT_NUM_QPS_PER_PEER), 0);
	CHECK_EQ(mrc_query_qp_hint(hint, &q, MRC_QP_HINT_NUM_QPS_PER_PEER |
				   MRC_QP_HINT_NUM_REMOTE_RECV_PEERS |
				   MRC_QP_HINT_VENDOR_CFG), 0);
	CHECK_EQ(q.num_qps_per_peer, 3);
	CHECK_EQ(q.num_remote_recv_peers, 8);
	CHECK_EQ(q.vendor_cfg[0], 0);

	CHECK_FAILS(mrc_destroy_qp_hint(NULL), EINVAL);
	CHECK_EQ(mrc_destroy_qp_hint(hint), 0);
	teardown(&s);
}

static void qp_hint_count_is_bounded(void)
{
	static struct mrc_qp_hint *hints[1024];
	struct mrc_qp_hint_init_attr hi;
	struct setup s = setup();
	int i, made = 0;

	memset(&hi, 0, sizeof(hi));
	for (i = 0; i < 1024; i++)
		made += (hints[i] = mrc_create_qp_hint(s.ctx, &hi)) != NULL;
	CHECK_EQ(made, 1024);
	CHECK_NULL(mrc_create_qp_hint(s.ctx, &hi), ENOMEM);
	for (i = 0; i < 1024; i++)
		CHECK_EQ(mrc_destroy_qp_hint(hints[i]), 0);
	teardown(&s);
}

static void qp_hint_is_held_by_its_qps(void)
{
	struct mrc_qp_hint_init_attr hi;
	struct mrc_qp_attr m;
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_hint *hint;
	struct setup s = setup();

	memset(&hi, 0, sizeof(hi));
	memset(&m, 0, sizeof(m));
	hint = mrc_create_qp_hint(s.ctx, &hi);
	m.qp_hint = hint;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_HINT), 0);
	CHECK_FAILS(mrc_destroy_qp_hint(hint), EBUSY);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_HINT, NULL), 0);
	CHECK(m.qp_hint == hint);
	CHECK_EQ(mrc_destroy_qp(s.qp), 0);
	s.qp = NULL;
	CHECK_EQ(mrc_destroy_qp_hint(hint), 0);
	teardown(&s);
}

/* ---- QPs ---- */

static void create_qp_checks_arguments(void)
{
	struct mrc_context *other;
	struct mrc_qp_init_attr ia;
	struct mrc_cq *foreign_cq;
	struct ibv_pd foreign_pd;
	struct setup s = setup();

	other = mrc_create_context(&fake_other.ctx, NULL);
	foreign_cq = mrc_create_cq(other, 8, NULL, NULL, 0);
	foreign_pd = fake_other.pd;

	CHECK_NULL(mrc_create_qp(NULL, &ia), EINVAL);
	CHECK_NULL(mrc_create_qp(s.ctx, NULL), EINVAL);
	ia = qp_init(s.cq);
	ia.send_cq = NULL;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EINVAL);
	ia = qp_init(s.cq);
	ia.recv_cq = foreign_cq;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EINVAL);
	ia = qp_init(s.cq);
	ia.pd = NULL;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EINVAL);
	ia.pd = &foreign_pd;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EINVAL);
	ia = qp_init(s.cq);
	ia.protocol_version = MRC_PROTOCOL_VERSION_1;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EPROTONOSUPPORT);
	ia.protocol_version = (enum mrc_protocol_version)4;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EINVAL);
	ia = qp_init(s.cq);
	ia.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_READ;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EOPNOTSUPP);
	ia.send_ops_flags = IBV_QP_EX_WITH_SEND;
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EOPNOTSUPP);
	ia = qp_init(s.cq);
	ia.cap.max_send_wr = FAKE_MAX_WR + 1;	/* the device refuses */
	CHECK_NULL(mrc_create_qp(s.ctx, &ia), EINVAL);
	CHECK_EQ(fake.live_qps, 1);	/* setup()'s only */

	CHECK_EQ(mrc_destroy_cq(foreign_cq), 0);
	CHECK_EQ(mrc_destroy_context(other), 0);
	CHECK_RETURNS(mrc_destroy_qp(NULL), EINVAL);
	teardown(&s);
}

static void get_qpn_and_query_qp_check_arguments(void)
{
	struct mrc_qp_init_attr init;
	struct ibv_qp_attr v;
	struct mrc_qp_attr m;
	struct setup s = setup();
	uint32_t qpn = 0;

	CHECK_FAILS(mrc_get_qpn(NULL, &qpn), EINVAL);
	CHECK_FAILS(mrc_get_qpn(s.qp, NULL), EINVAL);
	CHECK_EQ(mrc_get_qpn(s.qp, &qpn), 0);
	CHECK_EQ(qpn, s.vqp->qp_num);

	CHECK_RETURNS(mrc_query_qp(NULL, &v, IBV_QP_STATE, NULL, 0, NULL), EINVAL);
	CHECK_RETURNS(mrc_query_qp(s.qp, NULL, IBV_QP_STATE, NULL, 0, NULL), EINVAL);
	CHECK_RETURNS(mrc_query_qp(s.qp, NULL, 0, NULL, MRC_QP_MPR, NULL), EINVAL);
	CHECK_RETURNS(mrc_query_qp(s.qp, NULL, 0, &m, 1 << 12, NULL), EINVAL);
	CHECK_EQ(mrc_query_qp(s.qp, &v, IBV_QP_STATE, &m,
			      MRC_QP_MPR | MRC_QP_MPR_DEST | MRC_QP_TIMEOUT |
			      MRC_QP_RETRY_CNT | MRC_QP_MAX_WIMM, &init), 0);
	CHECK_EQ(v.qp_state, IBV_QPS_RESET);
	/* The defaults: the kernel's one window, 67 ms, 7 linear retries. */
	CHECK_EQ(m.mpr.mpr, 8);
	CHECK_EQ(m.mpr.mpr_dest, 8);
	CHECK_EQ(m.timeout, 16);
	CHECK_EQ(m.retry.linear_cnt, 7);
	CHECK_EQ(m.retry.exp_cnt, 0);
	CHECK_EQ(m.wimm.max_wimm, 0);
	CHECK(init.send_cq == s.cq && init.recv_cq == s.cq);
	CHECK_EQ(init.cap.max_send_wr, 16);
	CHECK_EQ(init.send_ops_flags, IBV_QP_EX_WITH_RDMA_WRITE |
		 IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM);
	teardown(&s);
}

/* The OCP examples give INIT nothing but the state, RTS no verbs retries. */
static void modify_qp_supplies_what_mrc_leaves_out(void)
{
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT, .port_num = 9,
				 .timeout = 20, .retry_cnt = 1, .rnr_retry = 2 };
	struct mrc_qp_attr m;
	struct setup s = setup();
	struct fake_qp *f = fake_qp_of(s.vqp);

	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE | IBV_QP_PORT, &m,
			       MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID |
			       MRC_QP_HINT), 0);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_INIT);
	CHECK_EQ(f->last_attr.port_num, 1);
	CHECK_EQ(f->last_attr.qp_access_flags,
		 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);

	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK(f->last_mask & IBV_QP_MAX_DEST_RD_ATOMIC);
	CHECK_EQ(f->last_attr.max_dest_rd_atomic, 0);

	m.timeout = 8;
	m.retry.linear_cnt = 5;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, 0, &m, MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT), 0);
	v.qp_state = IBV_QPS_RTS;
	v.sq_psn = 1;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE | IBV_QP_SQ_PSN |
			       IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			       IBV_QP_RNR_RETRY, NULL, 0), 0);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_RTS);
	/* MRC's 1.024 us << 8 is verbs' 4.096 us << 6; the verbs values lose. */
	CHECK_EQ(f->last_attr.timeout, 6);
	CHECK_EQ(f->last_attr.retry_cnt, 5);
	CHECK_EQ(f->last_attr.rnr_retry, 7);
	CHECK_EQ(f->last_attr.max_rd_atomic, 0);
	teardown(&s);
}

static void timeouts_convert_to_verbs_units(void)
{
	static const uint8_t ib[25] = { 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
					21, 22 };

	for (int t = 0; t <= 24; t++)
		CHECK_EQ(mrc_timeout_to_ib(t), ib[t]);
}

/* A refused modify changes nothing: the state stays and so do the attributes. */
static void check_modify_refused(struct setup *s, struct ibv_qp_attr *v,
				 int vmask, struct mrc_qp_attr *m, int mmask,
				 int err)
{
	struct fake_qp *f = fake_qp_of(s->vqp);
	enum ibv_qp_state before = f->attr.qp_state;
	struct mrc_qp_attr was = s->qp->attr;

	CHECK_RETURNS(mrc_modify_qp(s->qp, v, vmask, m, mmask), err);
	CHECK_EQ(f->attr.qp_state, before);
	CHECK(memcmp(&was, &s->qp->attr, sizeof(was)) == 0);
}

/*
 * The exponential stage goes to the kernel through the provider's entry,
 * at RTR to RTS with the verbs retries; a QP without one uses plain
 * ibv_modify_qp(). A provider without the entry cannot take it.
 */
static void modify_qp_passes_exp_retries(void)
{
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr m;
	struct setup s = setup();
	struct fake_qp *f = fake_qp_of(s.vqp);

	memset(&m, 0, sizeof(m));
	m.retry.linear_cnt = 2;
	m.retry.exp_cnt = 25;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_RETRY_CNT), 0);
	/* Nothing for the kernel before RTS. */
	CHECK_EQ(f->mrc_modifies, 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(f->mrc_modifies, 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTS), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	CHECK_EQ(f->last_mrc.comp_mask, MRC_MODIFY_QP_EXP_RETRY_CNT);
	CHECK_EQ(f->last_mrc.exp_retry_cnt, 25);
	CHECK_EQ(f->last_attr.retry_cnt, 2);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_RTS);
	/* The MPR was the default: not sent. */
	CHECK_EQ(f->last_mrc.mpr, 0);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_RETRY_CNT, NULL), 0);
	CHECK_EQ(m.retry.exp_cnt, 25);
	CHECK_EQ(m.retry.linear_cnt, 2);
	/* Taken: no change in RTS. */
	m.retry.exp_cnt = 3;
	check_modify_refused(&s, &v, 0, &m, MRC_QP_RETRY_CNT, EINVAL);
	teardown(&s);

	/* exp_cnt 0 sends nothing: an older kernel runs the QP. */
	s = setup();
	f = fake_qp_of(s.vqp);
	to_rts(&s);
	CHECK_EQ(f->mrc_modifies, 0);
	teardown(&s);

	/* An MPR below the window goes at RTS; in RTS it cannot change. */
	s = setup();
	f = fake_qp_of(s.vqp);
	memset(&m, 0, sizeof(m));
	m.mpr.mpr = 2;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_MPR), 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(f->mrc_modifies, 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTS), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	CHECK_EQ(f->last_mrc.comp_mask, MRC_MODIFY_QP_MPR);
	CHECK_EQ(f->last_mrc.mpr, 2);
	m.mpr.mpr = 4;
	check_modify_refused(&s, &v, 0, &m, MRC_QP_MPR, EINVAL);
	/* The same value is no change. */
	m.mpr.mpr = 2;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, 0, &m, MRC_QP_MPR), 0);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_MPR | MRC_QP_MPR_DEST,
			      NULL), 0);
	CHECK_EQ(m.mpr.mpr, 2);
	CHECK_EQ(m.mpr.mpr_dest, 8);
	teardown(&s);

	/* A provider too old to have the entry. */
	s = setup();
	s.ctx->modify_qp_mrc = NULL;
	memset(&m, 0, sizeof(m));
	m.retry.linear_cnt = 7;
	m.retry.exp_cnt = 1;
	check_modify_refused(&s, &v, IBV_QP_STATE, &m, MRC_QP_RETRY_CNT,
			     EOPNOTSUPP);
	m.retry.exp_cnt = 0;
	/* Only the whole window without it. */
	m.mpr.mpr = 3;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m,
			       MRC_QP_RETRY_CNT | MRC_QP_MPR), 0);
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_MPR, NULL), 0);
	CHECK_EQ(m.mpr.mpr, 8);
	teardown(&s);
}

/*
 * MPR_DEST goes to the kernel at INIT to RTR, where its responder takes
 * it; the whole window (8, or 0 asked) sends nothing. From RTR on only
 * the value in force is no error. Without the provider's entry, only the
 * whole window.
 */
static void modify_qp_passes_mpr_dest(void)
{
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr m;
	struct setup s = setup();
	struct fake_qp *f = fake_qp_of(s.vqp);

	memset(&m, 0, sizeof(m));
	m.mpr.mpr_dest = 1;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_MPR_DEST), 0);
	CHECK_EQ(f->mrc_modifies, 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	CHECK_EQ(f->last_mrc.comp_mask, MRC_MODIFY_QP_MPR_DEST);
	CHECK_EQ(f->last_mrc.mpr_dest, 1);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_RTR);
	/* Another value once in RTR: EINVAL; the same one: no change. */
	m.mpr.mpr_dest = 2;
	check_modify_refused(&s, &v, 0, &m, MRC_QP_MPR_DEST, EINVAL);
	m.mpr.mpr_dest = 1;
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTS), 0);
	CHECK_EQ(mrc_modify_qp(s.qp, &v, 0, &m, MRC_QP_MPR_DEST), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_MPR_DEST, NULL), 0);
	CHECK_EQ(m.mpr.mpr_dest, 1);
	teardown(&s);

	/* 0 asks for the whole window: nothing for the kernel. */
	s = setup();
	f = fake_qp_of(s.vqp);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_MPR_DEST), 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(f->mrc_modifies, 0);
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_MPR_DEST, NULL), 0);
	CHECK_EQ(m.mpr.mpr_dest, 8);
	teardown(&s);

	/* A provider too old to have the entry: the whole window. */
	s = setup();
	s.ctx->modify_qp_mrc = NULL;
	memset(&m, 0, sizeof(m));
	m.mpr.mpr_dest = 3;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_MPR_DEST), 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_MPR_DEST, NULL), 0);
	CHECK_EQ(m.mpr.mpr_dest, 8);
	teardown(&s);
}

/*
 * TRIM_NACK_DEST_UNSUPPORTED is the kernel's flag MRC_QP_F_NO_TRIM_NAK,
 * sent when it changes: with a transition, or alone (no verbs attribute)
 * in a state; other bits and an unchanged one send nothing.
 */
static void modify_qp_passes_trim_nak_switch(void)
{
	const uint64_t trim = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED;
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr m;
	struct setup s = setup();
	struct fake_qp *f = fake_qp_of(s.vqp);

	memset(&m, 0, sizeof(m));
	m.cap = trim | MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_CAP), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	CHECK_EQ(f->last_mrc.comp_mask, MRC_MODIFY_QP_FLAGS);
	CHECK_EQ(f->last_mrc.flags, MRC_QP_F_NO_TRIM_NAK);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_INIT);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_CAP, NULL), 0);
	CHECK_EQ(m.cap, trim | MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED);
	/* Unchanged: not sent again, with a transition or without. */
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(mrc_modify_qp(s.qp, NULL, 0, &m, MRC_QP_CAP), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTS), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	/* Turned off in RTS, alone: flags 0, the state kept. */
	m.cap = MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
	f->last_mask = -1;
	CHECK_EQ(mrc_modify_qp(s.qp, NULL, 0, &m, MRC_QP_CAP), 0);
	CHECK_EQ(f->mrc_modifies, 2);
	CHECK_EQ(f->last_mrc.comp_mask, MRC_MODIFY_QP_FLAGS);
	CHECK_EQ(f->last_mrc.flags, 0);
	CHECK_EQ(f->last_mask, 0);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_RTS);
	/* The other bits alone: nothing for the kernel. */
	m.cap = 0;
	CHECK_EQ(mrc_modify_qp(s.qp, NULL, 0, &m, MRC_QP_CAP), 0);
	CHECK_EQ(f->mrc_modifies, 2);
	teardown(&s);

	/* A provider too old to have the entry cannot pass it. */
	s = setup();
	s.ctx->modify_qp_mrc = NULL;
	memset(&m, 0, sizeof(m));
	m.cap = trim;
	check_modify_refused(&s, &v, IBV_QP_STATE, &m, MRC_QP_CAP, EOPNOTSUPP);
	/* ... but a cap without it changes nothing the kernel holds. */
	m.cap = MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m, MRC_QP_CAP), 0);
	teardown(&s);
}

/*
 * An EV profile id goes to the kernel at RESET to INIT, as the kernel's
 * id; 0 (the kernel's choice by the peer) sends nothing. A reset lets
 * the profile go, and only RESET to INIT may name one.
 */
static void modify_qp_passes_ev_profile(void)
{
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr m;
	struct setup s = setup();
	struct fake_qp *f = fake_qp_of(s.vqp);

	memset(&m, 0, sizeof(m));
	m.profile.ev_profile_id = 5;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m,
			       MRC_QP_EV_PROFILE_ID), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	CHECK_EQ(f->last_mrc.comp_mask, MRC_MODIFY_QP_EV_PROFILE);
	CHECK_EQ(f->last_mrc.ev_profile_id, 5);
	CHECK_EQ(f->last_mrc.mpr_dest, 0);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_INIT);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_EV_PROFILE_ID, NULL), 0);
	CHECK_EQ(m.profile.ev_profile_id, 5);
	/* Not sent again on the way to RTS. */
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTS), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	/* In RTS, and at INIT to INIT: EINVAL, with no kernel call. */
	m.profile.ev_profile_id = 6;
	check_modify_refused(&s, &v, 0, &m, MRC_QP_EV_PROFILE_ID, EINVAL);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RESET), 0);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_EV_PROFILE_ID, NULL), 0);
	CHECK_EQ(m.profile.ev_profile_id, 0);
	/* Back to INIT without naming one: nothing for the kernel. */
	CHECK_EQ(to_state(s.qp, IBV_QPS_INIT), 0);
	CHECK_EQ(f->mrc_modifies, 1);
	m.profile.ev_profile_id = 6;
	check_modify_refused(&s, &v, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID,
			     EINVAL);
	CHECK_EQ(f->mrc_modifies, 1);
	teardown(&s);

	/* 0 names no profile: a plain modify. */
	s = setup();
	f = fake_qp_of(s.vqp);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_modify_qp(s.qp, &v, IBV_QP_STATE, &m,
			       MRC_QP_EV_PROFILE_ID), 0);
	CHECK_EQ(f->mrc_modifies, 0);
	CHECK_EQ(f->attr.qp_state, IBV_QPS_INIT);
	teardown(&s);

	/* A provider too old to have the entry cannot pass one. */
	s = setup();
	s.ctx->modify_qp_mrc = NULL;
	m.profile.ev_profile_id = 5;
	check_modify_refused(&s, &v, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID,
			     EOPNOTSUPP);
	teardown(&s);
}

static void modify_qp_checks_mrc_attributes(void)
{
	struct ibv_qp_attr v = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_hint_init_attr hi;
	struct mrc_context *other;
	struct mrc_qp_hint *foreign;
	struct mrc_qp_attr m;
	struct setup s = setup();
	int to_init = IBV_QP_STATE;

	memset(&hi, 0, sizeof(hi));
	other = mrc_create_context(&fake_other.ctx, NULL);
	foreign = mrc_create_qp_hint(other, &hi);
	memset(&m, 0, sizeof(m));

	CHECK_RETURNS(mrc_modify_qp(NULL, &v, to_init, &m, 0), EINVAL);
	check_modify_refused(&s, NULL, to_init, &m, 0, EINVAL);
	check_modify_refused(&s, &v, to_init, NULL, MRC_QP_MPR, EINVAL);
	check_modify_refused(&s, &v, to_init, &m, 1 << 12, EINVAL);
	check_modify_refused(&s, &v, 1 << 30, &m, 0, EINVAL);
	v.cur_qp_state = IBV_QPS_RTR;
	check_modify_refused(&s, &v, to_init | IBV_QP_CUR_STATE, &m, 0, EINVAL);

	m.timeout = 25;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_TIMEOUT, EINVAL);
	m.timeout = 24;
	m.retry.linear_cnt = 8;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_RETRY_CNT, EINVAL);
	m.retry.linear_cnt = 7;
	m.retry.exp_cnt = 26;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_RETRY_CNT, EINVAL);
	m.retry.exp_cnt = 0;
	m.mpr.mpr = 9;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_MPR, EINVAL);
	m.mpr.mpr = 8;
	m.mpr.mpr_dest = 9;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_MPR_DEST, EINVAL);
	m.mpr.mpr_dest = 8;
	m.wimm.max_wimm = 0x4001;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_MAX_WIMM, EINVAL);
	m.wimm.max_wimm = 0;
	m.wimm.max_wimm_dest = 0x4001;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_MAX_WIMM_DEST, EINVAL);
	m.wimm.max_wimm_dest = 0;
	m.cap = 1 << 3;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_CAP, EINVAL);
	m.cap = MRC_QP_CAP_DYNAMIC_MPR;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_CAP, EOPNOTSUPP);
	m.cap = 0;
	/* No profile has an id above 64: refused before the kernel. */
	m.profile.ev_profile_id = 65;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_EV_PROFILE_ID, EINVAL);
	m.profile.ev_profile_id = 1ull << 32 | 3;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_EV_PROFILE_ID, EINVAL);
	CHECK_EQ(fake_qp_of(s.vqp)->mrc_modifies, 0);
	m.profile.ev_profile_id = 0;
	/* The device's one CC profile is 1: any other id names none. */
	m.profile.cc_profile_id = 3;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_CC_PROFILE_ID, EINVAL);
	m.profile.cc_profile_id = 0;
	m.qp_hint = foreign;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_HINT, EINVAL);
	m.qp_hint = NULL;
	m.vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE - 1] = 1;
	check_modify_refused(&s, &v, to_init, &m, MRC_QP_VENDOR_CFG, EOPNOTSUPP);
	m.vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE - 1] = 0;
	/* Profiles and hints belong to RESET->INIT only. */
	check_modify_refused(&s, &v, 0, &m, MRC_QP_EV_PROFILE_ID, EINVAL);

	m.cap = MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
	m.mpr.mpr = 3;
	m.wimm.max_wimm = 4;
	m.profile.cc_profile_id = 1;
	CHECK_EQ(mrc_modify_qp(s.qp, &v, to_init, &m, MRC_QP_CAP | MRC_QP_MPR |
			       MRC_QP_MAX_WIMM | MRC_QP_VENDOR_CFG |
			       MRC_QP_CC_PROFILE_ID), 0);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(mrc_query_qp(s.qp, NULL, 0, &m, MRC_QP_CAP | MRC_QP_MPR |
			      MRC_QP_MAX_WIMM | MRC_QP_CC_PROFILE_ID, NULL), 0);
	CHECK_EQ(m.profile.cc_profile_id, 1);
	CHECK_EQ(m.cap, MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED);
	CHECK_EQ(m.mpr.mpr, 3);		/* the kernel's PSN window, 384 */
	CHECK_EQ(m.wimm.max_wimm, 4);
	check_modify_refused(&s, &v, 0, &m, MRC_QP_HINT, EINVAL);
	check_modify_refused(&s, &v, 0, &m, MRC_QP_CC_PROFILE_ID, EINVAL);

	CHECK_EQ(to_state(s.qp, IBV_QPS_RTR), 0);
	CHECK_EQ(to_state(s.qp, IBV_QPS_RTS), 0);
	/* The kernel took timeout and retries on the way to RTS. */
	m.timeout = 10;
	check_modify_refused(&s, &v, 0, &m, MRC_QP_TIMEOUT, EINVAL);
	check_modify_refused(&s, &v, 0, &m, MRC_QP_RETRY_CNT, EINVAL);

	CHECK_EQ(mrc_destroy_qp_hint(foreign), 0);
	CHECK_EQ(mrc_destroy_context(other), 0);
	teardown(&s);
}

/* ---- posting and polling ---- */

static struct ibv_send_wr wr(enum ibv_wr_opcode op, uint64_t id, int flags)
{
	return (struct ibv_send_wr){ .wr_id = id, .opcode = op,
				     .send_flags = flags };
}

static void post_send_checks_arguments(void)
{
	struct ibv_send_wr w = wr(IBV_WR_RDMA_WRITE, 1, 0), *bad = NULL;
	struct setup s = setup();

	to_rts(&s);
	CHECK_RETURNS(mrc_post_send(NULL, &w, &bad), EINVAL);
	CHECK_RETURNS(mrc_post_send(s.qp, NULL, &bad), EINVAL);
	CHECK_RETURNS(mrc_post_send(s.qp, &w, NULL), EINVAL);
	w.send_flags = IBV_SEND_IP_CSUM;
	CHECK_RETURNS(mrc_post_send(s.qp, &w, &bad), EINVAL);
	CHECK(bad == &w);
	w.send_flags = 0;
	w.num_sge = -1;
	CHECK_RETURNS(mrc_post_send(s.qp, &w, &bad), EINVAL);
	w.num_sge = 1;	/* and no sg_list */
	CHECK_RETURNS(mrc_post_send(s.qp, &w, &bad), EINVAL);
	CHECK_EQ(fake_qp_of(s.vqp)->num_send, 0);
	teardown(&s);
}

static void post_send_refuses_all_but_writes(void)
{
	static const enum ibv_wr_opcode refused[] = {
		IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_READ,
		IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD,
		IBV_WR_LOCAL_INV, IBV_WR_BIND_MW, IBV_WR_SEND_WITH_INV,
	};
	struct ibv_send_wr chain[3], *bad = NULL;
	struct setup s = setup();
	struct fake_qp *f = fake_qp_of(s.vqp);

	to_rts(&s);
	for (unsigned int i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		chain[0] = wr(refused[i], 7, IBV_SEND_SIGNALED);
		CHECK_RETURNS(mrc_post_send(s.qp, &chain[0], &bad), EOPNOTSUPP);
		CHECK(bad == &chain[0]);
	}
	CHECK_EQ(f->num_send, 0);

	/* In a chain: the WRITE before it is posted, nothing after it. */
	chain[0] = wr(IBV_WR_RDMA_WRITE, 10, IBV_SEND_SIGNALED);
	chain[1] = wr(IBV_WR_RDMA_READ, 11, IBV_SEND_SIGNALED);
	chain[2] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 12, IBV_SEND_SIGNALED);
	chain[0].next = &chain[1];
	chain[1].next = &chain[2];
	CHECK_RETURNS(mrc_post_send(s.qp, chain, &bad), EOPNOTSUPP);
	CHECK(bad == &chain[1]);
	CHECK_EQ(f->num_send, 1);
	CHECK(chain[0].next == &chain[1]);	/* the chain is given back whole */
	CHECK_EQ(chain[0].wr_id, 10);
	CHECK_EQ(s.qp->send.wimm_in_flight, 0);
	teardown(&s);
}

static void completions_carry_the_programs_wr_ids(void)
{
	struct ibv_send_wr w[2], *bad = NULL;
	struct ibv_recv_wr r = { .wr_id = 0xfeedfacecafef00dull }, *rbad = NULL;
	struct ibv_wc wc[4];
	struct setup s = setup();

	to_rts(&s);
	w[0] = wr(IBV_WR_RDMA_WRITE, 0xffffffffffffffffull, IBV_SEND_SIGNALED);
	w[1] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 42, IBV_SEND_SIGNALED);
	w[0].next = &w[1];
	CHECK_EQ(mrc_post_send(s.qp, w, &bad), 0);
	CHECK_EQ(w[0].wr_id, 0xffffffffffffffffull);	/* restored */
	CHECK_EQ(w[1].wr_id, 42);
	CHECK_FAILS(mrc_post_recv(NULL, &r, &rbad), EINVAL);
	CHECK_FAILS(mrc_post_recv(s.qp, NULL, &rbad), EINVAL);
	CHECK_FAILS(mrc_post_recv(s.qp, &r, NULL), EINVAL);
	r.num_sge = -1;
	CHECK_FAILS(mrc_post_recv(s.qp, &r, &rbad), EINVAL);
	CHECK(rbad == &r);
	r.num_sge = 0;
	CHECK_EQ(mrc_post_recv(s.qp, &r, &rbad), 0);
	CHECK_EQ(r.wr_id, 0xfeedfacecafef00dull);

	fake_complete_sends(s.vqp, 2, IBV_WC_SUCCESS);
	fake_complete_recv(s.vqp, 0x1234, 0);
	CHECK_EQ(mrc_poll_cq(s.cq, 4, wc), 3);
	CHECK_EQ(wc[0].wr_id, 0xffffffffffffffffull);
	CHECK_EQ(wc[1].wr_id, 42);
	CHECK_EQ(wc[2].wr_id, 0xfeedfacecafef00dull);
	CHECK_EQ(wc[2].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	CHECK_EQ(wc[2].imm_data, 0x1234);
	teardown(&s);
}

static void wimm_in_flight_is_limited(void)
{
	struct ibv_send_wr w[3], *bad = NULL;
	struct mrc_qp_attr m;
	struct ibv_wc wc[4];
	struct setup s = setup();

	memset(&m, 0, sizeof(m));
	m.wimm.max_wimm = 2;
	CHECK_EQ(mrc_modify_qp(s.qp, NULL, 0, &m, MRC_QP_MAX_WIMM), 0);
	to_rts(&s);

	/* Two unsignalled WRITE_IMMs fill the allowance... */
	w[0] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 1, 0);
	w[1] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 2, 0);
	w[2] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 3, IBV_SEND_SIGNALED);
	w[0].next = &w[1];
	w[1].next = &w[2];
	CHECK_RETURNS(mrc_post_send(s.qp, w, &bad), EAGAIN);
	CHECK(bad == &w[2]);
	CHECK_EQ(s.qp->send.wimm_in_flight, 2);
	/* ...plain WRITEs still go... */
	w[2] = wr(IBV_WR_RDMA_WRITE, 4, IBV_SEND_SIGNALED);
	CHECK_EQ(mrc_post_send(s.qp, &w[2], &bad), 0);
	w[2] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 5, IBV_SEND_SIGNALED);
	CHECK_RETURNS(mrc_post_send(s.qp, &w[2], &bad), EAGAIN);
	/* ...and the signalled WRITE's completion retires the two before it. */
	fake_complete_sends(s.vqp, 3, IBV_WC_SUCCESS);
	CHECK_EQ(mrc_poll_cq(s.cq, 4, wc), 1);
	CHECK_EQ(wc[0].wr_id, 4);
	CHECK_EQ(s.qp->send.wimm_in_flight, 0);
	CHECK_EQ(mrc_post_send(s.qp, &w[2], &bad), 0);
	CHECK_EQ(s.qp->send.wimm_in_flight, 1);
	teardown(&s);
}

static void a_full_send_queue_is_enomem(void)
{
	struct ibv_send_wr w = wr(IBV_WR_RDMA_WRITE, 1, 0), *bad = NULL;
	struct setup s = setup();
	int i;

	to_rts(&s);
	for (i = 0; i < 16; i++)
		CHECK_EQ(mrc_post_send(s.qp, &w, &bad), 0);
	CHECK_RETURNS(mrc_post_send(s.qp, &w, &bad), ENOMEM);
	CHECK_EQ(fake_qp_of(s.vqp)->num_send, 16);
	teardown(&s);
}

static void a_device_refusal_is_forgotten(void)
{
	struct ibv_send_wr w[3], *bad = NULL;
	struct ibv_wc wc[4];
	struct setup s = setup();

	to_rts(&s);
	fake.post_send_fail_at = 1;
	w[0] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 1, IBV_SEND_SIGNALED);
	w[1] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 2, IBV_SEND_SIGNALED);
	w[2] = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 3, IBV_SEND_SIGNALED);
	w[0].next = &w[1];
	w[1].next = &w[2];
	CHECK_RETURNS(mrc_post_send(s.qp, w, &bad), ENOMEM);
	CHECK(bad == &w[1]);
	CHECK_EQ(w[1].wr_id, 2);
	CHECK_EQ(w[2].wr_id, 3);
	CHECK_EQ(s.qp->send.wimm_in_flight, 1);
	CHECK_EQ(s.qp->send.head - s.qp->send.tail, 1);
	fake.post_send_fail_at = -1;
	CHECK_EQ(mrc_post_send(s.qp, &w[1], &bad), 0);
	fake_complete_sends(s.vqp, 3, IBV_WC_SUCCESS);
	CHECK_EQ(mrc_poll_cq(s.cq, 4, wc), 3);
	CHECK_EQ(wc[0].wr_id, 1);
	CHECK_EQ(wc[1].wr_id, 2);
	CHECK_EQ(wc[2].wr_id, 3);
	CHECK_EQ(s.qp->send.wimm_in_flight, 0);
	teardown(&s);
}

static void flushed_requests_complete_with_their_status(void)
{
	struct ibv_send_wr w = wr(IBV_WR_RDMA_WRITE_WITH_IMM, 77, 0), *bad = NULL;
	struct ibv_wc wc[2];
	struct setup s = setup();

	to_rts(&s);
	CHECK_EQ(mrc_post_send(s.qp, &w, &bad), 0);
	fake_complete_sends(s.vqp, 1, IBV_WC_WR_FLUSH_ERR);
	CHECK_EQ(mrc_poll_cq(s.cq, 2, wc), 1);
	CHECK_EQ(wc[0].wr_id, 77);
	CHECK_EQ(wc[0].status, IBV_WC_WR_FLUSH_ERR);
	CHECK_EQ(s.qp->send.wimm_in_flight, 0);
	teardown(&s);
}

static void completions_of_a_destroyed_qp_are_dropped(void)
{
	struct ibv_send_wr w = wr(IBV_WR_RDMA_WRITE, 5, IBV_SEND_SIGNALED), *bad;
	struct mrc_qp_init_attr ia;
	struct mrc_qp *second;
	struct ibv_wc wc[4];
	struct setup s = setup();

	ia = qp_init(s.cq);
	second = mrc_create_qp(s.ctx, &ia);
	CHECK(second != NULL);
	to_rts(&s);
	CHECK_EQ(mrc_post_send(s.qp, &w, &bad), 0);
	fake_complete_sends(s.vqp, 1, IBV_WC_SUCCESS);
	CHECK_EQ(mrc_destroy_qp(s.qp), 0);
	s.qp = NULL;
	CHECK_EQ(mrc_poll_cq(s.cq, 4, wc), 0);
	CHECK_EQ(mrc_destroy_qp(second), 0);
	teardown(&s);
}

/* ---- events ---- */

static void async_events_name_mrc_objects(void)
{
	struct ibv_qp stranger = { .qp_num = 0x7777 };
	struct mrc_async_event ev;
	struct setup s = setup();

	CHECK_FAILS(mrc_get_async_event(NULL, &ev), EINVAL);
	CHECK_FAILS(mrc_get_async_event(s.ctx, NULL), EINVAL);

	fake_push_async_event((struct ibv_async_event){
		.element.qp = &stranger, .event_type = IBV_EVENT_QP_FATAL });
	fake_push_async_event((struct ibv_async_event){
		.element.qp = s.vqp, .event_type = IBV_EVENT_QP_FATAL });
	fake_push_async_event((struct ibv_async_event){
		.element.cq = s.cq->cq, .event_type = IBV_EVENT_CQ_ERR });
	fake_push_async_event((struct ibv_async_event){
		.element.port_num = 1, .event_type = IBV_EVENT_PORT_ERR });

	/* The program's own QP's event is skipped (and acknowledged). */
	CHECK_EQ(mrc_get_async_event(s.ctx, &ev), 0);
	CHECK_EQ(fake.async_acks, 1);
	CHECK_EQ(ev.event_type, IBV_EVENT_QP_FATAL);
	CHECK(ev.element.qp == s.qp);
	mrc_ack_async_event(&ev);
	CHECK_EQ(fake.async_acks, 2);
	CHECK_EQ(mrc_get_async_event(s.ctx, &ev), 0);
	CHECK_EQ(ev.event_type, IBV_EVENT_CQ_ERR);
	CHECK(ev.element.cq == s.cq);
	mrc_ack_async_event(&ev);
	CHECK_EQ(mrc_get_async_event(s.ctx, &ev), 0);
	CHECK_EQ(ev.event_type, IBV_EVENT_PORT_ERR);
	CHECK_EQ(ev.element.port_num, 1);
	mrc_ack_async_event(&ev);
	CHECK_EQ(fake.async_acks, 4);
	CHECK_FAILS(mrc_get_async_event(s.ctx, &ev), EAGAIN);
	mrc_ack_async_event(NULL);	/* must not crash */
	teardown(&s);
}

static void cq_events_name_mrc_cqs(void)
{
	struct mrc_comp_channel *ch = NULL;
	struct mrc_cq *cq, *got = NULL;
	struct mrc_context *ctx;
	void *user = NULL;
	int token;

	fake_reset();
	ctx = mrc_create_context(&fake.ctx, NULL);
	CHECK_EQ(mrc_create_comp_channel(ctx, &ch), 0);
	cq = mrc_create_cq(ctx, 8, &token, ch, 1);
	CHECK(cq != NULL);

	CHECK_RETURNS(mrc_req_notify_cq(NULL, 0), EINVAL);
	CHECK_EQ(mrc_req_notify_cq(cq, 1), 0);
	CHECK_EQ(fake_cq_of(cq->cq)->armed, 2);

	CHECK_FAILS(mrc_get_cq_event(NULL, &got, &user), EINVAL);
	CHECK_FAILS(mrc_get_cq_event(ch, NULL, &user), EINVAL);
	CHECK_FAILS(mrc_get_cq_event(ch, &got, NULL), EINVAL);
	fake_push_cq_event(cq->cq);
	CHECK_EQ(mrc_get_cq_event(ch, &got, &user), 0);
	CHECK(got == cq);
	CHECK(user == &token);
	mrc_ack_cq_events(cq, 1);
	mrc_ack_cq_events(NULL, 1);	/* must not crash */
	CHECK_EQ(fake.cq_event_acks, 1);

	CHECK_EQ(mrc_destroy_cq(cq), 0);
	CHECK_EQ(mrc_destroy_comp_channel(ch), 0);
	CHECK_EQ(mrc_destroy_context(ctx), 0);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(query_version_reports_the_library_ranges),
	KTAP_CASE(query_device_checks_pointers),
	KTAP_CASE(query_device_reports_soft_mrc_limits),
	KTAP_CASE(query_device_says_unsupported_on_another_device),
	KTAP_CASE(query_device_ex_checks_the_context),
	KTAP_CASE(create_context_follows_the_version_rules),
	KTAP_CASE(create_context_checks_pointers),
	KTAP_CASE(destroy_context_refuses_while_it_owns_objects),
	KTAP_CASE(comp_channels_check_arguments),
	KTAP_CASE(create_cq_checks_arguments),
	KTAP_CASE(poll_cq_checks_arguments),
	KTAP_CASE(destroy_cq_refuses_while_a_qp_uses_it),
	KTAP_CASE(qp_hints_check_arguments),
	KTAP_CASE(qp_hint_count_is_bounded),
	KTAP_CASE(qp_hint_is_held_by_its_qps),
	KTAP_CASE(create_qp_checks_arguments),
	KTAP_CASE(get_qpn_and_query_qp_check_arguments),
	KTAP_CASE(modify_qp_supplies_what_mrc_leaves_out),
	KTAP_CASE(modify_qp_passes_exp_retries),
	KTAP_CASE(modify_qp_passes_ev_profile),
	KTAP_CASE(modify_qp_passes_trim_nak_switch),
	KTAP_CASE(modify_qp_passes_mpr_dest),
	KTAP_CASE(timeouts_convert_to_verbs_units),
	KTAP_CASE(modify_qp_checks_mrc_attributes),
	KTAP_CASE(post_send_checks_arguments),
	KTAP_CASE(post_send_refuses_all_but_writes),
	KTAP_CASE(completions_carry_the_programs_wr_ids),
	KTAP_CASE(wimm_in_flight_is_limited),
	KTAP_CASE(a_full_send_queue_is_enomem),
	KTAP_CASE(a_device_refusal_is_forgotten),
	KTAP_CASE(flushed_requests_complete_with_their_status),
	KTAP_CASE(completions_of_a_destroyed_qp_are_dropped),
	KTAP_CASE(async_events_name_mrc_objects),
	KTAP_CASE(cq_events_name_mrc_cqs),
};

KTAP_MAIN("lib_mrc_api", cases)
