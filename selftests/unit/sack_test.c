// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of PSN and SACK tracking (mrc_sack.c): the responder's receive
 * window, the requester's send window and loss rule, and a randomized
 * end-to-end run over a lossy, reordering, duplicating channel.
 */
#include "ktap.h"
#include "mrc_sack.h"

#define TOP_BIT ((u64)1 << 63)

static u64 rng_state;

static void rng_seed(u64 seed)
{
	rng_state = seed ? seed : 0x9e3779b97f4a7c15ull;
}

/* xorshift64 */
static u64 rng_next(void)
{
	u64 x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static u32 rng_below(u32 n)
{
	return (u32)(rng_next() % n);
}

/* True with probability @pct_x10 / 1000. */
static int rng_chance(u32 pct_x10)
{
	return rng_below(1000) < pct_x10;
}

static void shuffle(u32 *a, u32 n)
{
	for (u32 i = n; i > 1; i--) {
		u32 j = rng_below(i);
		u32 t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/* ---------------------------------------------------------------------- */
/* Receiver                                                                */
/* ---------------------------------------------------------------------- */

static void rx_in_order(void)
{
	struct mrc_rx_window w;
	u64 words[MRC_RX_SACK_MAX_WORDS];

	mrc_rx_init(&w, 0);
	CHECK_EQ(mrc_rx_epsn(&w), 0);
	CHECK_EQ(mrc_rx_highest(&w), MRC_PSN_MASK);
	CHECK_EQ(mrc_rx_missing(&w), 0);
	for (u32 psn = 0; psn < 5000; psn++) {
		CHECK_EQ(mrc_rx_accept(&w, psn), MRC_RX_NEW);
		CHECK_EQ(mrc_rx_epsn(&w), psn + 1);
		CHECK_EQ(mrc_rx_out_of_order(&w), 0);
	}
	CHECK_EQ(mrc_rx_highest(&w), 4999);
	CHECK_EQ(mrc_rx_missing(&w), 0);
	CHECK_EQ(mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS), 0);
}

/* Feeds @n PSNs from @base, shuffled in blocks of @block (<= window). */
static void rx_feed_shuffled(struct mrc_rx_window *w, u32 base, u32 n,
			     u32 block)
{
	static u32 order[MRC_RX_WINDOW];
	int bad = 0;

	for (u32 done = 0; done < n; done += block) {
		u32 len = n - done < block ? n - done : block;

		for (u32 i = 0; i < len; i++)
			order[i] = mrc_psn_add(base, done + i);
		shuffle(order, len);
		for (u32 i = 0; i < len; i++)
			bad += mrc_rx_accept(w, order[i]) != MRC_RX_NEW;
		/* A whole block in: epsn is past it, nothing held. */
		CHECK_EQ(mrc_rx_epsn(w), mrc_psn_add(base, done + len));
		CHECK_EQ(mrc_rx_out_of_order(w), 0);
	}
	CHECK_EQ(bad, 0);
}

static void rx_random_reordering(void)
{
	struct mrc_rx_window w;

	rng_seed(1);
	mrc_rx_init(&w, 1000);
	rx_feed_shuffled(&w, 1000, 40000, MRC_RX_WINDOW);
	CHECK_EQ(mrc_rx_epsn(&w), 41000);
	rx_feed_shuffled(&w, 41000, 10000, 97);
	rx_feed_shuffled(&w, 51000, 10000, 64);
	CHECK_EQ(mrc_rx_epsn(&w), 61000);
	CHECK_EQ(mrc_rx_missing(&w), 0);
	CHECK_EQ(mrc_rx_highest(&w), 60999);
}

struct keyed {
	u32 key;
	u32 psn;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->psn < y->psn ? -1 : x->psn > y->psn;
}

/*
 * Sliding reordering, never aligned to blocks: PSN i arrives in the order
 * of i + random(SPREAD), so everything that has arrived is less than
 * SPREAD ahead of the oldest PSN still missing.
 */
static void rx_sliding_reordering(void)
{
	enum { N = 30000, SPREAD = MRC_RX_WINDOW };
	static struct keyed arrival[N];
	struct mrc_rx_window w;
	int bad = 0;

	rng_seed(2);
	for (u32 i = 0; i < N; i++) {
		arrival[i].key = i + rng_below(SPREAD);
		arrival[i].psn = i;
	}
	qsort(arrival, N, sizeof(arrival[0]), keyed_cmp);
	mrc_rx_init(&w, 0);
	for (u32 i = 0; i < N; i++) {
		u32 psn = arrival[i].psn;

		if (mrc_rx_accept(&w, psn) != MRC_RX_NEW)
			bad++;
		/* every missing PSN is between epsn and highest */
		if (mrc_rx_missing(&w) + mrc_rx_out_of_order(&w) !=
		    mrc_psn_distance(mrc_rx_epsn(&w),
				     mrc_psn_add(mrc_rx_highest(&w), 1)))
			bad++;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(mrc_rx_epsn(&w), N);
	CHECK_EQ(mrc_rx_out_of_order(&w), 0);
}

static void rx_duplicates(void)
{
	struct mrc_rx_window w;

	mrc_rx_init(&w, 0);
	for (u32 psn = 0; psn < 10; psn++)
		CHECK_EQ(mrc_rx_accept(&w, psn), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_accept(&w, 12), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_out_of_order(&w), 1);
	CHECK_EQ(mrc_rx_missing(&w), 2);

	/* behind epsn */
	CHECK_EQ(mrc_rx_accept(&w, 9), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_accept(&w, 0), MRC_RX_DUPLICATE);
	/* beyond epsn, bit set */
	CHECK_EQ(mrc_rx_accept(&w, 12), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_epsn(&w), 10);
	CHECK_EQ(mrc_rx_out_of_order(&w), 1);

	CHECK(mrc_rx_received(&w, 9));
	CHECK(!mrc_rx_received(&w, 10));
	CHECK(!mrc_rx_received(&w, 11));
	CHECK(mrc_rx_received(&w, 12));
	CHECK(!mrc_rx_received(&w, 13));

	CHECK_EQ(mrc_rx_accept(&w, 11), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_accept(&w, 10), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), 13);
	CHECK_EQ(mrc_rx_accept(&w, 10), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_accept(&w, 11), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_accept(&w, 12), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_out_of_order(&w), 0);
}

static void rx_duplicate_and_window_boundaries(void)
{
	struct mrc_rx_window w;
	const u32 epsn = 5000000;

	mrc_rx_init(&w, epsn);
	/* ahead: W - 1 is the last acceptable PSN, W is out of window */
	CHECK_EQ(mrc_rx_accept(&w, epsn + MRC_RX_WINDOW), MRC_RX_OUT_OF_WINDOW);
	CHECK_EQ(mrc_rx_accept(&w, epsn + MRC_PSN_HALF), MRC_RX_OUT_OF_WINDOW);
	CHECK_EQ(mrc_rx_accept(&w, epsn + MRC_RX_WINDOW - 1), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_out_of_order(&w), 1);
	CHECK_EQ(mrc_rx_highest(&w), epsn + MRC_RX_WINDOW - 1);
	CHECK_EQ(mrc_rx_missing(&w), MRC_RX_WINDOW - 1);
	CHECK_EQ(mrc_rx_accept(&w, epsn + MRC_RX_WINDOW - 1),
		 MRC_RX_DUPLICATE);

	/* behind: 1 .. MRC_RX_DUP_DISTANCE is a duplicate, further is not */
	CHECK_EQ(mrc_rx_accept(&w, epsn - 1), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_accept(&w, epsn - MRC_RX_DUP_DISTANCE),
		 MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_accept(&w, epsn - MRC_RX_DUP_DISTANCE - 1),
		 MRC_RX_OUT_OF_WINDOW);
	CHECK(!mrc_rx_received(&w, epsn - MRC_RX_DUP_DISTANCE - 1));
	CHECK(!mrc_rx_received(&w, epsn + MRC_RX_WINDOW));

	/* nothing changed */
	CHECK_EQ(mrc_rx_epsn(&w), epsn);
	CHECK_EQ(mrc_rx_out_of_order(&w), 1);

	/* values above 24 bits are reduced, not rejected */
	CHECK_EQ(mrc_rx_accept(&w, (1u << 24) + epsn), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), epsn + 1);
}

/* A run of exactly one window: W - 1 held, then epsn fills the gap. */
static void rx_full_window_run(void)
{
	struct mrc_rx_window w;
	u64 words[MRC_RX_SACK_MAX_WORDS + 2];
	const u32 epsn = 777;
	unsigned int n;

	mrc_rx_init(&w, epsn);
	for (u32 i = 1; i < MRC_RX_WINDOW; i++)
		CHECK_EQ(mrc_rx_accept(&w, epsn + i), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_out_of_order(&w), MRC_RX_WINDOW - 1);

	memset(words, 0xa5, sizeof(words));
	n = mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS + 2);
	CHECK_EQ(n, MRC_RX_SACK_MAX_WORDS);
	for (unsigned int i = 0; i + 1 < n; i++)
		CHECK(words[i] == ~(u64)0);
	/* 1023 bits: the last bit of the last word is beyond the window */
	CHECK(words[n - 1] == ~(u64)1);
	CHECK(words[n] == 0xa5a5a5a5a5a5a5a5ull);

	CHECK_EQ(mrc_rx_accept(&w, epsn), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), epsn + MRC_RX_WINDOW);
	CHECK_EQ(mrc_rx_out_of_order(&w), 0);
	CHECK_EQ(mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS), 0);
	/* the ring is clean: the next window starts empty */
	for (u32 i = 0; i < MRC_RX_WINDOW; i++)
		CHECK(!mrc_rx_received(&w, epsn + MRC_RX_WINDOW + i));
}

static void rx_wraparound(void)
{
	struct mrc_rx_window w;
	u64 words[4];
	const u32 start = MRC_PSN_MASK - 99;	/* 0xffff9c */
	static u32 order[400];

	rng_seed(3);
	mrc_rx_init(&w, start);
	for (u32 i = 0; i < 400; i++)
		order[i] = mrc_psn_add(start, i);
	shuffle(order, 400);
	for (u32 i = 0; i < 400; i++)
		CHECK_EQ(mrc_rx_accept(&w, order[i]), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), 300);
	CHECK_EQ(mrc_rx_highest(&w), 299);
	CHECK_EQ(mrc_rx_accept(&w, MRC_PSN_MASK), MRC_RX_DUPLICATE);
	CHECK_EQ(mrc_rx_accept(&w, start), MRC_RX_DUPLICATE);

	/* a SACK straddling the wrap */
	mrc_rx_init(&w, MRC_PSN_MASK - 1);
	CHECK_EQ(mrc_rx_accept(&w, MRC_PSN_MASK), MRC_RX_NEW);	/* i = 0 */
	CHECK_EQ(mrc_rx_accept(&w, 1), MRC_RX_NEW);		/* i = 2 */
	CHECK_EQ(mrc_rx_accept(&w, 64), MRC_RX_NEW);		/* i = 65 */
	CHECK_EQ(mrc_rx_highest(&w), 64);
	CHECK_EQ(mrc_rx_missing(&w), 64);
	CHECK_EQ(mrc_rx_sack(&w, words, 4), 2);
	CHECK(words[0] == (TOP_BIT | TOP_BIT >> 2));
	CHECK(words[1] == TOP_BIT >> 1);
	CHECK_EQ(mrc_rx_accept(&w, MRC_PSN_MASK - 1), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), 0);
	CHECK_EQ(mrc_rx_accept(&w, 0), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), 2);
	CHECK_EQ(mrc_rx_accept(&w, MRC_PSN_MASK), MRC_RX_DUPLICATE);
}

/*
 * Golden: epsn = 100, PSNs 101, 103, 164 and 165 received. Bit i is PSN
 * 101 + i, MSB-first: 101 -> word 0 bit 63, 103 -> word 0 bit 61,
 * 164 (i = 63) -> word 0 bit 0, 165 (i = 64) -> word 1 bit 63.
 */
static void rx_sack_golden(void)
{
	struct mrc_rx_window w;
	u64 words[MRC_RX_SACK_MAX_WORDS];

	mrc_rx_init(&w, 100);
	CHECK_EQ(mrc_rx_accept(&w, 101), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_accept(&w, 103), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_accept(&w, 164), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS), 1);
	CHECK(words[0] == 0xa000000000000001ull);

	CHECK_EQ(mrc_rx_accept(&w, 165), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS), 2);
	CHECK(words[0] == 0xa000000000000001ull);
	CHECK(words[1] == 0x8000000000000000ull);
	CHECK_EQ(mrc_rx_epsn(&w), 100);
	CHECK_EQ(mrc_rx_missing(&w), 62);

	/* truncated to what fits */
	words[1] = 0;
	CHECK_EQ(mrc_rx_sack(&w, words, 1), 1);
	CHECK(words[0] == 0xa000000000000001ull);
	CHECK(words[1] == 0);
	CHECK_EQ(mrc_rx_sack(&w, words, 0), 0);

	/* 100 arrives: epsn jumps to 102, the bitmap shifts by two */
	CHECK_EQ(mrc_rx_accept(&w, 100), MRC_RX_NEW);
	CHECK_EQ(mrc_rx_epsn(&w), 102);
	CHECK_EQ(mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS), 1);
	/* bit i is PSN 103 + i: 103 -> 0, 164 -> 61, 165 -> 62 */
	CHECK(words[0] == (TOP_BIT | TOP_BIT >> 61 | TOP_BIT >> 62));
}

/* The SACK of a random pattern read back bit by bit, at odd ring offsets. */
static void rx_sack_matches_received(void)
{
	struct mrc_rx_window w;
	u64 words[MRC_RX_SACK_MAX_WORDS];
	int bad = 0;

	rng_seed(4);
	for (int round = 0; round < 200; round++) {
		u32 epsn = mrc_psn((u32)rng_next());
		u32 n;

		mrc_rx_init(&w, epsn);
		for (int k = 0; k < 300; k++)
			mrc_rx_accept(&w, epsn + 1 + rng_below(MRC_RX_WINDOW -
							      1));
		epsn = mrc_rx_epsn(&w);
		n = mrc_rx_sack(&w, words, MRC_RX_SACK_MAX_WORDS);
		if (n != (mrc_psn_distance(epsn, mrc_rx_highest(&w)) + 63) / 64)
			bad++;
		for (u32 i = 0; i < 64 * n; i++) {
			int bit = !!(words[i / 64] & (TOP_BIT >> (i % 64)));
			u32 psn = mrc_psn_add(epsn, 1 + i);
			int want = mrc_psn_distance(epsn, psn) <=
				   mrc_psn_distance(epsn, mrc_rx_highest(&w)) &&
				   mrc_rx_received(&w, psn);

			bad += bit != want;
		}
	}
	CHECK_EQ(bad, 0);
}

/* ---------------------------------------------------------------------- */
/* Sender                                                                  */
/* ---------------------------------------------------------------------- */

static struct mrc_tx_slot slots[1024];

static void tx_setup(struct mrc_tx_tracker *t, u32 nslots, u32 psn,
		     u32 count)
{
	CHECK(mrc_tx_init(t, slots, nslots, psn));
	for (u32 i = 0; i < count; i++)
		CHECK_EQ(mrc_tx_send(t, 100 + i, 1000 + i, 7000 + i),
			 mrc_psn_add(psn, i));
}

static int tx_state(struct mrc_tx_tracker *t, u32 psn)
{
	const struct mrc_tx_slot *s = mrc_tx_slot(t, psn);

	return s ? s->state : MRC_TX_FREE;
}

static void tx_init_validates(void)
{
	struct mrc_tx_tracker t;

	CHECK(!mrc_tx_init(&t, slots, 0, 0));
	CHECK(!mrc_tx_init(&t, slots, 12, 0));
	CHECK(!mrc_tx_init(&t, NULL, 16, 0));
	CHECK(!mrc_tx_init(&t, slots, MRC_TX_MAX_SLOTS * 2, 0));
	CHECK(mrc_tx_init(&t, slots, 1, 0));
	CHECK(mrc_tx_init(&t, slots, 1024, MRC_PSN_MASK + 5));
	CHECK_EQ(mrc_tx_una(&t), 4);
	CHECK_EQ(mrc_tx_next_psn(&t), 4);
	CHECK_EQ(mrc_tx_outstanding(&t), 0);
	CHECK(mrc_tx_can_send(&t));
}

static void tx_send_fills_window(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	const struct mrc_tx_slot *s;

	tx_setup(&t, 8, 50, 8);
	CHECK(!mrc_tx_can_send(&t));
	CHECK_EQ(mrc_tx_send(&t, 1, 1, 1), MRC_TX_PSN_NONE);
	CHECK_EQ(mrc_tx_outstanding(&t), 8);

	s = mrc_tx_slot(&t, 53);
	CHECK(s);
	if (s) {
		CHECK_EQ(s->state, MRC_TX_IN_FLIGHT);
		CHECK_EQ(s->ev, 103);
		CHECK_EQ(s->sent_at, 1003);
		CHECK_EQ(s->cookie, 7003);
		CHECK_EQ(s->retx_count, 0);
	}
	CHECK(!mrc_tx_slot(&t, 49));
	CHECK(!mrc_tx_slot(&t, 58));

	CHECK_EQ(mrc_tx_on_ack(&t, 52, NULL, 0, 0, 2000, &res), MRC_TX_ACK_OK);
	CHECK(mrc_tx_can_send(&t));
	CHECK_EQ(mrc_tx_send(&t, 1, 2001, 1), 58);
	CHECK_EQ(mrc_tx_send(&t, 1, 2001, 1), 59);
	CHECK_EQ(mrc_tx_send(&t, 1, 2001, 1), MRC_TX_PSN_NONE);
}

static void tx_ack_advances_una(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;

	tx_setup(&t, 64, 0, 10);
	CHECK_EQ(mrc_tx_on_ack(&t, 4, NULL, 0, 9, 1020, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_first, 0);
	CHECK_EQ(res.acked_count, 4);
	CHECK_EQ(res.sacked_count, 0);
	CHECK_EQ(res.lost_count, 0);
	CHECK_EQ(t.last_ev_echo, 9);
	CHECK_EQ(mrc_tx_una(&t), 4);
	CHECK_EQ(mrc_tx_outstanding(&t), 6);
	/* cookies of the acked range stay readable until the next send */
	for (u32 psn = 0; psn < 4; psn++)
		CHECK_EQ(mrc_tx_cookie(&t, psn), 7000 + psn);
	CHECK(!mrc_tx_slot(&t, 3));
	/* RTT from the newest delivered transmission (PSN 3, sent at 1003) */
	CHECK(res.rtt_valid);
	CHECK_EQ(res.rtt, 17);

	/* the same cumulative ACK again: valid, nothing new */
	CHECK_EQ(mrc_tx_on_ack(&t, 4, NULL, 0, 0, 1021, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_count, 0);
	CHECK(!res.rtt_valid);

	/* everything */
	CHECK_EQ(mrc_tx_on_ack(&t, 10, NULL, 0, 0, 1030, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_first, 4);
	CHECK_EQ(res.acked_count, 6);
	CHECK_EQ(mrc_tx_outstanding(&t), 0);
	CHECK_EQ(t.n_in_flight, 0);
	CHECK_EQ(t.n_sacked, 0);
	CHECK(t.head == MRC_TX_NIL && t.tail == MRC_TX_NIL);
}

static void tx_sack_marks(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u64 sack[2] = { 0, 0 };

	tx_setup(&t, 128, 0, 100);
	/* cum 0; bit i = PSN 1 + i: PSNs 2, 3 and 66 */
	sack[0] = TOP_BIT >> 1 | TOP_BIT >> 2;
	sack[1] = TOP_BIT >> 1;
	CHECK_EQ(mrc_tx_on_ack(&t, 0, sack, 2, 0, 2000, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_count, 0);
	CHECK_EQ(res.sacked_count, 3);
	CHECK_EQ(tx_state(&t, 2), MRC_TX_SACKED);
	CHECK_EQ(tx_state(&t, 3), MRC_TX_SACKED);
	CHECK_EQ(tx_state(&t, 66), MRC_TX_SACKED);
	CHECK_EQ(tx_state(&t, 65), MRC_TX_IN_FLIGHT);
	CHECK_EQ(t.n_sacked, 3);
	/* PSNs 0 and 1 have three later transmissions delivered: lost */
	CHECK_EQ(res.lost_count, 2);
	CHECK_EQ(res.lost_reported, 2);
	CHECK_EQ(res.lost[0].psn, 0);
	CHECK_EQ(res.lost[0].ev, 100);
	CHECK_EQ(res.lost[1].psn, 1);
	CHECK_EQ(res.lost[1].ev, 101);
	CHECK_EQ(tx_state(&t, 1), MRC_TX_LOST);
	CHECK_EQ(t.n_in_flight, 95);
	CHECK_EQ(mrc_tx_lost_count(&t), 2);

	/* repeating the SACK changes nothing */
	CHECK_EQ(mrc_tx_on_ack(&t, 0, sack, 2, 0, 2001, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.sacked_count, 0);
	CHECK_EQ(res.lost_count, 0);

	/* cum ack over SACKed PSNs frees them without counting twice */
	CHECK_EQ(mrc_tx_on_ack(&t, 4, NULL, 0, 0, 2002, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_count, 4);
	CHECK_EQ(res.spurious_count, 2);	/* PSNs 0, 1 were LOST */
	CHECK_EQ(t.n_sacked, 1);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);
}

/* Deliver @psn alone via SACK relative to cum @cum. */
static int tx_sack_one(struct mrc_tx_tracker *t, u32 cum, u32 psn,
		       struct mrc_tx_ack_result *res)
{
	u64 sack[MRC_RX_SACK_MAX_WORDS] = { 0 };
	u32 i = mrc_psn_distance(cum, psn) - 1;

	sack[i / 64] = TOP_BIT >> (i % 64);
	return mrc_tx_on_ack(t, cum, sack, i / 64 + 1, 0, 5000, res);
}

/* The same at time @now. */
static int tx_sack_one_at(struct mrc_tx_tracker *t, u32 cum, u32 psn,
			  u64 now, struct mrc_tx_ack_result *res)
{
	u64 sack[MRC_RX_SACK_MAX_WORDS] = { 0 };
	u32 i = mrc_psn_distance(cum, psn) - 1;

	sack[i / 64] = TOP_BIT >> (i % 64);
	return mrc_tx_on_ack(t, cum, sack, i / 64 + 1, 0, now, res);
}

/*
 * A fresh tracker in path-evidence mode (tolerance 1, window 100) with
 * PSNs 0 and 1 sent on EV 3 at time 1000: the start of the evidence cases.
 */
static bool tx_two_on_one_ev(struct mrc_tx_tracker *t)
{
	if (!mrc_tx_init(t, slots, 64, 0))
		return false;
	mrc_tx_set_reorder_tolerance(t, 1);
	mrc_tx_set_path_evidence(t, true, 0, 100);
	mrc_tx_send(t, 3, 1000, 0);
	mrc_tx_send(t, 3, 1000, 0);
	return true;
}

static void tx_loss_after_tolerance(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;

	for (u32 tol = 1; tol <= 6; tol++) {
		tx_setup(&t, 64, 0, 20);
		mrc_tx_set_reorder_tolerance(&t, tol);
		/* PSNs 2, 3, ... SACKed one at a time; 0 and 1 missing */
		for (u32 k = 0; k < tol; k++) {
			CHECK_EQ(tx_sack_one(&t, 0, 2 + k, &res),
				 MRC_TX_ACK_OK);
			if (k + 1 < tol) {
				CHECK_EQ(res.lost_count, 0);
			} else {
				CHECK_EQ(res.lost_count, 2);
				CHECK_EQ(res.lost[0].psn, 0);
				CHECK_EQ(res.lost[0].ev, 100);
				CHECK_EQ(res.lost[1].psn, 1);
				CHECK_EQ(res.lost[1].ev, 101);
			}
		}
		CHECK_EQ(tx_state(&t, 0), MRC_TX_LOST);
		CHECK_EQ(tx_state(&t, 1), MRC_TX_LOST);
		CHECK_EQ(tx_state(&t, 2 + tol), MRC_TX_IN_FLIGHT);
		CHECK_EQ(mrc_tx_slot(&t, 0)->cause, MRC_TX_CAUSE_REORDER);
		CHECK_EQ(mrc_tx_lost_count(&t), 2);
	}
}

/*
 * Reordering shallower than the tolerance never causes a loss: each PSN is
 * overtaken by at most tolerance - 1 later ones.
 */
static void tx_no_false_loss_below_tolerance(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	struct mrc_rx_window w;
	u64 sack[MRC_RX_SACK_MAX_WORDS];
	const u32 tol = 4, n = 4000;
	u32 lost = 0, sent = 0;
	int bad = 0;

	CHECK(mrc_tx_init(&t, slots, 256, 10));
	mrc_tx_set_reorder_tolerance(&t, tol);
	mrc_rx_init(&w, 10);
	/* arrival order 3,2,1,0, 7,6,5,4, ...: reversed groups of tol */
	for (u32 g = 0; g < n; g += tol) {
		for (; sent < g + tol; sent++)
			CHECK_EQ(mrc_tx_send(&t, sent, sent, 0), 10 + sent);
		for (u32 k = tol; k-- > 0;) {
			unsigned int nw;

			bad += mrc_rx_accept(&w, 10 + g + k) != MRC_RX_NEW;
			nw = mrc_rx_sack(&w, sack, MRC_RX_SACK_MAX_WORDS);
			bad += mrc_tx_on_ack(&t, mrc_rx_epsn(&w), sack, nw, 0,
					     sent, &res) != MRC_TX_ACK_OK;
			lost += res.lost_count;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(lost, 0);
	CHECK_EQ(mrc_tx_una(&t), 10 + n);

	/* one deeper overtake does */
	CHECK(mrc_tx_init(&t, slots, 256, 0));
	mrc_tx_set_reorder_tolerance(&t, tol);
	for (u32 i = 0; i <= tol; i++)
		mrc_tx_send(&t, i, i, 0);
	for (u32 k = 1; k <= tol; k++)
		CHECK_EQ(tx_sack_one(&t, 0, k, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 1);
	CHECK_EQ(res.lost[0].psn, 0);
}

/* Retransmissions are judged by send order, not PSN order. */
static void tx_loss_rule_uses_send_order(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u32 psn;

	tx_setup(&t, 64, 0, 10);
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 0), MRC_TX_NAK_MARKED);
	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(psn, 0);
	CHECK(mrc_tx_resend(&t, 0, 55, 3000));
	CHECK_EQ(mrc_tx_slot(&t, 0)->retx_count, 1);
	CHECK_EQ(mrc_tx_slot(&t, 0)->ev, 55);

	/* 5..9 were sent before the retransmission: no evidence against it */
	for (u32 p = 5; p < 10; p++)
		CHECK_EQ(tx_sack_one(&t, 0, p, &res), MRC_TX_ACK_OK);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
	/* but 1..4 (older, still in flight) are lost */
	CHECK_EQ(mrc_tx_lost_count(&t), 4);

	/* three transmissions after it delivered: the retransmission is lost */
	for (u32 i = 0; i < 3; i++)
		CHECK_EQ(mrc_tx_send(&t, 9, 3001, 0), 10 + i);
	CHECK_EQ(tx_sack_one(&t, 0, 10, &res), MRC_TX_ACK_OK);
	CHECK_EQ(tx_sack_one(&t, 0, 11, &res), MRC_TX_ACK_OK);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
	CHECK_EQ(tx_sack_one(&t, 0, 12, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 1);
	CHECK_EQ(res.lost[0].psn, 0);
	CHECK_EQ(res.lost[0].ev, 55);
	CHECK_EQ(mrc_tx_slot(&t, 0)->cause, MRC_TX_CAUSE_REORDER);
}

/*
 * Path-evidence mode: the count rule alone is not enough; the
 * transmission's own EV must have delivered something sent after it (and
 * the reordering window must have passed since that was seen), or it must
 * be older than the reorder time.
 */
static void tx_path_evidence(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u64 due;

	for (int mode = 0; mode < 3; mode++) {
		CHECK(mrc_tx_init(&t, slots, 64, 0));
		mrc_tx_set_reorder_tolerance(&t, 2);
		/* off; on without age bound; on with a bound of 4000 */
		if (mode)
			mrc_tx_set_path_evidence(&t, true,
						 mode == 2 ? 4000 : 0, 0);
		CHECK_EQ(mrc_tx_send(&t, 1, 1000, 0), 0);	/* EV 1 */
		CHECK_EQ(mrc_tx_send(&t, 2, 1000, 0), 1);	/* EV 2 */
		CHECK_EQ(mrc_tx_send(&t, 2, 1000, 0), 2);
		CHECK_EQ(mrc_tx_send(&t, 2, 1000, 0), 3);
		/* 2 and 3 delivered (at 5000): the count rule holds for 0, 1 */
		CHECK_EQ(tx_sack_one(&t, 0, 2, &res), MRC_TX_ACK_OK);
		CHECK_EQ(tx_sack_one(&t, 0, 3, &res), MRC_TX_ACK_OK);
		/*
		 * 1's EV delivered later ones: lost at once by count or age;
		 * by path evidence after the window, a quarter of the RTT
		 * sample 4000: 1000.
		 */
		if (mode == 1) {
			CHECK_EQ(mrc_tx_reorder_window(&t), 1000);
			CHECK_EQ(tx_state(&t, 1), MRC_TX_IN_FLIGHT);
			CHECK(mrc_tx_loss_due(&t, &due));
			CHECK_EQ(due, 6000);
			CHECK_EQ(mrc_tx_detect_losses(&t, 5999, &res), 0);
			CHECK_EQ(mrc_tx_detect_losses(&t, 6000, &res), 1);
			CHECK_EQ(res.lost_reported, 1);
			CHECK_EQ(res.lost[0].psn, 1);
			CHECK_EQ(res.lost[0].ev, 2);
			CHECK(!mrc_tx_loss_due(&t, &due));
		}
		CHECK_EQ(tx_state(&t, 1), MRC_TX_LOST);
		CHECK_EQ(mrc_tx_slot(&t, 1)->cause, MRC_TX_CAUSE_REORDER);
		/* 0's EV delivered nothing: lost by count, or by age 4000 */
		CHECK_EQ(tx_state(&t, 0),
			 mode == 1 ? MRC_TX_IN_FLIGHT : MRC_TX_LOST);
		if (mode != 1)
			continue;
		/* a later packet on EV 1 delivered: 0 is lost a window on */
		CHECK_EQ(mrc_tx_send(&t, 1, 6000, 0), 4);
		CHECK_EQ(tx_sack_one_at(&t, 0, 4, 7000, &res), MRC_TX_ACK_OK);
		CHECK_EQ(res.lost_count, 0);
		CHECK_EQ(tx_sack_one_at(&t, 0, 4, 8000, &res), MRC_TX_ACK_OK);
		CHECK_EQ(res.lost_count, 1);
		CHECK_EQ(res.lost[0].psn, 0);
		CHECK_EQ(res.lost[0].ev, 1);
		CHECK_EQ(tx_state(&t, 0), MRC_TX_LOST);
	}

	/* a trimmed PSN, NAKed and resent, is never declared lost by others */
	CHECK(mrc_tx_init(&t, slots, 64, 0));
	mrc_tx_set_reorder_tolerance(&t, 2);
	mrc_tx_set_path_evidence(&t, true, 0, 0);
	for (u32 i = 0; i < 6; i++)
		mrc_tx_send(&t, i % 2, 1000, 0);
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 0), MRC_TX_NAK_MARKED);
	CHECK(mrc_tx_resend(&t, 0, 1, 2000));	/* now on EV 1 */
	/* three sent after it on EV 0 and delivered: no evidence on EV 1 */
	for (u32 i = 6; i < 9; i++)
		CHECK_EQ(mrc_tx_send(&t, 0, 2000, 0), i);
	for (u32 p = 1; p < 9; p++)
		CHECK_EQ(tx_sack_one(&t, 0, p, &res), MRC_TX_ACK_OK);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);

	/* a NAK for the copy sent at 1000 is stale: 0 was resent at 2000 */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000), MRC_TX_NAK_IGNORED);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
	/* one for the copy sent at 2000 (or later: clock skew of the stamp) */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 2001), MRC_TX_NAK_MARKED);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_LOST);
	CHECK_EQ(mrc_tx_slot(&t, 0)->cause, MRC_TX_CAUSE_TRIMMED);
}

/*
 * The reordering window of path evidence: PSN 0 is trimmed on EV 3 and
 * PSN 1, sent after it on EV 3, is not; the responder NAKs 0, then SACKs
 * 1, and the SACK arrives first. 0 is held, not lost: a NAK within the
 * window makes it a trim; without one it is lost once the window has
 * passed, whether a later ACK or the caller's timer runs the rule.
 */
static void tx_reorder_window(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u32 psn;
	u64 due;

	for (int how = 0; how < 4; how++) {
		CHECK(mrc_tx_init(&t, slots, 64, 0));
		mrc_tx_set_reorder_tolerance(&t, 1);
		/* no age bound, a floor of 100 */
		mrc_tx_set_path_evidence(&t, true, 0, 100);
		CHECK_EQ(mrc_tx_reorder_window(&t), 100);
		CHECK_EQ(mrc_tx_send(&t, 3, 1000, 0), 0);
		CHECK_EQ(mrc_tx_send(&t, 3, 1001, 0), 1);
		CHECK_EQ(mrc_tx_send(&t, 5, 1002, 0), 2);
		/* the SACK of 1: RTT 999, window max(999 / 4, 100) = 249 */
		CHECK_EQ(tx_sack_one_at(&t, 0, 1, 2000, &res), MRC_TX_ACK_OK);
		CHECK_EQ(res.rtt, 999);
		CHECK_EQ(mrc_tx_reorder_window(&t), 249);
		CHECK_EQ(res.lost_count, 0);
		CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
		CHECK(mrc_tx_loss_due(&t, &due));
		CHECK_EQ(due, 2249);
		/* 2, on another EV, is no evidence against EV 3's 0 */
		CHECK_EQ(tx_state(&t, 2), MRC_TX_IN_FLIGHT);

		switch (how) {
		case 0:
			/* the NAK, within the window: a trim */
			CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000),
				 MRC_TX_NAK_MARKED);
			CHECK_EQ(mrc_tx_slot(&t, 0)->cause,
				 MRC_TX_CAUSE_TRIMMED);
			CHECK(mrc_tx_next_to_retransmit(&t, &psn));
			CHECK_EQ(psn, 0);
			/* nothing else comes due: no loss later */
			CHECK_EQ(mrc_tx_detect_losses(&t, 9000, &res), 0);
			break;
		case 1:
			/* no NAK: the timer finds it lost after the window */
			CHECK_EQ(mrc_tx_detect_losses(&t, 2248, &res), 0);
			CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
			CHECK_EQ(mrc_tx_detect_losses(&t, 2249, &res), 1);
			CHECK_EQ(res.lost[0].psn, 0);
			CHECK_EQ(res.lost[0].ev, 3);
			CHECK_EQ(mrc_tx_slot(&t, 0)->cause,
				 MRC_TX_CAUSE_REORDER);
			CHECK(!mrc_tx_loss_due(&t, &due));
			/* a NAK after that is for a PSN no longer in flight */
			CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 0),
				 MRC_TX_NAK_IGNORED);
			break;
		case 2:
			/*
			 * Or a later ACK (the same SACK again), after the
			 * window: the window runs from the first evidence,
			 * later ACKs do not restart it.
			 */
			CHECK_EQ(tx_sack_one_at(&t, 0, 1, 2200, &res),
				 MRC_TX_ACK_OK);
			CHECK_EQ(res.lost_count, 0);
			CHECK_EQ(tx_sack_one_at(&t, 0, 1, 2249, &res),
				 MRC_TX_ACK_OK);
			CHECK_EQ(res.lost_count, 1);
			CHECK_EQ(res.lost[0].psn, 0);
			break;
		default:
			/* 0 was not lost: ACKs came back out of order */
			CHECK_EQ(mrc_tx_on_ack(&t, 2, NULL, 0, 0, 2100, &res),
				 MRC_TX_ACK_OK);
			CHECK_EQ(res.acked_count, 2);
			CHECK_EQ(res.lost_count, 0);
			CHECK_EQ(res.spurious_count, 0);
			CHECK_EQ(mrc_tx_detect_losses(&t, 9000, &res), 0);
			break;
		}
	}

	/* a retransmission starts over: the evidence was against the copy */
	CHECK(tx_two_on_one_ev(&t));
	CHECK_EQ(tx_sack_one_at(&t, 0, 1, 1100, &res), MRC_TX_ACK_OK);
	CHECK(mrc_tx_slot(&t, 0)->held);
	CHECK(mrc_tx_resend(&t, 0, 4, 1150));
	CHECK(!mrc_tx_slot(&t, 0)->held);
	CHECK_EQ(mrc_tx_detect_losses(&t, 9000, &res), 0);

	/*
	 * A resent PSN's delivery is no evidence against its EV (Karn): the
	 * ACK may be for the first copy, sent on another EV long before.
	 */
	CHECK(mrc_tx_init(&t, slots, 64, 0));
	mrc_tx_set_reorder_tolerance(&t, 1);
	mrc_tx_set_path_evidence(&t, true, 0, 100);
	mrc_tx_send(&t, 2, 1000, 0);		/* 0 on EV 2 */
	mrc_tx_send(&t, 3, 1000, 0);		/* 1 on EV 3 */
	CHECK(mrc_tx_resend(&t, 0, 3, 1100));	/* 0 again, on EV 3 */
	/* 0 delivered: the count rule holds for 1, path evidence not */
	CHECK_EQ(mrc_tx_on_ack(&t, 1, NULL, 0, 0, 1200, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_detect_losses(&t, 9000, &res), 0);
	CHECK_EQ(tx_state(&t, 1), MRC_TX_IN_FLIGHT);
	CHECK(!mrc_tx_loss_due(&t, &due));

	/*
	 * A loss the window let through that proves spurious (its NAK
	 * comes after all, for the copy the loss rule replaced) doubles
	 * the window, RACK's reo_wnd_mult; 16 losses on evidence halve it.
	 */
	CHECK(tx_two_on_one_ev(&t));
	CHECK_EQ(tx_sack_one_at(&t, 0, 1, 1050, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_reorder_window(&t), 100);
	CHECK_EQ(mrc_tx_detect_losses(&t, 1150, &res), 1);
	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK(mrc_tx_resend(&t, 0, 4, 1160));
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000), MRC_TX_NAK_IGNORED);
	CHECK_EQ(mrc_tx_reorder_window(&t), 200);
	/* counted once per loss */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000), MRC_TX_NAK_IGNORED);
	CHECK_EQ(mrc_tx_reorder_window(&t), 200);
	/* or the PSN itself, delivered while LOST */
	for (u32 i = 2; i < 4; i++)
		mrc_tx_send(&t, 5, 2000, 0);
	CHECK_EQ(tx_sack_one_at(&t, 1, 3, 2100, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_detect_losses(&t, 2300, &res), 1);
	CHECK_EQ(tx_state(&t, 2), MRC_TX_LOST);
	CHECK_EQ(mrc_tx_on_ack(&t, 3, NULL, 0, 0, 2400, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.spurious_count, 1);
	CHECK_EQ(mrc_tx_reorder_window(&t), 400);
	/* a loss on evidence that stays a loss: 16 of them halve it */
	for (u32 k = 0; k < MRC_TX_REORDER_WINDOW_DECAY; k++) {
		u32 p = mrc_tx_next_psn(&t);
		u64 at = 3000 + 1000 * k;

		mrc_tx_send(&t, 6, at, 0);
		mrc_tx_send(&t, 6, at, 0);
		CHECK_EQ(tx_sack_one_at(&t, mrc_tx_una(&t), p + 1, at + 10,
					&res), MRC_TX_ACK_OK);
		CHECK_EQ(mrc_tx_detect_losses(&t, at + 500, &res), 1);
		CHECK(mrc_tx_resend(&t, p, 7, at + 500));
		CHECK_EQ(mrc_tx_on_ack(&t, p + 2, NULL, 0, 0, at + 600, &res),
			 MRC_TX_ACK_OK);
	}
	CHECK_EQ(mrc_tx_reorder_window(&t), 200);

	/* the floor, and the cap at the age bound */
	CHECK(mrc_tx_init(&t, slots, 64, 0));
	mrc_tx_set_path_evidence(&t, true, 0, 500);
	mrc_tx_send(&t, 3, 1000, 0);
	/* RTT 8000: a quarter is 2000, above the floor */
	CHECK_EQ(mrc_tx_on_ack(&t, 1, NULL, 0, 0, 9000, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_reorder_window(&t), 2000);
	mrc_tx_set_path_evidence(&t, true, 1500, 500);
	CHECK_EQ(mrc_tx_reorder_window(&t), 1500);
	mrc_tx_set_path_evidence(&t, true, 0, 3000);
	CHECK_EQ(mrc_tx_reorder_window(&t), 3000);

	/* the count rule alone, path evidence off, does not wait */
	CHECK(mrc_tx_init(&t, slots, 64, 0));
	mrc_tx_set_reorder_tolerance(&t, 1);
	mrc_tx_send(&t, 3, 1000, 0);
	mrc_tx_send(&t, 3, 1001, 0);
	CHECK_EQ(tx_sack_one_at(&t, 0, 1, 2000, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 1);
	CHECK(!mrc_tx_loss_due(&t, &due));
}

/* The deferred-charge cases' common verdict: PSN 0 lost on EV 3, pending. */
static void check_psn0_lost_on_ev3_deferred(const struct mrc_tx_tracker *t,
					    const struct mrc_tx_ack_result *res)
{
	CHECK_EQ(res->lost[0].psn, 0);
	CHECK_EQ(res->lost[0].ev, 3);
	CHECK(res->lost[0].deferred);
	CHECK_EQ(mrc_tx_pending_charges(t), 1);
}

/*
 * A trimmed PSN declared lost on path evidence before its NAK(trimmed)
 * came back: EV 3 carried PSN 0 (trimmed) and then PSN 1, whose SACK
 * arrived first. With a charge delay, the loss is retransmitted at once
 * but its EV charge waits; the late NAK withdraws it.
 */
static void tx_deferred_setup(struct mrc_tx_tracker *t,
			      struct mrc_tx_ack_result *res)
{
	CHECK(mrc_tx_init(t, slots, 64, 0));
	mrc_tx_set_reorder_tolerance(t, 1);
	mrc_tx_set_path_evidence(t, true, 0, 100);
	mrc_tx_set_charge_delay(t, 500);
	CHECK_EQ(mrc_tx_send(t, 3, 1000, 0), 0);
	CHECK_EQ(mrc_tx_send(t, 3, 1000, 0), 1);
	CHECK_EQ(tx_sack_one_at(t, 0, 1, 1050, res), MRC_TX_ACK_OK);
	CHECK_EQ(res->lost_count, 0);
	/* the window (100) passes: lost on evidence, charge deferred */
	CHECK_EQ(mrc_tx_detect_losses(t, 1150, res), 1);
	check_psn0_lost_on_ev3_deferred(t, res);
}

static void tx_deferred_charge(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	struct mrc_tx_lost due[4];
	u32 psn;
	u64 when;

	/* the late NAK, after the retransmission went: charge withdrawn */
	tx_deferred_setup(&t, &res);
	CHECK(mrc_tx_loss_due(&t, &when));
	CHECK_EQ(when, 1650);
	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(psn, 0);
	CHECK_EQ(mrc_tx_slot(&t, 0)->cause, MRC_TX_CAUSE_REORDER);
	CHECK(mrc_tx_resend(&t, 0, 4, 1160));
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000),
		 MRC_TX_NAK_CHARGE_CANCELLED);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
	/* the retransmission stays in flight: no second one */
	CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);
	/* and the window was too short: it doubles */
	CHECK_EQ(mrc_tx_reorder_window(&t), 200);
	CHECK_EQ(mrc_tx_due_charges(&t, 9000, due, 4), 0);
	/* the same NAK again withdraws nothing more */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000), MRC_TX_NAK_IGNORED);
	CHECK(!mrc_tx_loss_due(&t, &when));

	/* no NAK: the charge comes due after the delay, once */
	tx_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 4, 1160));
	CHECK_EQ(mrc_tx_due_charges(&t, 1649, due, 4), 0);
	CHECK_EQ(mrc_tx_due_charges(&t, 1650, due, 4), 1);
	CHECK_EQ(due[0].psn, 0);
	CHECK_EQ(due[0].ev, 3);
	CHECK(!due[0].deferred);
	CHECK_EQ(mrc_tx_due_charges(&t, 9000, due, 4), 0);
	/* a NAK after that changes nothing: the copy was replaced */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000), MRC_TX_NAK_IGNORED);

	/* the NAK before the retransmission: it goes as a trim's */
	tx_deferred_setup(&t, &res);
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000),
		 MRC_TX_NAK_CHARGE_CANCELLED);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_LOST);
	CHECK_EQ(mrc_tx_slot(&t, 0)->cause, MRC_TX_CAUSE_TRIMMED);
	CHECK_EQ(mrc_tx_lost_count(&t), 1);
	CHECK_EQ(mrc_tx_due_charges(&t, 9000, due, 4), 0);

	/* the NAK after the retransmission was acknowledged: still withdrawn */
	tx_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 4, 1160));
	CHECK_EQ(mrc_tx_on_ack(&t, 2, NULL, 0, 0, 1300, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_outstanding(&t), 0);
	/* a NAK of another copy (another send time) withdraws nothing */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 999), MRC_TX_NAK_IGNORED);
	CHECK_EQ(mrc_tx_pending_charges(&t), 1);
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000),
		 MRC_TX_NAK_CHARGE_CANCELLED);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);

	/* a NAK stamped a little after the tracker's send time is the copy's */
	tx_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 4, 1160));
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1149),
		 MRC_TX_NAK_CHARGE_CANCELLED);
	/* one stamped after it was declared lost is the retransmission's */
	tx_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 4, 1160));
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1165), MRC_TX_NAK_MARKED);
	CHECK_EQ(mrc_tx_pending_charges(&t), 1);

	/*
	 * An EV that delivers nothing: its PSN is lost by age, retransmitted
	 * at once, and its EV still charged, one delay later: no NAK comes.
	 */
	CHECK(mrc_tx_init(&t, slots, 64, 0));
	mrc_tx_set_reorder_tolerance(&t, 1);
	mrc_tx_set_path_evidence(&t, true, 400, 100);
	mrc_tx_set_charge_delay(&t, 500);
	mrc_tx_send(&t, 3, 1000, 0);		/* 0 on EV 3, silent */
	mrc_tx_send(&t, 5, 1000, 0);		/* 1 on EV 5, delivers */
	CHECK_EQ(tx_sack_one_at(&t, 0, 1, 1100, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 0);
	CHECK_EQ(mrc_tx_detect_losses(&t, 1400, &res), 1);
	CHECK_EQ(res.lost[0].ev, 3);
	CHECK(res.lost[0].deferred);
	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(psn, 0);
	CHECK(mrc_tx_loss_due(&t, &when));
	CHECK_EQ(when, 1900);
	CHECK_EQ(mrc_tx_due_charges(&t, 1900, due, 4), 1);
	CHECK_EQ(due[0].ev, 3);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);

	/* no delay (the default): charged at once */
	CHECK(tx_two_on_one_ev(&t));
	CHECK_EQ(tx_sack_one_at(&t, 0, 1, 1050, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_detect_losses(&t, 1150, &res), 1);
	CHECK(!res.lost[0].deferred);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
}

/*
 * The count rule alone (path evidence off: no trim seen yet) with a
 * charge delay: a PSN sprayed on EV 3, overtaken by two on EV 5, is
 * declared lost and resent at once, but its EV verdict waits as on
 * evidence. A late NAK(trimmed) of the copy withdraws it; the PSN's own
 * late arrival before it was resent withdraws it too (the copy declared
 * lost is the one that came: reordering); without either it comes due.
 */
static void tx_count_rule_deferred_setup(struct mrc_tx_tracker *t,
					 struct mrc_tx_ack_result *res)
{
	CHECK(mrc_tx_init(t, slots, 64, 0));
	mrc_tx_set_reorder_tolerance(t, 2);
	mrc_tx_set_charge_delay(t, 500);
	CHECK_EQ(mrc_tx_send(t, 3, 1000, 0), 0);
	CHECK_EQ(mrc_tx_send(t, 5, 1001, 0), 1);
	CHECK_EQ(mrc_tx_send(t, 5, 1002, 0), 2);
	CHECK_EQ(tx_sack_one_at(t, 0, 1, 1100, res), MRC_TX_ACK_OK);
	CHECK_EQ(res->lost_count, 0);
	CHECK_EQ(tx_sack_one_at(t, 0, 2, 1110, res), MRC_TX_ACK_OK);
	CHECK_EQ(res->lost_count, 1);
	check_psn0_lost_on_ev3_deferred(t, res);
}

static void tx_count_rule_deferred_charge(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	struct mrc_tx_lost due[4];
	u64 when;
	u32 psn;

	/* resent at once; the late NAK of the first copy withdraws */
	tx_count_rule_deferred_setup(&t, &res);
	CHECK(mrc_tx_loss_due(&t, &when));
	CHECK_EQ(when, 1610);
	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(psn, 0);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000),
		 MRC_TX_NAK_CHARGE_CANCELLED);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_IN_FLIGHT);
	CHECK_EQ(mrc_tx_due_charges(&t, 9000, due, 4), 0);
	/* the count rule's window is not path evidence's: it stays */
	CHECK_EQ(t.reorder_window_mult, 1);

	/* no NAK, no arrival: due one delay after the declaration */
	tx_count_rule_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_due_charges(&t, 1609, due, 4), 0);
	CHECK_EQ(mrc_tx_due_charges(&t, 1610, due, 4), 1);
	CHECK_EQ(due[0].psn, 0);
	CHECK_EQ(due[0].ev, 3);

	/*
	 * With patience: once the delay passed, an EV that delivered a
	 * later transmission waits until the copy is that old; one that
	 * delivered nothing since is charged after the delay alone.
	 */
	tx_count_rule_deferred_setup(&t, &res);
	mrc_tx_set_charge_patience(&t, 2000);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_due_charges(&t, 1610, due, 4), 1);
	CHECK_EQ(due[0].ev, 3);
	tx_count_rule_deferred_setup(&t, &res);
	mrc_tx_set_charge_patience(&t, 2000);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_send(&t, 3, 1130, 0), 3);
	CHECK_EQ(tx_sack_one_at(&t, 0, 3, 1200, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_due_charges(&t, 1610, due, 4), 0);
	CHECK(mrc_tx_loss_due(&t, &when));
	CHECK_EQ(when, 3000);
	/* its NAK, 1.5 delays late, still withdraws it */
	CHECK_EQ(mrc_tx_on_nak_trimmed_echo(&t, 0, 1000),
		 MRC_TX_NAK_CHARGE_CANCELLED);
	CHECK_EQ(mrc_tx_due_charges(&t, 9000, due, 4), 0);
	/* no NAK: charged when the copy is that old, once */
	tx_count_rule_deferred_setup(&t, &res);
	mrc_tx_set_charge_patience(&t, 2000);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_send(&t, 3, 1130, 0), 3);
	CHECK_EQ(tx_sack_one_at(&t, 0, 3, 1200, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_due_charges(&t, 2999, due, 4), 0);
	CHECK_EQ(mrc_tx_due_charges(&t, 3000, due, 4), 1);
	CHECK_EQ(due[0].psn, 0);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);

	/* the first copy arrives before the retransmission went */
	tx_count_rule_deferred_setup(&t, &res);
	CHECK_EQ(mrc_tx_on_ack(&t, 1, NULL, 0, 0, 1200, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.spurious_count, 1);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
	CHECK(!mrc_tx_next_to_retransmit(&t, &psn));

	/* ... but after it went, the ACK cannot say which copy came ... */
	tx_count_rule_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_on_ack(&t, 3, NULL, 0, 0, 1300, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_pending_charges(&t), 1);
	/*
	 * ... unless it came sooner after the resend than the least RTT
	 * (RFC 8985): then it was the first copy's. The least RTT here is
	 * 99 (PSN 1's), and PSN 0 was resent at 1120.
	 */
	tx_count_rule_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_on_ack(&t, 3, NULL, 0, 0, 1218, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
	tx_count_rule_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	CHECK_EQ(mrc_tx_on_ack(&t, 3, NULL, 0, 0, 1219, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_pending_charges(&t), 1);
	/* its echo can: the retransmission's stamp withdraws nothing ... */
	CHECK(!mrc_tx_on_delivered_echo(&t, 0, 1121));
	CHECK(!mrc_tx_on_delivered_echo(&t, 1, 1000));
	CHECK_EQ(mrc_tx_pending_charges(&t), 1);
	/* ... the first copy's (stamped as it left) does */
	CHECK(mrc_tx_on_delivered_echo(&t, 0, 1003));
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
	CHECK(!mrc_tx_on_delivered_echo(&t, 0, 1003));
	CHECK_EQ(mrc_tx_due_charges(&t, 9000, due, 4), 0);

	/* no delay: at once (PSN 0's delivery comes an RTT after its resend) */
	tx_count_rule_deferred_setup(&t, &res);
	CHECK(mrc_tx_resend(&t, 0, 5, 1120));
	mrc_tx_set_charge_delay(&t, 0);
	CHECK_EQ(mrc_tx_send(&t, 3, 1130, 0), 3);
	CHECK_EQ(mrc_tx_send(&t, 5, 1131, 0), 4);
	CHECK_EQ(mrc_tx_send(&t, 5, 1132, 0), 5);
	CHECK_EQ(mrc_tx_on_ack(&t, 3, (u64[]){ TOP_BIT >> 0 | TOP_BIT >> 1 },
			       1, 0, 1240, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 1);
	CHECK_EQ(res.lost[0].psn, 3);
	CHECK(!res.lost[0].deferred);
	CHECK_EQ(mrc_tx_pending_charges(&t), 1);
}

/* More losses on evidence than can wait: the rest are charged at once. */
static void tx_deferred_charge_overflow(void)
{
	const u32 n = MRC_TX_PENDING_CHARGES + 2;
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	struct mrc_tx_lost due[8];
	u32 i, deferred = 0, taken = 0, got;

	CHECK(mrc_tx_init(&t, slots, 1024, 0));
	mrc_tx_set_reorder_tolerance(&t, 1);
	mrc_tx_set_path_evidence(&t, true, 0, 100);
	mrc_tx_set_charge_delay(&t, 500);
	/* n PSNs, each followed by a delivered one on the same EV */
	for (i = 0; i < n; i++) {
		mrc_tx_send(&t, i % MRC_TX_EV_TRACKED, 1000, 0);
		mrc_tx_send(&t, i % MRC_TX_EV_TRACKED, 1000, 0);
	}
	for (i = 0; i < n; i++)
		CHECK_EQ(tx_sack_one_at(&t, 0, 2 * i + 1, 1050, &res),
			 MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_detect_losses(&t, 1150, &res), n);
	for (i = 0; i < res.lost_reported; i++)
		deferred += res.lost[i].deferred;
	/* the report holds MRC_TX_ACK_MAX_LOST of them, all deferred */
	CHECK_EQ(deferred, MRC_TX_ACK_MAX_LOST);
	CHECK_EQ(mrc_tx_pending_charges(&t), MRC_TX_PENDING_CHARGES);
	do {
		got = mrc_tx_due_charges(&t, 1650, due, 8);
		taken += got;
	} while (got == 8);
	CHECK_EQ(taken, MRC_TX_PENDING_CHARGES);
	CHECK_EQ(mrc_tx_pending_charges(&t), 0);
}

/*
 * The tail the responder may never acknowledge: transmissions after the
 * newest one that asked for an ACK, once that one is no longer in flight.
 */
static void tx_unasked_tail(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;

	CHECK(mrc_tx_init(&t, slots, 64, 0));
	CHECK(!mrc_tx_unasked_tail(&t));
	mrc_tx_send(&t, 1, 1000, 0);
	/* nothing asked yet */
	CHECK(mrc_tx_unasked_tail(&t));
	mrc_tx_ack_asked(&t, 0);
	CHECK(!mrc_tx_unasked_tail(&t));
	/* 1 and 2 go without asking: 0's ACK is still due */
	mrc_tx_send(&t, 1, 1001, 0);
	mrc_tx_send(&t, 1, 1002, 0);
	CHECK(!mrc_tx_unasked_tail(&t));
	/* 0 acknowledged: 1 and 2, arriving in order, would not be */
	CHECK_EQ(mrc_tx_on_ack(&t, 1, NULL, 0, 0, 1100, &res), MRC_TX_ACK_OK);
	CHECK(mrc_tx_unasked_tail(&t));
	/* one more that asks covers them */
	mrc_tx_send(&t, 1, 1101, 0);
	mrc_tx_ack_asked(&t, 3);
	CHECK(!mrc_tx_unasked_tail(&t));
	/* 3 delivered first: 1 and 2 are holes, acknowledged on arrival */
	CHECK_EQ(tx_sack_one_at(&t, 1, 3, 1200, &res), MRC_TX_ACK_OK);
	CHECK(!mrc_tx_unasked_tail(&t));
	/* the asking one declared lost: its retransmission will ask */
	CHECK(mrc_tx_init(&t, slots, 64, 0));
	mrc_tx_send(&t, 1, 1000, 0);
	mrc_tx_ack_asked(&t, 0);
	mrc_tx_send(&t, 1, 1001, 0);
	CHECK_EQ(mrc_tx_on_timeout(&t, 1000 + 50, 50), 1);
	CHECK(mrc_tx_unasked_tail(&t));
	CHECK(mrc_tx_resend(&t, 0, 2, 1060));
	mrc_tx_ack_asked(&t, 0);
	CHECK(!mrc_tx_unasked_tail(&t));
	/* everything acknowledged: nothing in flight, nothing owed */
	CHECK_EQ(mrc_tx_on_ack(&t, 2, NULL, 0, 0, 1200, &res), MRC_TX_ACK_OK);
	CHECK(!mrc_tx_unasked_tail(&t));
}

static void tx_trimmed_nak(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	const struct mrc_tx_slot *s;
	u32 psn;

	tx_setup(&t, 16, 0, 5);
	CHECK(!mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 2), MRC_TX_NAK_MARKED);
	s = mrc_tx_slot(&t, 2);
	CHECK_EQ(s->state, MRC_TX_LOST);
	CHECK_EQ(s->cause, MRC_TX_CAUSE_TRIMMED);
	CHECK_EQ(s->ev, 102);
	CHECK_EQ(mrc_tx_lost_count(&t), 1);
	CHECK_EQ(t.n_in_flight, 4);
	/* again, or outside the window, or SACKed: ignored */
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 2), MRC_TX_NAK_IGNORED);
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 5), MRC_TX_NAK_IGNORED);
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, MRC_PSN_MASK), MRC_TX_NAK_IGNORED);
	CHECK_EQ(tx_sack_one(&t, 0, 3, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 3), MRC_TX_NAK_IGNORED);
	/* a trim is not evidence of EV loss: no other PSN declared lost */
	CHECK_EQ(res.lost_count, 0);

	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(psn, 2);
	CHECK(mrc_tx_resend(&t, 2, 200, 1500));
	CHECK_EQ(s->state, MRC_TX_IN_FLIGHT);
	CHECK_EQ(s->cause, MRC_TX_CAUSE_NONE);
	CHECK_EQ(s->retx_count, 1);
	CHECK_EQ(s->sent_at, 1500);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);
	CHECK(!mrc_tx_next_to_retransmit(&t, &psn));
	/* a SACKed PSN is never resent */
	CHECK(!mrc_tx_resend(&t, 3, 1, 1));
	CHECK(!mrc_tx_resend(&t, 9, 1, 1));
}

static void tx_timeout(void)
{
	struct mrc_tx_tracker t;
	u32 psn;
	u64 at;

	CHECK(mrc_tx_init(&t, slots, 16, 0));
	CHECK(!mrc_tx_oldest_unacked(&t, &psn, &at));
	for (u32 i = 0; i < 5; i++)
		mrc_tx_send(&t, i, 10 * i, 0);	/* sent at 0, 10, .., 40 */
	CHECK(mrc_tx_oldest_unacked(&t, &psn, &at));
	CHECK_EQ(psn, 0);
	CHECK_EQ(at, 0);

	CHECK_EQ(mrc_tx_on_timeout(&t, 35, 100), 0);
	/* now - sent_at >= rto: 0, 10 and 20 */
	CHECK_EQ(mrc_tx_on_timeout(&t, 35, 15), 3);
	CHECK_EQ(mrc_tx_slot(&t, 1)->cause, MRC_TX_CAUSE_TIMEOUT);
	CHECK_EQ(mrc_tx_slot(&t, 3)->state, MRC_TX_IN_FLIGHT);
	CHECK(mrc_tx_oldest_unacked(&t, &psn, &at));
	CHECK_EQ(psn, 3);
	CHECK_EQ(at, 30);
	CHECK_EQ(mrc_tx_on_timeout(&t, 35, 15), 0);

	/* resending 1 makes it the newest; 3 and 4 time out first */
	CHECK(mrc_tx_resend(&t, 1, 7, 60));
	CHECK_EQ(mrc_tx_slot(&t, 1)->retx_count, 1);
	CHECK_EQ(mrc_tx_on_timeout(&t, 70, 20), 2);
	CHECK(mrc_tx_oldest_unacked(&t, &psn, &at));
	CHECK_EQ(psn, 1);
	CHECK_EQ(at, 60);
	/* a clock before the send time times nothing out */
	CHECK_EQ(mrc_tx_on_timeout(&t, 50, 0), 0);
	CHECK_EQ(mrc_tx_on_timeout(&t, 80, 20), 1);
	CHECK_EQ(mrc_tx_lost_count(&t), 5);
	CHECK(!mrc_tx_oldest_unacked(&t, &psn, &at));
}

static void tx_stale_and_invalid_acks(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u64 sack[2] = { 0, 0 };

	tx_setup(&t, 64, 0, 10);
	CHECK_EQ(mrc_tx_on_ack(&t, 5, NULL, 0, 0, 0, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_on_ack(&t, 3, NULL, 0, 0, 0, &res), MRC_TX_ACK_STALE);
	CHECK_EQ(res.acked_count, 0);
	CHECK_EQ(mrc_tx_on_ack(&t, MRC_PSN_MASK, NULL, 0, 0, 0, &res),
		 MRC_TX_ACK_STALE);
	CHECK_EQ(mrc_tx_on_ack(&t, 11, NULL, 0, 0, 0, &res),
		 MRC_TX_ACK_INVALID);
	/* exactly half the space away counts as before: stale */
	CHECK_EQ(mrc_tx_on_ack(&t, 5 + MRC_PSN_HALF, NULL, 0, 0, 0, &res),
		 MRC_TX_ACK_STALE);
	CHECK_EQ(mrc_tx_on_ack(&t, 5 + MRC_PSN_HALF - 1, NULL, 0, 0, 0, &res),
		 MRC_TX_ACK_INVALID);

	/* cum 5: bits may name 6..9 only (i = 0..3) */
	sack[0] = TOP_BIT >> 3;
	CHECK_EQ(mrc_tx_on_ack(&t, 5, sack, 1, 0, 0, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.sacked_count, 1);
	sack[0] = TOP_BIT >> 4;		/* PSN 10 == next */
	CHECK_EQ(mrc_tx_on_ack(&t, 5, sack, 1, 0, 0, &res),
		 MRC_TX_ACK_INVALID);
	sack[0] = 0;
	sack[1] = 1;			/* far beyond */
	CHECK_EQ(mrc_tx_on_ack(&t, 5, sack, 2, 0, 0, &res),
		 MRC_TX_ACK_INVALID);
	sack[1] = 0;
	CHECK_EQ(mrc_tx_on_ack(&t, 5, sack, 2, 0, 0, &res), MRC_TX_ACK_OK);
	/* cum == next: no bit allowed at all */
	sack[0] = TOP_BIT;
	CHECK_EQ(mrc_tx_on_ack(&t, 10, sack, 1, 0, 0, &res),
		 MRC_TX_ACK_INVALID);
	/* the rejected ACKs changed nothing */
	CHECK_EQ(mrc_tx_una(&t), 5);
	CHECK_EQ(t.n_sacked, 1);
	CHECK_EQ(tx_state(&t, 9), MRC_TX_SACKED);
	CHECK_EQ(tx_state(&t, 8), MRC_TX_IN_FLIGHT);
	CHECK_EQ(mrc_tx_on_ack(&t, 10, NULL, 0, 0, 0, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_count, 5);
	CHECK_EQ(mrc_tx_outstanding(&t), 0);
}

static void tx_retransmit_order(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	static const u32 marks[] = { 17, 3, 9, 30, 4, 22 };
	static const u32 sorted[] = { 3, 4, 9, 17, 22, 30 };
	u32 psn, n = 0;

	tx_setup(&t, 64, 0, 40);
	for (u32 i = 0; i < 6; i++)
		CHECK_EQ(mrc_tx_on_nak_trimmed(&t, marks[i]),
			 MRC_TX_NAK_MARKED);
	CHECK_EQ(mrc_tx_lost_count(&t), 6);

	/* the plain iterator does not consume */
	psn = 0;
	while (mrc_tx_next_lost(&t, psn, &psn)) {
		CHECK(n < 6);
		if (n < 6)
			CHECK_EQ(psn, sorted[n]);
		n++;
		psn = mrc_psn_add(psn, 1);
	}
	CHECK_EQ(n, 6);
	CHECK(mrc_tx_next_lost(&t, MRC_PSN_MASK, &psn));	/* before una */
	CHECK_EQ(psn, 3);

	/* cum ack over 3 and 4: they are no longer to be resent */
	CHECK_EQ(mrc_tx_on_ack(&t, 5, NULL, 0, 0, 0, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.spurious_count, 2);
	CHECK_EQ(mrc_tx_lost_count(&t), 4);

	n = 2;
	while (mrc_tx_next_to_retransmit(&t, &psn)) {
		CHECK(n < 6);
		if (n >= 6)
			break;
		CHECK_EQ(psn, sorted[n]);
		/* a new loss below the cursor is still found first */
		if (psn == 17) {
			CHECK_EQ(mrc_tx_on_nak_trimmed(&t, 12),
				 MRC_TX_NAK_MARKED);
			CHECK(mrc_tx_next_to_retransmit(&t, &psn));
			CHECK_EQ(psn, 12);
			CHECK(mrc_tx_resend(&t, 12, 1, 1));
			CHECK(mrc_tx_next_to_retransmit(&t, &psn));
			CHECK_EQ(psn, 17);
		}
		CHECK(mrc_tx_resend(&t, psn, 1, 1));
		n++;
	}
	CHECK_EQ(n, 6);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);
}

static void tx_wraparound(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u64 sack[1];
	const u32 start = MRC_PSN_MASK - 9;
	u32 psn;

	tx_setup(&t, 64, start, 30);
	CHECK_EQ(mrc_tx_next_psn(&t), 20);
	/* cum = 0xfffffe; SACK 0xffffff, 0, 1, 2 (i = 0..3) */
	sack[0] = (u64)0xf << 60;
	CHECK_EQ(mrc_tx_on_ack(&t, MRC_PSN_MASK - 1, sack, 1, 0, 0, &res),
		 MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_first, start);
	CHECK_EQ(res.acked_count, 8);
	CHECK_EQ(res.sacked_count, 4);
	CHECK_EQ(res.lost_count, 1);
	CHECK_EQ(res.lost[0].psn, MRC_PSN_MASK - 1);
	CHECK_EQ(tx_state(&t, 0), MRC_TX_SACKED);
	CHECK_EQ(tx_state(&t, 3), MRC_TX_IN_FLIGHT);
	CHECK(mrc_tx_next_to_retransmit(&t, &psn));
	CHECK_EQ(psn, MRC_PSN_MASK - 1);
	CHECK_EQ(mrc_tx_on_ack(&t, 5, NULL, 0, 0, 0, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.acked_count, 7);
	CHECK_EQ(mrc_tx_una(&t), 5);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);
	CHECK_EQ(mrc_tx_on_ack(&t, 3, NULL, 0, 0, 0, &res), MRC_TX_ACK_STALE);
	CHECK_EQ(mrc_tx_on_ack(&t, MRC_PSN_MASK, NULL, 0, 0, 0, &res),
		 MRC_TX_ACK_STALE);
}

static void tx_tolerance_clamps_and_shrinks(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;

	tx_setup(&t, 64, 0, 30);
	mrc_tx_set_reorder_tolerance(&t, 0);
	CHECK_EQ(t.reorder_tolerance, 1);
	mrc_tx_set_reorder_tolerance(&t, 100000);
	CHECK_EQ(t.reorder_tolerance, MRC_TX_REORDER_MAX);
	mrc_tx_set_reorder_tolerance(&t, 10);
	for (u32 p = 20; p < 28; p++)
		CHECK_EQ(tx_sack_one(&t, 0, p, &res), MRC_TX_ACK_OK);
	CHECK_EQ(mrc_tx_lost_count(&t), 0);
	/* eight delivered after 0..19: a tolerance of 8 applies at once */
	mrc_tx_set_reorder_tolerance(&t, 8);
	CHECK_EQ(tx_sack_one(&t, 0, 28, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 20);
	CHECK_EQ(res.lost_reported, 20);
	CHECK_EQ(res.lost[19].psn, 19);
	CHECK_EQ(tx_state(&t, 29), MRC_TX_IN_FLIGHT);
}

static void tx_lost_report_overflow(void)
{
	struct mrc_tx_tracker t;
	struct mrc_tx_ack_result res;
	u32 psn, n = 0;

	tx_setup(&t, 128, 0, 100);
	mrc_tx_set_reorder_tolerance(&t, 1);
	CHECK_EQ(tx_sack_one(&t, 0, 99, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.lost_count, 99);
	CHECK_EQ(res.lost_reported, MRC_TX_ACK_MAX_LOST);
	for (u32 i = 0; i < MRC_TX_ACK_MAX_LOST; i++)
		CHECK_EQ(res.lost[i].psn, i);
	while (mrc_tx_next_to_retransmit(&t, &psn) && n < 200) {
		CHECK_EQ(psn, n);
		CHECK(mrc_tx_resend(&t, psn, 1, 1));
		n++;
	}
	CHECK_EQ(n, 99);
}

/* ---------------------------------------------------------------------- */
/* End to end                                                              */
/* ---------------------------------------------------------------------- */

enum {
	SIM_PSNS = 100000,
	SIM_SLOTS = 512,
	SIM_WHEEL = 256,
	SIM_RATE = 8,		/* new PSNs per tick */
	SIM_ACK_EVERY = 4,	/* arrivals per ACK */
	SIM_ACK_DELAY = 3,	/* ticks an arrival waits for an ACK at most */
	SIM_RTO = 200,
	SIM_EVS = 16,
};

struct sim_pkt {
	u32 psn;
	/* ACK fields */
	u32 cum;
	u32 nwords;
	u64 words[MRC_RX_SACK_MAX_WORDS];
};

struct sim_queue {
	struct sim_pkt *pkts;
	u32 len;
	u32 cap;
};

struct sim_chan {
	struct sim_queue wheel[SIM_WHEEL];
	u32 loss_x10, reorder_x10, dup_x10;
	u64 sent, dropped, dupped;
};

static void sim_enqueue(struct sim_chan *c, u64 now, const struct sim_pkt *p)
{
	int copies = 1 + rng_chance(c->dup_x10);

	c->sent++;
	c->dupped += copies - 1;
	while (copies--) {
		u32 delay = 5 + rng_below(4);
		struct sim_queue *q;

		if (rng_chance(c->loss_x10)) {
			c->dropped++;
			continue;
		}
		if (rng_chance(c->reorder_x10))
			delay += 1 + rng_below(40);
		q = &c->wheel[(now + delay) % SIM_WHEEL];
		if (q->len == q->cap) {
			q->cap = q->cap ? 2 * q->cap : 64;
			q->pkts = realloc(q->pkts, q->cap * sizeof(*q->pkts));
			if (!q->pkts)
				abort();
		}
		q->pkts[q->len++] = *p;
	}
}

static void sim_free(struct sim_chan *c)
{
	for (int i = 0; i < SIM_WHEEL; i++)
		free(c->wheel[i].pkts);
}

struct sim_stats {
	u64 ticks, acks, stale, invalid, retx, retx_needless;
	u64 lost_reorder, lost_timeout, dups, oow, bad_ev, max_retx;
};

static void sim_run(u32 tolerance, struct sim_stats *st)
{
	static struct sim_chan data, acks;
	static struct mrc_tx_slot sim_slots[SIM_SLOTS];
	static u8 new_count[SIM_PSNS];
	static u8 sack_seen[SIM_PSNS];
	static u32 tx_ev[SIM_PSNS];
	const u32 start = MRC_PSN_MASK - 5000;
	const u32 end = mrc_psn_add(start, SIM_PSNS);
	struct mrc_tx_tracker t;
	struct mrc_rx_window w;
	struct mrc_tx_ack_result res;
	u32 sent = 0, pending = 0, ev_rr = 0;
	u64 now, last_ack = 0;
	int multi_new = 0;

	memset(st, 0, sizeof(*st));
	memset(&data, 0, sizeof(data));
	memset(&acks, 0, sizeof(acks));
	memset(new_count, 0, sizeof(new_count));
	memset(sack_seen, 0, sizeof(sack_seen));
	data.loss_x10 = 20;	/* 2% */
	data.reorder_x10 = 250;	/* 25% */
	data.dup_x10 = 10;	/* 1% */
	acks = data;

	CHECK(mrc_tx_init(&t, sim_slots, SIM_SLOTS, start));
	mrc_tx_set_reorder_tolerance(&t, tolerance);
	mrc_rx_init(&w, start);

	for (now = 1; mrc_tx_una(&t) != end && now < 2000000; now++) {
		struct sim_queue *q = &data.wheel[now % SIM_WHEEL];
		int ack_now = 0;
		u32 psn;

		/* responder */
		for (u32 i = 0; i < q->len; i++) {
			u32 idx = mrc_psn_distance(start, q->pkts[i].psn);

			switch (mrc_rx_accept(&w, q->pkts[i].psn)) {
			case MRC_RX_NEW:
				if (++new_count[idx] > 1)
					multi_new++;
				break;
			case MRC_RX_DUPLICATE:
				st->dups++;
				ack_now = 1;	/* re-ACK, never re-execute */
				break;
			default:
				st->oow++;
				break;
			}
			pending++;
		}
		q->len = 0;
		if (pending && (ack_now || pending >= SIM_ACK_EVERY ||
				now - last_ack >= SIM_ACK_DELAY)) {
			struct sim_pkt a;

			a.psn = 0;
			a.cum = mrc_rx_epsn(&w);
			a.nwords = mrc_rx_sack(&w, a.words,
					       MRC_RX_SACK_MAX_WORDS);
			sim_enqueue(&acks, now, &a);
			pending = 0;
			last_ack = now;
		}

		/* requester: ACKs */
		q = &acks.wheel[now % SIM_WHEEL];
		for (u32 i = 0; i < q->len; i++) {
			const struct sim_pkt *a = &q->pkts[i];
			int rc;

			st->acks++;
			rc = mrc_tx_on_ack(&t, a->cum, a->words, a->nwords,
					   0, now, &res);
			if (rc == MRC_TX_ACK_STALE) {
				st->stale++;
				continue;
			}
			if (rc != MRC_TX_ACK_OK) {
				st->invalid++;
				continue;
			}
			/* what the requester now knows was received */
			for (u32 p = res.acked_first; p != a->cum;
			     p = mrc_psn_add(p, 1))
				sack_seen[mrc_psn_distance(start, p)] = 1;
			for (u32 b = 0; b < 64 * a->nwords; b++)
				if (a->words[b / 64] & (TOP_BIT >> (b % 64)))
					sack_seen[mrc_psn_distance(start,
						mrc_psn_add(a->cum, 1 + b))] = 1;
			st->lost_reorder += res.lost_count;
			for (u32 k = 0; k < res.lost_reported; k++) {
				u32 idx = mrc_psn_distance(start,
							   res.lost[k].psn);

				st->bad_ev += res.lost[k].ev != tx_ev[idx];
			}
		}
		q->len = 0;

		/* requester: timeouts, retransmissions, new data */
		st->lost_timeout += mrc_tx_on_timeout(&t, now, SIM_RTO);
		while (mrc_tx_next_to_retransmit(&t, &psn)) {
			u32 idx = mrc_psn_distance(start, psn);
			const struct mrc_tx_slot *s = mrc_tx_slot(&t, psn);
			struct sim_pkt p = { .psn = psn };

			/* never resend what a SACK or cum ack covered */
			CHECK(!sack_seen[idx]);
			if (sack_seen[idx])
				break;
			st->retx_needless += mrc_rx_received(&w, psn);
			tx_ev[idx] = (s->ev + 1) % SIM_EVS;
			CHECK(mrc_tx_resend(&t, psn, tx_ev[idx], now));
			if (s->retx_count > st->max_retx)
				st->max_retx = s->retx_count;
			st->retx++;
			sim_enqueue(&data, now, &p);
		}
		for (u32 k = 0; k < SIM_RATE && sent < SIM_PSNS &&
		     mrc_tx_can_send(&t); k++) {
			struct sim_pkt p;

			tx_ev[sent] = ev_rr++ % SIM_EVS;
			p.psn = mrc_tx_send(&t, tx_ev[sent], now, sent);
			CHECK_EQ(p.psn, mrc_psn_add(start, sent));
			sim_enqueue(&data, now, &p);
			sent++;
		}
	}
	st->ticks = now;

	CHECK_EQ(mrc_tx_una(&t), end);
	CHECK_EQ(mrc_rx_epsn(&w), end);
	CHECK_EQ(multi_new, 0);
	for (u32 i = 0; i < SIM_PSNS; i++) {
		if (new_count[i] != 1) {
			CHECK_EQ(new_count[i], 1);
			break;
		}
	}
	CHECK_EQ(st->oow, 0);
	CHECK_EQ(st->invalid, 0);
	CHECK_EQ(st->bad_ev, 0);
	CHECK(st->dups > 0);
	CHECK(st->lost_reorder > 0);
	CHECK(data.dropped > 0 && data.dupped > 0);
	printf("# tolerance %u: %llu ticks; data: %llu sent, %llu dropped, %llu duplicated, %llu duplicate arrivals\n",
	       tolerance, (unsigned long long)st->ticks,
	       (unsigned long long)data.sent,
	       (unsigned long long)data.dropped,
	       (unsigned long long)data.dupped,
	       (unsigned long long)st->dups);
	printf("# acks %llu (%llu stale); lost %llu by SACK, %llu by timeout; %llu retx (%llu needless), at most %llu per PSN\n",
	       (unsigned long long)st->acks, (unsigned long long)st->stale,
	       (unsigned long long)st->lost_reorder,
	       (unsigned long long)st->lost_timeout,
	       (unsigned long long)st->retx,
	       (unsigned long long)st->retx_needless,
	       (unsigned long long)st->max_retx);
	sim_free(&data);
	sim_free(&acks);
}

static void sim_end_to_end(void)
{
	struct sim_stats st;

	rng_seed(0x5eed);
	sim_run(3, &st);
}

static void sim_end_to_end_high_tolerance(void)
{
	struct sim_stats st;

	rng_seed(0xfeed);
	sim_run(64, &st);
	/* deep tolerance: fewer needless retransmissions, timeouts do more */
	CHECK(st.lost_timeout > 0);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(rx_in_order),
	KTAP_CASE(rx_random_reordering),
	KTAP_CASE(rx_sliding_reordering),
	KTAP_CASE(rx_duplicates),
	KTAP_CASE(rx_duplicate_and_window_boundaries),
	KTAP_CASE(rx_full_window_run),
	KTAP_CASE(rx_wraparound),
	KTAP_CASE(rx_sack_golden),
	KTAP_CASE(rx_sack_matches_received),
	KTAP_CASE(tx_init_validates),
	KTAP_CASE(tx_send_fills_window),
	KTAP_CASE(tx_ack_advances_una),
	KTAP_CASE(tx_sack_marks),
	KTAP_CASE(tx_loss_after_tolerance),
	KTAP_CASE(tx_no_false_loss_below_tolerance),
	KTAP_CASE(tx_loss_rule_uses_send_order),
	KTAP_CASE(tx_trimmed_nak),
	KTAP_CASE(tx_path_evidence),
	KTAP_CASE(tx_reorder_window),
	KTAP_CASE(tx_deferred_charge),
	KTAP_CASE(tx_deferred_charge_overflow),
	KTAP_CASE(tx_count_rule_deferred_charge),
	KTAP_CASE(tx_unasked_tail),
	KTAP_CASE(tx_timeout),
	KTAP_CASE(tx_stale_and_invalid_acks),
	KTAP_CASE(tx_retransmit_order),
	KTAP_CASE(tx_wraparound),
	KTAP_CASE(tx_tolerance_clamps_and_shrinks),
	KTAP_CASE(tx_lost_report_overflow),
	KTAP_CASE(sim_end_to_end),
	KTAP_CASE(sim_end_to_end_high_tolerance),
};

KTAP_MAIN("sack", cases)
