// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of RTT samples split at the packet's departure
 * (mrc_departure.c): a record serves only the sample of its own PSN and a
 * departure inside the sample, the clock's low 32 bits wrap, and the SACK
 * tracker names the transmission its sample is of.
 */
#include "ktap.h"
#include "mrc_departure.h"
#include "mrc_sack.h"

static void wait_of_own_record(void)
{
	u64 rec = mrc_departure_record(77, 1300), wait = 0;

	CHECK(mrc_departure_wait(rec, 77, 1000, 2000, &wait));
	CHECK_EQ(wait, 300);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 1700);
	/* Left the moment it was built: the whole sample is the fabric's. */
	rec = mrc_departure_record(77, 1000);
	CHECK(mrc_departure_wait(rec, 77, 1000, 2000, &wait));
	CHECK_EQ(wait, 0);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 2000);
}

static void no_record_keeps_the_sample(void)
{
	u64 wait = 12345;

	/* A zeroed slot is no record, not PSN 0 leaving at time 0. */
	CHECK(!mrc_departure_wait(0, 0, 0, 2000, &wait));
	CHECK_EQ(wait, 12345);
	CHECK_EQ(mrc_departure_fabric_rtt(0, 0, 0, 2000), 2000);
	CHECK_EQ(mrc_departure_fabric_rtt(0, 5, 100, 2000), 2000);
}

static void another_psn_keeps_the_sample(void)
{
	/* The slot's PSN one window earlier or later. */
	u64 rec = mrc_departure_record(77 + 1024, 1300);

	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 2000);
	rec = mrc_departure_record(76, 1300);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 2000);
}

static void psn_is_24_bits(void)
{
	u64 rec = mrc_departure_record(0x1000005, 1300);

	CHECK_EQ(mrc_departure_fabric_rtt(rec, 5, 1000, 2000), 1700);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 0x3000005, 1000, 2000), 1700);
	rec = mrc_departure_record(0xffffff, 1300);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 0xffffff, 1000, 2000), 1700);
}

static void departure_outside_the_sample(void)
{
	/* Before the build: an older copy's or a stale record. */
	u64 rec = mrc_departure_record(77, 999);

	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 2000);
	/* At or after the ACK: a transmit completion later than the ACK. */
	rec = mrc_departure_record(77, 3000);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 2000);
	rec = mrc_departure_record(77, 2999);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 77, 1000, 2000), 1);
}

static void clock_low_bits_wrap(void)
{
	/* Built just before the 32-bit clock wraps, left just after it. */
	u64 sent = (5ull << 32) + 0xfffffff0u;
	u64 rec = mrc_departure_record(9, 0x10);

	CHECK_EQ(mrc_departure_fabric_rtt(rec, 9, sent, 100), 100 - 0x20);
	/* A record from 2^32 us earlier reads as the same time: accepted. */
	rec = mrc_departure_record(9, 0xfffffff8u);
	CHECK_EQ(mrc_departure_fabric_rtt(rec, 9, sent, 100), 92);
}

/*
 * The tracker's sample is of the newest transmission the ACK delivered,
 * and it names that PSN and its send time; none for a resent PSN.
 */
static void tracker_names_the_sample(void)
{
	static struct mrc_tx_slot slots[64];
	struct mrc_tx_ack_result res;
	struct mrc_tx_tracker t;
	u32 p0, p1, p2;

	CHECK(mrc_tx_init(&t, slots, 64, 0xfffffe));
	p0 = mrc_tx_send(&t, 0, 100, 0);
	p1 = mrc_tx_send(&t, 1, 200, 0);
	p2 = mrc_tx_send(&t, 0, 300, 0);
	CHECK_EQ(p0, 0xfffffe);
	CHECK_EQ(p2, 0);
	CHECK_EQ(mrc_tx_on_ack(&t, p2, NULL, 0, 0, 1000, &res),
		 MRC_TX_ACK_OK);
	CHECK(res.rtt_valid);
	CHECK_EQ(res.rtt_psn, p1);
	CHECK_EQ(res.rtt_sent_at, 200);
	CHECK_EQ(res.rtt, 800);
	CHECK_EQ(mrc_tx_on_ack(&t, mrc_psn_add(p2, 1), NULL, 0, 0, 1100,
			       &res), MRC_TX_ACK_OK);
	CHECK(res.rtt_valid);
	CHECK_EQ(res.rtt_psn, p2);
	CHECK_EQ(res.rtt_sent_at, 300);
	CHECK_EQ(res.rtt, 800);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(wait_of_own_record),
	KTAP_CASE(no_record_keeps_the_sample),
	KTAP_CASE(another_psn_keeps_the_sample),
	KTAP_CASE(psn_is_24_bits),
	KTAP_CASE(departure_outside_the_sample),
	KTAP_CASE(clock_low_bits_wrap),
	KTAP_CASE(tracker_names_the_sample),
};

KTAP_MAIN("departure", cases)
