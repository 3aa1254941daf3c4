// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the receiver core's responder decisions (mrc_receiver.c)
 * beyond what sender_sim_test.c drives through a network: the two-step
 * check and accept a responder uses while it looks for a posted receive,
 * RNR NAKs, ECN echo, the replay of READ and atomic responses, the marks
 * of in-order actions, the fatal NAK after which nothing is answered, and
 * the atomic results kept for a repeated request.
 */
#include <string.h>

#include "ktap.h"
#include "mrc_receiver.h"

/* A new PSN is not recorded until accepted; RNR leaves it unreceived. */
static void check_then_accept_or_rnr(void)
{
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;

	mrc_receiver_init(&rc, 100);
	mrc_receiver_check(&rc, 100, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(!v.reply);
	CHECK_EQ(mrc_receiver_epsn(&rc), 100);
	/* No receive posted: an RNR NAK of it, the window unchanged. */
	mrc_receiver_rnr(&rc, 100, 0, &r);
	CHECK_EQ(r.syndrome, MRC_NAK_RNR);
	CHECK_EQ(r.nak_psn, 100);
	CHECK_EQ(r.cum_psn, 100);
	CHECK_EQ(r.nwords, 0);
	CHECK_EQ(rc.stats.rnr, 1);
	/* Sent again: still new; then taken. */
	mrc_receiver_check(&rc, 100, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_accept(&rc, 100, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(v.reply);
	CHECK_EQ(r.syndrome, MRC_SYN_ACK);
	CHECK_EQ(r.cum_psn, 101);
	CHECK_EQ(rc.stats.delivered, 1);
	/* An RNR NAK beyond a hole still reports what is held. */
	mrc_receiver_on_packet(&rc, 103, 0, &v, &r);
	mrc_receiver_check(&rc, 101, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_rnr(&rc, 101, 0, &r);
	CHECK_EQ(r.cum_psn, 101);
	CHECK_EQ(r.nwords, 1);
	CHECK_EQ(r.sack[0], 1ull << 62);
}

/* Every answer echoes the CE mark of the packet it answers. */
static void ecn_is_echoed(void)
{
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;

	mrc_receiver_init(&rc, 0);
	mrc_receiver_on_packet(&rc, 0, MRC_RECEIVER_F_ACK_REQ |
			       MRC_RECEIVER_F_ECN_CE, &v, &r);
	CHECK(v.reply && r.ecn_ce);
	mrc_receiver_on_packet(&rc, 1, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK(v.reply && !r.ecn_ce);
	mrc_receiver_on_packet(&rc, 1, MRC_RECEIVER_F_ECN_CE, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DUPLICATE);
	CHECK(r.ecn_ce);
	mrc_receiver_on_packet(&rc, 2, MRC_RECEIVER_F_TRIMMED |
			       MRC_RECEIVER_F_ECN_CE, &v, &r);
	CHECK_EQ(r.syndrome, MRC_NAK_TRIMMED);
	CHECK(r.ecn_ce);
	mrc_receiver_rnr(&rc, 2, MRC_RECEIVER_F_ECN_CE, &r);
	CHECK(r.ecn_ce);
}

/*
 * A duplicate READ or atomic is replayed only once the in-order point
 * was polled past it: before that it has not run, and runs once.
 */
static void duplicate_responses_replay_after_poll(void)
{
	const u32 rd = MRC_RECEIVER_F_RESPONDS | MRC_RECEIVER_F_LAST;
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;
	u32 last;

	mrc_receiver_init(&rc, 0);
	/* Held out of order behind a hole: not executed yet. */
	mrc_receiver_on_packet(&rc, 1, rd, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_on_packet(&rc, 1, rd, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DUPLICATE);
	CHECK(v.reply && !v.replay);
	/* In order but not polled yet: still not executed. */
	mrc_receiver_on_packet(&rc, 0, 0, &v, &r);
	CHECK_EQ(mrc_receiver_epsn(&rc), 2);
	mrc_receiver_on_packet(&rc, 1, rd, &v, &r);
	CHECK(!v.replay);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 1);
	mrc_receiver_on_packet(&rc, 1, rd, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DUPLICATE);
	CHECK(v.reply && v.replay);
	/* Not a READ nor an atomic: nothing to replay. */
	mrc_receiver_on_packet(&rc, 0, MRC_RECEIVER_F_LAST, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DUPLICATE);
	CHECK(!v.replay);
	/* Far behind, out of the duplicate range: dropped, not replayed. */
	mrc_receiver_on_packet(&rc, mrc_psn_add(2, MRC_PSN_MASK -
						MRC_RX_DUP_DISTANCE), rd,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(!v.reply && !v.replay);
}

/*
 * Marks report PSNs in order when the in-order point passes them, with
 * the messages' last packets, once each; outside [scan, scan + window)
 * a mark is refused.
 */
static void marks_report_in_order(void)
{
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;
	u32 last;

	mrc_receiver_init(&rc, 0xfffffd);
	mrc_receiver_on_packet(&rc, 0xffffff, 0, &v, &r);
	CHECK(mrc_receiver_mark(&rc, 0xffffff));
	mrc_receiver_on_packet(&rc, 1, MRC_RECEIVER_F_LAST, &v, &r);
	mrc_receiver_on_packet(&rc, 0xfffffe, 0, &v, &r);
	CHECK(mrc_receiver_mark(&rc, 0xfffffe));
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	mrc_receiver_on_packet(&rc, 0xfffffd, 0, &v, &r);
	CHECK_EQ(mrc_receiver_epsn(&rc), 0);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 0xfffffe);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 0xffffff);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	mrc_receiver_on_packet(&rc, 0, 0, &v, &r);
	CHECK_EQ(mrc_receiver_epsn(&rc), 2);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 1);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	/* Polled already, or a window past what is polled: refused. */
	CHECK(!mrc_receiver_mark(&rc, 1));
	CHECK(!mrc_receiver_mark(&rc, 2 + MRC_RX_WINDOW));
	CHECK(mrc_receiver_mark(&rc, 1 + MRC_RX_WINDOW));
	/* A mark twice is reported once. */
	CHECK(mrc_receiver_mark(&rc, 2));
	CHECK(mrc_receiver_mark(&rc, 2));
	mrc_receiver_on_packet(&rc, 2, MRC_RECEIVER_F_LAST, &v, &r);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 2);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
}

/*
 * The fatal NAK acknowledges exactly what came before the failed PSN,
 * even with later PSNs held; then nothing is answered nor completed.
 */
static void fatal_nak_ends_answers(void)
{
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;
	u32 last;

	mrc_receiver_init(&rc, 50);
	mrc_receiver_on_packet(&rc, 50, MRC_RECEIVER_F_LAST, &v, &r);
	mrc_receiver_on_packet(&rc, 51, 0, &v, &r);
	CHECK(mrc_receiver_mark(&rc, 51));
	mrc_receiver_on_packet(&rc, 52, MRC_RECEIVER_F_LAST, &v, &r);
	mrc_receiver_on_packet(&rc, 54, MRC_RECEIVER_F_LAST, &v, &r);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 50);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 51);
	mrc_receiver_fail(&rc, 51, MRC_NAK_REMOTE_ACCESS_ERROR,
			  MRC_RECEIVER_F_ECN_CE, &r);
	CHECK(mrc_receiver_failed(&rc));
	CHECK_EQ(r.syndrome, MRC_NAK_REMOTE_ACCESS_ERROR);
	CHECK_EQ(r.nak_psn, 51);
	CHECK_EQ(r.cum_psn, 51);
	CHECK_EQ(r.nwords, 0);
	CHECK(r.ecn_ce);
	/* 52 completed in the window, but nothing after the failure. */
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	mrc_receiver_on_packet(&rc, 53, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(!v.reply);
	mrc_receiver_on_packet(&rc, 50, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(!v.reply);
	/* A new start answers again. */
	mrc_receiver_init(&rc, 50);
	CHECK(!mrc_receiver_failed(&rc));
	mrc_receiver_on_packet(&rc, 50, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(v.reply);
}

/*
 * An atomic's result is kept by MSN for a repeat, until an MSN a table's
 * length later takes its slot; without a table nothing is kept.
 */
static void atomic_results_kept_by_msn(void)
{
	struct mrc_receiver_atomic slots[4];
	struct mrc_receiver rc;
	u64 orig = 7;

	mrc_receiver_init(&rc, 0);
	mrc_receiver_atomic_executed(&rc, 1, 11);
	CHECK(!mrc_receiver_atomic_result(&rc, 1, &orig));
	/* Not a power of two: none kept either. */
	mrc_receiver_keep_atomics(&rc, slots, 3);
	mrc_receiver_atomic_executed(&rc, 1, 11);
	CHECK(!mrc_receiver_atomic_result(&rc, 1, &orig));
	CHECK_EQ(orig, 7);

	memset(slots, 0xa5, sizeof(slots));
	mrc_receiver_keep_atomics(&rc, slots, 4);
	CHECK(!mrc_receiver_atomic_result(&rc, 0, &orig));
	CHECK(!mrc_receiver_atomic_result(&rc, 1, &orig));
	mrc_receiver_atomic_executed(&rc, 1, 11);
	mrc_receiver_atomic_executed(&rc, 2, 0);
	CHECK(mrc_receiver_atomic_result(&rc, 1, &orig));
	CHECK_EQ(orig, 11);
	CHECK(mrc_receiver_atomic_result(&rc, 2, &orig));
	CHECK_EQ(orig, 0);
	CHECK(!mrc_receiver_atomic_result(&rc, 3, &orig));
	/* MSN 5 takes MSN 1's slot: 1's result is gone, 5's is kept. */
	mrc_receiver_atomic_executed(&rc, 5, 55);
	CHECK(!mrc_receiver_atomic_result(&rc, 1, &orig));
	CHECK(mrc_receiver_atomic_result(&rc, 5, &orig));
	CHECK_EQ(orig, 55);
	/* A new start forgets them. */
	mrc_receiver_init(&rc, 0);
	mrc_receiver_keep_atomics(&rc, slots, 4);
	CHECK(!mrc_receiver_atomic_result(&rc, 5, &orig));
}

/*
 * A QP whose peer takes no NAK(trimmed) answers a trim with nothing: the
 * PSN stays unreceived, and the next packet's ACK shows the hole.
 */
static void trim_unanswered_without_trim_nak(void)
{
	const u32 trim = MRC_RECEIVER_F_TRIMMED | MRC_RECEIVER_F_ACK_REQ;
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;

	mrc_receiver_init(&rc, 10);
	mrc_receiver_on_packet(&rc, 10, trim | MRC_RECEIVER_F_NO_TRIM_NAK,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_TRIMMED);
	CHECK(!v.reply);
	CHECK_EQ(rc.stats.trimmed, 1);
	CHECK_EQ(rc.stats.trims_unanswered, 1);
	CHECK_EQ(rc.stats.acks, 0);
	CHECK_EQ(mrc_receiver_epsn(&rc), 10);
	/* The next one, whole, is ACKed out of order: its SACK shows 10. */
	mrc_receiver_on_packet(&rc, 11, MRC_RECEIVER_F_NO_TRIM_NAK, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(v.reply);
	CHECK_EQ(r.syndrome, MRC_SYN_ACK);
	CHECK_EQ(r.cum_psn, 10);
	CHECK_EQ(r.nwords, 1);
	CHECK_EQ(r.sack[0], 1ull << 63);
	/* Sent again whole, it is taken. */
	mrc_receiver_on_packet(&rc, 10, MRC_RECEIVER_F_NO_TRIM_NAK, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK_EQ(mrc_receiver_epsn(&rc), 12);
	/* The flag changes only the answer to a trim: this one is NAKed. */
	mrc_receiver_on_packet(&rc, 12, trim, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_TRIMMED);
	CHECK(v.reply);
	CHECK_EQ(r.syndrome, MRC_NAK_TRIMMED);
	CHECK_EQ(r.nak_psn, 12);
	CHECK_EQ(rc.stats.trimmed, 2);
	CHECK_EQ(rc.stats.trims_unanswered, 1);
	/* A duplicate is answered as ever, trimmed or not. */
	mrc_receiver_on_packet(&rc, 11, trim | MRC_RECEIVER_F_NO_TRIM_NAK,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DUPLICATE);
	CHECK(v.reply);
}

/*
 * A reordering window smaller than the receiver's (MPR_DEST): new PSNs
 * that far ahead of the expected one and more are dropped unanswered; the
 * window moves with it, and a new start has the whole window again.
 */
static void smaller_window_drops_what_is_beyond_it(void)
{
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;

	mrc_receiver_init(&rc, 1000);
	mrc_receiver_set_window(&rc, 128);
	mrc_receiver_on_packet(&rc, 1000 + 127, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_on_packet(&rc, 1000 + 128, MRC_RECEIVER_F_ACK_REQ, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(!v.reply);
	CHECK_EQ(rc.stats.dropped, 1);
	/* The expected PSN arrives: the window now reaches 128 further. */
	mrc_receiver_on_packet(&rc, 1000, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK_EQ(mrc_receiver_epsn(&rc), 1001);
	mrc_receiver_on_packet(&rc, 1000 + 128, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_on_packet(&rc, 1001 + 128, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	/* Across the PSN wrap. */
	mrc_receiver_init(&rc, MRC_PSN_MASK - 10);
	mrc_receiver_set_window(&rc, 256);
	mrc_receiver_on_packet(&rc, 244, 0, &v, &r);	/* 255 ahead */
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_on_packet(&rc, 245, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	/* 0 and more than there is: the whole window. */
	mrc_receiver_set_window(&rc, 0);
	mrc_receiver_on_packet(&rc, 245, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_set_window(&rc, MRC_RX_WINDOW * 2);
	mrc_receiver_on_packet(&rc, MRC_PSN_MASK - 10 + MRC_RX_WINDOW, 0,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	mrc_receiver_on_packet(&rc, MRC_PSN_MASK - 11 + MRC_RX_WINDOW, 0,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	/* A new start forgets it. */
	mrc_receiver_init(&rc, 0);
	mrc_receiver_on_packet(&rc, MRC_RX_WINDOW - 1, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(check_then_accept_or_rnr),
	KTAP_CASE(ecn_is_echoed),
	KTAP_CASE(duplicate_responses_replay_after_poll),
	KTAP_CASE(marks_report_in_order),
	KTAP_CASE(fatal_nak_ends_answers),
	KTAP_CASE(atomic_results_kept_by_msn),
	KTAP_CASE(trim_unanswered_without_trim_nak),
	KTAP_CASE(smaller_window_drops_what_is_beyond_it),
};

KTAP_MAIN("mrc_receiver", cases)
