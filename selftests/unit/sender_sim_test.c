// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A small discrete-event network driving a sender core (mrc_sender.c) and
 * a receiver core (mrc_receiver.c): several EVs, each a path with its own
 * delay, jitter (reordering), loss, duplication, trimming and a time at
 * which it fails. Every scenario is seeded; a failing case prints the
 * scenario and seed to reproduce it. The checks: every message completes
 * exactly once and in order, every PSN reaches the receiver's upper layer
 * exactly once, retries exhaust with the right status, a failed path is
 * retired and traffic moves off it, and trims are resent without an RTO.
 * Paths sit on planes (ports); a plane can go down and come back at set
 * times, which the sender hears at once, as the kernel's port events.
 */
#include "ktap.h"
#include "mrc_sender.h"
#include "mrc_receiver.h"

#define SIM_EVS		8
#define SIM_SLOTS	256
#define SIM_MSGS	64
#define SIM_MAX_PSNS	65536
#define SIM_MAX_EVENTS	65536
#define SIM_NEVER	(~0ull)

struct sim_path {
	u64 delay_us;
	u64 jitter_us;
	u32 loss_ppm;
	u32 dup_ppm;
	u32 trim_ppm;
	u64 fail_at_us;
	/* Works again from here (SIM_NEVER: stays dead). */
	u64 recover_at_us;
	u8 plane;
};

#define SIM_PLANES		2
#define SIM_PLANE_EVENTS	4

/* A plane (port) goes down or comes back at @at_us. */
struct sim_plane_event {
	u64 at_us;
	u8 plane;
	bool up;
};

struct sim_scenario {
	const char *name;
	u64 seed;
	u32 n_evs;
	u32 n_msgs;
	u32 max_msg_pkts;
	u32 retry_cnt;
	bool cc;
	u64 time_limit_us;
	struct sim_path path[SIM_EVS];
	u8 n_planes;		/* 0 means 1 */
	/* The RTO's floor and initial value, T (0: 200 us and 1 ms). */
	u64 rto_min_us;
	/*
	 * A probe of a dead path gets no answer at all, as on a network, and
	 * the sender's own probe timeout must find it failed (else the
	 * caller reports the failure after 1 ms).
	 */
	bool silent_probes;
	/* The first completion from here on is recorded (0: none). */
	u64 resume_at_us;
	u32 n_plane_events;
	struct sim_plane_event plane_event[SIM_PLANE_EVENTS];
};

enum sim_kind { SIM_DATA, SIM_REPLY, SIM_TIMER, SIM_PROBE_RESULT, SIM_PLANE };

struct sim_event {
	u64 t;
	u64 order;
	u8 kind;
	u32 psn;
	u32 ev;
	u32 flags;
	u64 gen;
	struct mrc_receiver_reply reply;
};

struct sim {
	const struct sim_scenario *sc;
	u64 rng;
	u64 now;
	u64 order;
	struct sim_event heap[SIM_MAX_EVENTS];
	u32 n_events;
	u64 timer_gen;
	u64 timer_due;

	struct mrc_sender snd;
	struct mrc_tx_slot slots[SIM_SLOTS];
	struct mrc_sender_msg msgs[SIM_MSGS];
	struct mrc_ev_set set;
	struct mrc_ev evs[SIM_EVS];
	struct mrc_nscc cc;
	struct mrc_receiver rcv;

	/* Message k: its size and its first PSN (PSNs start at 0). */
	u32 msg_pkts[SIM_MAX_PSNS];
	u32 msg_first[SIM_MAX_PSNS];
	u32 posted;
	u32 total_psns;
	u32 snd_done;
	u32 snd_ok;
	u32 snd_retry_exceeded;
	u32 snd_flushed;
	u32 rcv_done;
	u8 delivered[SIM_MAX_PSNS];
	u64 new_on_dead_after_settle;
	/* New PSNs per EV once every path works again (recover_at_us). */
	u64 new_after_recovery[SIM_EVS];
	u64 overflow;
	bool bad;

	bool plane_down[SIM_PLANES];
	/* Packets handed to an EV whose plane the sender knew was down. */
	u64 sent_on_down_plane;
	/* The last plane event that brought a plane back, and after it: */
	u64 plane_up_us;
	u64 first_done_after_up_us;	/* the sender's first completion */
	u64 new_on_returned_plane;	/* new PSNs on its EVs, 3 ms on */
	u8 returned_plane;
	u64 first_done_after_resume_us;
};

static struct sim S;

static u64 sim_rand(void)
{
	/* xorshift64*: the whole run follows from the scenario's seed. */
	S.rng ^= S.rng >> 12;
	S.rng ^= S.rng << 25;
	S.rng ^= S.rng >> 27;
	return S.rng * 0x2545f4914f6cdd1dull;
}

static bool sim_chance(u32 ppm)
{
	return ppm && sim_rand() % 1000000 < ppm;
}

static void sim_swap(u32 a, u32 b)
{
	struct sim_event t = S.heap[a];

	S.heap[a] = S.heap[b];
	S.heap[b] = t;
}

static bool sim_less(u32 a, u32 b)
{
	return S.heap[a].t < S.heap[b].t ||
	       (S.heap[a].t == S.heap[b].t && S.heap[a].order < S.heap[b].order);
}

static struct sim_event *sim_push(u64 t, u8 kind)
{
	u32 i;

	if (S.n_events == SIM_MAX_EVENTS) {
		S.overflow++;
		return NULL;
	}
	i = S.n_events++;
	memset(&S.heap[i], 0, sizeof(S.heap[i]));
	S.heap[i].t = t;
	S.heap[i].kind = kind;
	S.heap[i].order = S.order++;
	return &S.heap[i];
}

/* Sifts the last pushed event up into place. */
static void sim_commit(void)
{
	u32 i = S.n_events - 1;

	while (i && sim_less(i, (i - 1) / 2)) {
		sim_swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void sim_pop(struct sim_event *out)
{
	u32 i = 0;

	*out = S.heap[0];
	S.heap[0] = S.heap[--S.n_events];
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = i;

		if (l < S.n_events && sim_less(l, m))
			m = l;
		if (r < S.n_events && sim_less(r, m))
			m = r;
		if (m == i)
			break;
		sim_swap(i, m);
		i = m;
	}
}

static bool sim_path_dead(u32 ev)
{
	return S.plane_down[S.sc->path[ev].plane] ||
	       (S.now >= S.sc->path[ev].fail_at_us &&
		S.now < S.sc->path[ev].recover_at_us);
}

static u64 sim_trip(u32 ev)
{
	const struct sim_path *p = &S.sc->path[ev];

	return p->delay_us + (p->jitter_us ? sim_rand() % (p->jitter_us + 1) : 0);
}

/* One packet onto path @ev: lost, trimmed, duplicated as the path says. */
static void sim_send_data(u32 psn, u32 ev, u32 flags)
{
	const struct sim_path *p = &S.sc->path[ev];
	u32 copies = 1 + sim_chance(p->dup_ppm), i;
	struct sim_event *e;

	if (sim_path_dead(ev) || sim_chance(p->loss_ppm))
		return;
	if (sim_chance(p->trim_ppm))
		flags |= MRC_RECEIVER_F_TRIMMED;
	for (i = 0; i < copies; i++) {
		e = sim_push(S.now + sim_trip(ev), SIM_DATA);
		if (!e)
			return;
		e->psn = psn;
		e->ev = ev;
		e->flags = flags;
		sim_commit();
	}
}

static void sim_post_more(void)
{
	while (S.posted < S.sc->n_msgs &&
	       mrc_sender_pending(&S.snd) < SIM_MSGS) {
		u32 n = 1 + (u32)(sim_rand() % S.sc->max_msg_pkts);

		if (S.total_psns + n > SIM_MAX_PSNS)
			break;
		if (mrc_sender_post(&S.snd, n, S.posted) < 0)
			break;
		S.msg_pkts[S.posted] = n;
		S.msg_first[S.posted] = S.total_psns;
		S.total_psns += n;
		S.posted++;
	}
}

/* Whatever the sender may transmit now goes out; then the timer. */
static void sim_pump(void)
{
	struct mrc_sender_tx tx;
	u64 due;
	int probe;

	while (mrc_sender_next(&S.snd, S.now, &tx)) {
		u32 ev = tx.ev < S.sc->n_evs ? tx.ev : 0;
		u32 msg = 0, k;
		u32 flags = tx.ack_req ? MRC_RECEIVER_F_ACK_REQ : 0;

		/* Which message the PSN is: the ring index is checked too. */
		for (k = S.snd_done; k < S.posted; k++)
			if (tx.psn >= S.msg_first[k] &&
			    tx.psn < S.msg_first[k] + S.msg_pkts[k]) {
				msg = k;
				break;
			}
		if (k == S.posted || (msg & (SIM_MSGS - 1)) != tx.msg ||
		    tx.psn - S.msg_first[msg] != tx.pkt) {
			printf("# psn %u handed out for no live message\n",
			       tx.psn);
			S.bad = true;
		}
		if (tx.pkt + 1 == S.msg_pkts[msg])
			flags |= MRC_RECEIVER_F_LAST;
		if (tx.why == MRC_SENDER_NEW && tx.ev < S.sc->n_evs &&
		    S.sc->path[tx.ev].fail_at_us != SIM_NEVER &&
		    S.sc->path[tx.ev].fail_at_us + 3000 <= S.now)
			S.new_on_dead_after_settle++;
		if (tx.why == MRC_SENDER_NEW && tx.ev < S.sc->n_evs &&
		    S.sc->path[tx.ev].recover_at_us != SIM_NEVER &&
		    S.now >= S.sc->path[tx.ev].recover_at_us + 3000)
			S.new_after_recovery[tx.ev]++;
		if (tx.ev < S.sc->n_evs &&
		    S.plane_down[S.sc->path[tx.ev].plane])
			S.sent_on_down_plane++;
		if (tx.why == MRC_SENDER_NEW && tx.ev < S.sc->n_evs &&
		    S.plane_up_us && S.now >= S.plane_up_us + 3000 &&
		    S.sc->path[tx.ev].plane == S.returned_plane)
			S.new_on_returned_plane++;
		sim_send_data(tx.psn, ev, flags);
	}
	while ((probe = mrc_sender_next_probe(&S.snd, S.now)) >= 0) {
		bool ok = !sim_path_dead((u32)probe);
		struct sim_event *e;

		if (!ok && S.sc->silent_probes)
			continue;
		e = sim_push(S.now + (ok ? 2 * sim_trip((u32)probe) : 1000),
			     SIM_PROBE_RESULT);
		if (!e)
			break;
		e->ev = (u32)probe;
		e->flags = ok;
		sim_commit();
	}
	if (mrc_sender_next_timer(&S.snd, S.now, &due) &&
	    (due != S.timer_due || !S.timer_gen)) {
		struct sim_event *e = sim_push(due, SIM_TIMER);

		if (e) {
			e->gen = ++S.timer_gen;
			S.timer_due = due;
			sim_commit();
		}
	}
}

static void sim_receive(const struct sim_event *e)
{
	struct mrc_receiver_verdict v;
	struct sim_event *r;
	u32 last;

	/* A port that went down drops what was still on its way. */
	if (S.plane_down[S.sc->path[e->ev].plane])
		return;
	r = sim_push(0, SIM_REPLY);
	if (!r)
		return;
	mrc_receiver_on_packet(&S.rcv, e->psn, e->flags, &v, &r->reply);
	if (v.action == MRC_RECEIVER_DELIVER) {
		if (e->psn >= S.total_psns || S.delivered[e->psn]++) {
			printf("# psn %u delivered twice or never sent\n",
			       e->psn);
			S.bad = true;
		}
	}
	while (mrc_receiver_poll_done(&S.rcv, &last)) {
		u32 k = S.rcv_done++;

		if (k >= S.posted ||
		    last != S.msg_first[k] + S.msg_pkts[k] - 1) {
			printf("# receiver completed psn %u as message %u\n",
			       last, k);
			S.bad = true;
		}
	}
	/* The answer goes back on the EV it came on, if that still works. */
	if (!v.reply || sim_path_dead(e->ev) ||
	    sim_chance(S.sc->path[e->ev].loss_ppm)) {
		S.n_events--;
		return;
	}
	r->t = S.now + sim_trip(e->ev);
	r->ev = e->ev;
	sim_commit();
}

/* Takes the sender's completions: each once, in posting order. */
static void sim_take_done(void)
{
	struct mrc_sender_done d;

	while (mrc_sender_poll_done(&S.snd, &d)) {
		if (d.cookie != S.snd_done) {
			printf("# message %llu completed as number %u\n",
			       (unsigned long long)d.cookie, S.snd_done);
			S.bad = true;
		}
		S.snd_done++;
		if (S.plane_up_us && !S.first_done_after_up_us)
			S.first_done_after_up_us = S.now;
		if (S.sc->resume_at_us && S.now >= S.sc->resume_at_us &&
		    !S.first_done_after_resume_us)
			S.first_done_after_resume_us = S.now;
		if (d.status == MRC_SENDER_ST_OK)
			S.snd_ok++;
		else if (d.status == MRC_SENDER_ST_RETRY_EXCEEDED)
			S.snd_retry_exceeded++;
		else
			S.snd_flushed++;
	}
}

static void sim_reply(const struct sim_event *e)
{
	if (S.plane_down[S.sc->path[e->ev].plane])
		return;
	if (e->reply.syndrome == MRC_NAK_TRIMMED)
		mrc_sender_on_trim(&S.snd, S.now, e->reply.nak_psn);
	mrc_sender_on_ack(&S.snd, S.now, e->reply.cum_psn, e->reply.sack,
			  e->reply.nwords, e->ev, false);
	sim_take_done();
}

/* The port's carrier changed; the kernel tells the QP's EV set at once. */
static void sim_plane(u32 plane, bool up)
{
	S.plane_down[plane] = !up;
	mrc_ev_plane_set(&S.set, (u8)plane, MRC_EV_PLANE_DOWN, !up,
			 (u32)S.now);
	if (up) {
		S.plane_up_us = S.now;
		S.first_done_after_up_us = 0;
		S.returned_plane = (u8)plane;
	}
}

static void sim_run(const struct sim_scenario *sc)
{
	struct mrc_sender_params p = {
		.retry_cnt = sc->retry_cnt, .fixed_cwnd = 64, .mtu = 4096,
		.ack_interval = 4, .timer_granularity_us = 1,
		.rto = { .min_us = 200, .max_us = 200000, .granularity_us = 1,
			 .initial_us = 1000 },
	};
	struct mrc_ev_desc descs[SIM_EVS];
	struct mrc_ev_params evp;
	struct mrc_nscc_params ccp;
	struct sim_event e;
	u32 i;

	if (sc->rto_min_us) {
		p.rto.min_us = sc->rto_min_us;
		p.rto.initial_us = sc->rto_min_us;
		p.rto.max_us = 4 * sc->rto_min_us;
	}
	memset(&S, 0, sizeof(S));
	S.sc = sc;
	S.rng = sc->seed ? sc->seed : 1;
	memset(descs, 0, sizeof(descs));
	for (i = 0; i < sc->n_evs; i++) {
		descs[i].path.udp_sport = (u16)(49152 + i);
		descs[i].plane = sc->path[i].plane;
	}
	mrc_ev_params_default(&evp);
	CHECK_EQ(mrc_ev_set_init(&S.set, S.evs, sc->n_evs,
				 sc->n_planes ? sc->n_planes : 1, descs, &evp),
		 0);
	mrc_nscc_params_default(&ccp);
	if (sc->cc)
		CHECK_EQ(mrc_nscc_init(&S.cc, &ccp), 0);
	CHECK_EQ(mrc_sender_init(&S.snd, &p, S.slots, SIM_SLOTS, S.msgs,
				 SIM_MSGS, &S.set, sc->cc ? &S.cc : NULL, 0), 0);
	mrc_receiver_init(&S.rcv, 0);
	for (i = 0; i < sc->n_plane_events; i++) {
		struct sim_event *pe = sim_push(sc->plane_event[i].at_us,
						SIM_PLANE);

		pe->ev = sc->plane_event[i].plane;
		pe->flags = sc->plane_event[i].up;
		sim_commit();
	}
	sim_post_more();
	sim_pump();
	while (S.n_events && !S.bad) {
		sim_pop(&e);
		if (e.t > sc->time_limit_us)
			break;
		S.now = e.t;
		switch (e.kind) {
		case SIM_DATA:
			sim_receive(&e);
			break;
		case SIM_REPLY:
			sim_reply(&e);
			break;
		case SIM_TIMER:
			if (e.gen != S.timer_gen)
				break;
			S.timer_gen = 0;
			mrc_sender_on_timeout(&S.snd, S.now);
			sim_take_done();
			break;
		case SIM_PROBE_RESULT:
			mrc_sender_on_probe_reply(&S.snd, S.now, e.ev, e.flags);
			break;
		case SIM_PLANE:
			sim_plane(e.ev, e.flags);
			break;
		}
		sim_post_more();
		sim_pump();
	}
	sim_take_done();
	if (S.bad || S.overflow || ktap_case_failed)
		printf("# reproduce: scenario %s seed %llu evs %u msgs %u",
		       sc->name, (unsigned long long)sc->seed, sc->n_evs,
		       sc->n_msgs);
	if (S.bad || S.overflow || ktap_case_failed)
		printf(" max_pkts %u retry %u cc %d\n", sc->max_msg_pkts,
		       sc->retry_cnt, sc->cc);
	CHECK(!S.bad);
	CHECK_EQ(S.overflow, 0);
}

/* Every message completed once, in order, every PSN delivered once. */
static void check_all_delivered(void)
{
	u32 i, missing = 0;

	CHECK_EQ(S.posted, S.sc->n_msgs);
	CHECK_EQ(S.snd_done, S.posted);
	CHECK_EQ(S.snd_ok, S.posted);
	CHECK_EQ(S.rcv_done, S.posted);
	for (i = 0; i < S.total_psns; i++)
		missing += S.delivered[i] != 1;
	CHECK_EQ(missing, 0);
}

/*
 * Seeds per randomised case: MRC_SIM_SEEDS overrides the default, for a
 * longer hunt than the unit run's few seconds.
 */
static u64 sim_seeds(u64 dflt)
{
	const char *env = getenv("MRC_SIM_SEEDS");

	return env && strtoull(env, NULL, 0) ? strtoull(env, NULL, 0) : dflt;
}

static struct sim_scenario base(const char *name, u64 seed)
{
	struct sim_scenario sc;
	u32 i;

	memset(&sc, 0, sizeof(sc));
	sc.name = name;
	sc.seed = seed;
	sc.n_evs = 4;
	sc.n_msgs = 400;
	sc.max_msg_pkts = 8;
	sc.retry_cnt = 7;
	sc.time_limit_us = 20000000;
	for (i = 0; i < SIM_EVS; i++) {
		sc.path[i].delay_us = 10 + 5 * i;
		sc.path[i].fail_at_us = SIM_NEVER;
		sc.path[i].recover_at_us = SIM_NEVER;
	}
	return sc;
}

static void clean_network_delivers_in_order(void)
{
	struct sim_scenario sc = base("clean", 1);

	/* Paths of unequal delays: reordering, which is no loss. */
	sim_run(&sc);
	check_all_delivered();
	CHECK_EQ(S.snd.stats.timeouts, 0);
	CHECK_EQ(S.snd.stats.retx_loss + S.snd.stats.retx_trim, 0);
}

/* Loss, reordering, duplication and trims on every path, many seeds. */
static void hostile_network_many_seeds(void)
{
	u64 seed;
	u32 i;

	for (seed = 1; seed <= sim_seeds(40) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = base("hostile", seed);

		sc.cc = seed % 2 == 0;
		for (i = 0; i < sc.n_evs; i++) {
			sc.path[i].jitter_us = 40;
			sc.path[i].loss_ppm = 20000;
			sc.path[i].dup_ppm = 20000;
			sc.path[i].trim_ppm = 30000;
		}
		sim_run(&sc);
		check_all_delivered();
		CHECK(S.snd.stats.retx_loss + S.snd.stats.retx_timeout > 0);
		CHECK(S.snd.stats.retx_trim > 0);
		CHECK(S.rcv.stats.duplicates > 0);
	}
}

/* Two of four paths die mid-run: retired, and new traffic leaves them. */
static void failed_paths_are_retired(void)
{
	u64 seed;

	for (seed = 1; seed <= sim_seeds(10) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = base("path_failure", seed);
		u32 dead = 0, i;

		sc.cc = seed % 2 == 0;
		sc.n_msgs = 8000;
		sc.path[1].fail_at_us = 2000;
		sc.path[3].fail_at_us = 3000;
		sim_run(&sc);
		check_all_delivered();
		/* Long enough after the failures to see where traffic went. */
		CHECK(S.now > 6000);
		if (S.now <= 6000)
			printf("# ran until %llu us only\n",
			       (unsigned long long)S.now);
		CHECK(S.snd.stats.ev_retired >= 2);
		for (i = 0; i < sc.n_evs; i++)
			dead += S.evs[i].state == MRC_EV_ASSUMED_BAD;
		CHECK_EQ(dead, 2);
		CHECK_EQ(S.evs[1].state, MRC_EV_ASSUMED_BAD);
		CHECK_EQ(S.evs[3].state, MRC_EV_ASSUMED_BAD);
		CHECK_EQ(S.new_on_dead_after_settle, 0);
	}
}

/* A path that fails and comes back is probed back into the spray. */
static void recovered_path_is_probed_back(void)
{
	u64 seed;

	for (seed = 1; seed <= sim_seeds(10) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = base("path_recovery", seed);

		sc.cc = seed % 2 == 0;
		sc.n_msgs = 8000;
		sc.path[2].fail_at_us = 1000;
		sc.path[2].recover_at_us = 3000;
		sim_run(&sc);
		check_all_delivered();
		CHECK(S.now > 7000);
		CHECK(S.snd.stats.ev_retired >= 1);
		CHECK(S.evs[2].probes > 0);
		CHECK_EQ(S.evs[2].state, MRC_EV_GOOD);
		CHECK(S.new_after_recovery[2] > 0);
	}
}

/* Two planes of two EVs each: EV i on plane i / 2. */
static struct sim_scenario two_planes(const char *name, u64 seed)
{
	struct sim_scenario sc = base(name, seed);
	u32 i;

	sc.n_planes = 2;
	for (i = 0; i < sc.n_evs; i++)
		sc.path[i].plane = (u8)(i / 2);
	return sc;
}

/*
 * Plane 0's port goes down for 4 ms: nothing more is sent on its EVs while
 * it is down, every message completes on plane 1 without a retry
 * exhausted, and once the port is back its EVs are probed and carry new
 * traffic again.
 */
static void plane_loss_keeps_traffic_on_the_other(void)
{
	u64 seed;

	for (seed = 1; seed <= sim_seeds(10) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = two_planes("plane_loss", seed);

		sc.cc = seed % 2 == 0;
		sc.n_msgs = 8000;
		sc.n_plane_events = 2;
		sc.plane_event[0] = (struct sim_plane_event){ 2000, 0, false };
		sc.plane_event[1] = (struct sim_plane_event){ 6000, 0, true };
		sim_run(&sc);
		check_all_delivered();
		CHECK(S.now > 10000);
		if (S.now <= 10000)
			printf("# ran until %llu us only\n",
			       (unsigned long long)S.now);
		CHECK_EQ(S.sent_on_down_plane, 0);
		CHECK_EQ(S.snd_retry_exceeded, 0);
		CHECK(S.evs[0].probes + S.evs[1].probes > 0);
		CHECK(S.new_on_returned_plane > 0);
	}
}

/*
 * Plane 0's port goes down under a full window and stays down: what was
 * in flight on its EVs is sent again on plane 1 at once (the caller runs
 * the sender when the plane changes), not found by the reordering rule
 * or the RTO. Neither fires, and every message completes.
 */
static void plane_loss_resends_in_flight_at_once(void)
{
	u64 seed;

	for (seed = 1; seed <= sim_seeds(10) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = two_planes("plane_resend", seed);

		sc.cc = seed % 2 == 0;
		sc.n_msgs = 2000;
		sc.n_plane_events = 1;
		sc.plane_event[0] = (struct sim_plane_event){ 2000, 0, false };
		sim_run(&sc);
		check_all_delivered();
		CHECK(S.snd.stats.plane_down_lost > 0);
		CHECK_EQ(S.snd.stats.retx_plane_down,
			 S.snd.stats.plane_down_lost);
		CHECK_EQ(S.snd.stats.retx_loss, 0);
		CHECK_EQ(S.snd.stats.timeouts, 0);
		CHECK_EQ(S.sent_on_down_plane, 0);
		CHECK_EQ(S.snd_retry_exceeded, 0);
	}
}

/*
 * Both ports go down for 8 ms, long enough for the RTO to back off to
 * several milliseconds. When plane 1 returns, its probes' answers restart
 * the stalled sender at once (the path-back restart): the first message
 * completes well within one backed-off RTO of the port's return, and no
 * retry is exhausted.
 */
static void whole_outage_resumes_when_a_plane_returns(void)
{
	u64 seed, slowest = 0;

	for (seed = 1; seed <= sim_seeds(10) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = two_planes("plane_outage", seed);
		u64 resumed;

		sc.cc = seed % 2 == 0;
		sc.n_msgs = 4000;
		sc.n_plane_events = 3;
		sc.plane_event[0] = (struct sim_plane_event){ 2000, 0, false };
		sc.plane_event[1] = (struct sim_plane_event){ 2000, 1, false };
		sc.plane_event[2] = (struct sim_plane_event){ 10000, 1, true };
		sim_run(&sc);
		check_all_delivered();
		CHECK_EQ(S.snd_retry_exceeded, 0);
		CHECK(S.snd.stats.timeouts > 0);
		CHECK(S.snd.stats.path_back_restarts >= 1);
		CHECK(S.first_done_after_up_us >= 10000);
		resumed = S.first_done_after_up_us - 10000;
		if (resumed > slowest)
			slowest = resumed;
		CHECK(resumed < 1000);
		CHECK_EQ(S.sent_on_down_plane, 0);
	}
	printf("# first completion at most %llu us after the port returned\n",
	       (unsigned long long)slowest);
}

/*
 * Every path dies without a word (no carrier event: a tier-1 switch
 * hanging) for 400 ms, under the application's timeout of perftest,
 * T = 67 ms, on a fabric of 20-50 us round trips. The RTO retires EVs;
 * their probes go unanswered. When the paths work again, a probe of a
 * retired EV is answered within the probe interval's backoff (25.6 ms) and
 * a round trip's timeout of the one before it, not within T: the first
 * message completes well before the backed-off RTO would resend it.
 */
static void silent_outage_resumes_within_probe_intervals(void)
{
	u64 seed, slowest = 0, total = 0, runs = 0;
	u32 i;

	for (seed = 1; seed <= sim_seeds(20) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = base("silent_outage", seed);
		/* Paths back at a different phase of the probes each run. */
		u64 back = 300000 + (seed * 7919) % 100000, resumed;

		sc.cc = seed % 2 == 0;
		sc.n_msgs = 2000;
		sc.rto_min_us = 67108;
		sc.silent_probes = true;
		for (i = 0; i < sc.n_evs; i++) {
			sc.path[i].fail_at_us = 2000;
			sc.path[i].recover_at_us = back;
		}
		sc.resume_at_us = back;
		sim_run(&sc);
		check_all_delivered();
		CHECK_EQ(S.snd_retry_exceeded, 0);
		CHECK(S.snd.stats.ev_retired >= 1);
		CHECK(S.snd.stats.probes_lost > 0);
		CHECK(S.first_done_after_resume_us >= back);
		resumed = S.first_done_after_resume_us - back;
		if (resumed > slowest)
			slowest = resumed;
		total += resumed;
		runs++;
		CHECK(resumed < 30000);
	}
	printf("# first completion %llu us on average, at most %llu us, after the paths worked again\n",
	       (unsigned long long)(runs ? total / runs : 0),
	       (unsigned long long)slowest);
}

/* Trims alone: every one resent on its NAK, none waits for the RTO. */
static void trims_retransmit_without_rto(void)
{
	u64 seed;
	u32 i;

	for (seed = 1; seed <= sim_seeds(10) && !ktap_case_failed; seed++) {
		struct sim_scenario sc = base("trim", seed);

		for (i = 0; i < sc.n_evs; i++) {
			sc.path[i].trim_ppm = 100000;
			sc.path[i].jitter_us = 3;
		}
		sim_run(&sc);
		check_all_delivered();
		CHECK(S.snd.stats.retx_trim > 0);
		CHECK_EQ(S.snd.stats.timeouts, 0);
		CHECK_EQ(S.snd.stats.retx_timeout, 0);
		CHECK(S.rcv.stats.trimmed >= S.snd.stats.retx_trim);
	}
}

/*
 * Every path dies at 5 ms: the oldest unfinished message fails with
 * retry-exceeded after retry_cnt + 1 timeouts, the rest are flushed,
 * those finished before stay finished, and nothing completes twice.
 */
static void dead_network_exhausts_retries(void)
{
	u32 retry;

	for (retry = 0; retry <= 7 && !ktap_case_failed; retry += 7) {
		struct sim_scenario sc = base("dead_network", 3 + retry);
		u32 i;

		sc.retry_cnt = retry;
		sc.n_msgs = 2000;
		for (i = 0; i < sc.n_evs; i++)
			sc.path[i].fail_at_us = 5000;
		sim_run(&sc);
		CHECK(S.snd.failed);
		CHECK_EQ(S.snd.stats.timeouts, retry + 1);
		CHECK_EQ(S.snd_retry_exceeded, 1);
		CHECK(S.snd_ok > 0);
		CHECK_EQ(S.snd_ok + S.snd_retry_exceeded + S.snd_flushed,
			 S.snd_done);
		CHECK_EQ(S.snd_done, S.posted);
		/* Delivered messages whose ACKs died with the paths fail too. */
		CHECK(S.rcv_done >= S.snd_ok);
		CHECK(S.rcv_done <= S.snd_ok + 1 + S.snd_flushed);
		/* Nothing left to do: no timer, nothing to send. */
		{
			struct mrc_sender_tx tx;
			u64 due;

			CHECK(!mrc_sender_next(&S.snd, S.now, &tx));
			CHECK(!mrc_sender_next_timer(&S.snd, S.now, &due));
		}
	}
}

/*
 * A dead peer, driven timeout by timeout: the time from one timeout to
 * the next, and when the message fails.
 */
static u32 exp_retry_run(struct mrc_sender *s, u32 max_timeouts, u64 *gaps,
			 u64 *now)
{
	struct mrc_sender_tx tx;
	u64 due, last = *now;
	u32 n = 0;

	while (n < max_timeouts && mrc_sender_next_timer(s, *now, &due)) {
		*now = due;
		if (!mrc_sender_on_timeout(s, *now)) {
			if (s->failed)
				break;
			continue;
		}
		gaps[n++] = *now - last;
		last = *now;
		while (mrc_sender_next(s, *now, &tx))
			;
	}
	return n;
}

/*
 * retry_cnt linear timeouts, then exp_retry_cnt more, each twice as long
 * as the one before and past the RTO's max up to exp_max_us; one more
 * fails the message. MRC_SENDER_RETRY_FOREVER never fails, and an ACK
 * ends the stage: the RTO is the base one again and the message succeeds.
 */
static void exp_retry_stage(void)
{
	struct mrc_sender_params p = {
		.retry_cnt = 2, .exp_retry_cnt = 3, .fixed_cwnd = 8, .mtu = 1024,
		.ack_interval = 4, .timer_granularity_us = 1,
		.rto = { .min_us = 100, .max_us = 400, .granularity_us = 1,
			 .initial_us = 100, .exp_max_us = 1600 },
	};
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u64 gaps[64], now = 10;
	u32 n, i;

	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, NULL, NULL, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 1, 7), 0);
	CHECK(mrc_sender_next(&s, now, &tx));
	n = exp_retry_run(&s, 64, gaps, &now);
	/* Linear (with the RTO's backoff, capped at max): 100, 200; exp. */
	CHECK_EQ(n, 5);
	CHECK_EQ(gaps[0], 100);
	CHECK_EQ(gaps[1], 200);
	CHECK_EQ(gaps[2], 400);
	CHECK_EQ(gaps[3], 800);
	CHECK_EQ(gaps[4], 1600);
	CHECK(s.failed);
	CHECK_EQ(s.stats.timeouts, 6);
	CHECK_EQ(s.stats.exp_timeouts, 3);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 7);
	CHECK_EQ(d.status, MRC_SENDER_ST_RETRY_EXCEEDED);

	/* Without the stage: failed at the third timeout, as before. */
	p.exp_retry_cnt = 0;
	now = 10;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, NULL, NULL, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 1, 8), 0);
	CHECK(mrc_sender_next(&s, now, &tx));
	n = exp_retry_run(&s, 64, gaps, &now);
	CHECK_EQ(n, 2);
	CHECK(s.failed);
	CHECK_EQ(s.stats.timeouts, 3);
	CHECK_EQ(s.stats.exp_timeouts, 0);

	p.exp_retry_cnt = MRC_SENDER_RETRY_FOREVER;
	now = 10;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, NULL, NULL, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 1, 9), 0);
	CHECK(mrc_sender_next(&s, now, &tx));
	n = exp_retry_run(&s, 60, gaps, &now);
	CHECK_EQ(n, 60);
	CHECK(!s.failed);
	for (i = 4; i < n; i++)
		CHECK_EQ(gaps[i], 1600);
	CHECK(!mrc_sender_poll_done(&s, &d));
	CHECK_EQ(mrc_sender_on_ack(&s, now + 1, 1, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 9);
	CHECK_EQ(d.status, MRC_SENDER_ST_OK);
	CHECK(!mrc_rto_in_exp(&s.rto));
	CHECK_EQ(mrc_sender_rto_us(&s), 100);
}

/*
 * A PSN window below the tracker's slots (an MRC QP's MPR): never more
 * PSNs outstanding than it, with or without NSCC's room, and each ACK
 * lets as many new ones go as it acknowledged.
 */
static void psn_window_bounds_outstanding(void)
{
	struct mrc_sender_params p = {
		.retry_cnt = 1, .fixed_cwnd = 64, .mtu = 1024, .psn_window = 5,
		.ack_interval = 4, .timer_granularity_us = 1,
		.rto = { .min_us = 100, .max_us = 1000, .granularity_us = 1,
			 .initial_us = 200 },
	};
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[16];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u32 n = 0, acked = 0;

	CHECK_EQ(mrc_sender_init(&s, &p, slots, 16, msgs, 4, NULL, NULL, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 12, 1), 0);
	while (mrc_sender_next(&s, 10, &tx))
		n++;
	CHECK_EQ(n, 5);
	CHECK(!mrc_sender_window_open(&s));
	while (acked < 12 && !ktap_case_failed) {
		acked += 2;
		CHECK_EQ(mrc_sender_on_ack(&s, 20 + acked, acked, NULL, 0, 0,
					   false), MRC_TX_ACK_OK);
		while (mrc_sender_next(&s, 20 + acked, &tx))
			n++;
		CHECK(mrc_tx_outstanding(&s.tx) <= 5);
	}
	CHECK_EQ(n, 12);
	CHECK_EQ(s.tx.peak_outstanding, 5);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.status, MRC_SENDER_ST_OK);

	/* 0: the slots; beyond them: clamped to them. */
	p.psn_window = 0;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 16, msgs, 4, NULL, NULL, 0), 0);
	CHECK_EQ(s.tx.window, 16);
	p.psn_window = 1000;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 16, msgs, 4, NULL, NULL, 0), 0);
	CHECK_EQ(s.tx.window, 16);
	CHECK_EQ(mrc_sender_post(&s, 20, 2), 0);
	n = 0;
	while (mrc_sender_next(&s, 10, &tx))
		n++;
	CHECK_EQ(n, 16);
}

/* Bad sizes and a full ring are refused with their errno. */
static void sender_refuses_bad_input(void)
{
	struct mrc_sender_params p = {
		.retry_cnt = 1, .fixed_cwnd = 8, .mtu = 1024, .ack_interval = 4, .timer_granularity_us = 1,
		.rto = { .min_us = 100, .max_us = 1000, .granularity_us = 1,
			 .initial_us = 200 },
	};
	struct mrc_sender_msg msgs[2];
	struct mrc_tx_slot slots[8];
	struct mrc_sender s;

	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 3, NULL, NULL, 0),
		 -EINVAL);
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 6, msgs, 2, NULL, NULL, 0),
		 -EINVAL);
	p.mtu = 0;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 2, NULL, NULL, 0),
		 -EINVAL);
	p.mtu = 1024;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 2, NULL, NULL, 5), 0);
	CHECK_EQ(mrc_sender_post(&s, 0, 0), -EINVAL);
	CHECK_EQ(mrc_sender_post(&s, 1, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 1, 1), 1);
	CHECK_EQ(mrc_sender_post(&s, 1, 2), -ENOSPC);
}

/*
 * An ACK beyond what was sent changes nothing; an RNR NAK makes its PSN
 * go again, as RNR, without an RTO and without blaming the EV.
 */
static void sender_invalid_ack_and_rnr(void)
{
	struct mrc_sender_params p = {
		.retry_cnt = 1, .fixed_cwnd = 8, .mtu = 1024, .ack_interval = 4, .timer_granularity_us = 1,
		.rto = { .min_us = 100, .max_us = 1000, .granularity_us = 1,
			 .initial_us = 200 },
	};
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u32 n = 0;

	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, NULL, NULL, 100),
		 0);
	CHECK_EQ(mrc_sender_post(&s, 3, 42), 0);
	while (mrc_sender_next(&s, 10, &tx)) {
		CHECK_EQ(tx.psn, 100 + n);
		CHECK_EQ(tx.ev, MRC_TX_NIL);
		CHECK_EQ(tx.ack_req, n == 2);
		n++;
	}
	CHECK_EQ(n, 3);
	CHECK_EQ(mrc_sender_on_ack(&s, 20, 104, NULL, 0, 0, false),
		 MRC_TX_ACK_INVALID);
	CHECK_EQ(s.stats.acks_invalid, 1);
	mrc_sender_on_rnr(&s, 20, 101);
	CHECK(mrc_sender_next(&s, 21, &tx));
	CHECK_EQ(tx.psn, 101);
	CHECK_EQ(tx.why, MRC_SENDER_RETX_RNR);
	CHECK(!mrc_sender_next(&s, 21, &tx));
	CHECK(!mrc_sender_poll_done(&s, &d));
	CHECK_EQ(mrc_sender_on_ack(&s, 30, 103, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 42);
	CHECK_EQ(d.status, MRC_SENDER_ST_OK);
	CHECK_EQ(s.stats.timeouts, 0);
}

/*
 * A peer that SACKs PSNs and then sends a cumulative PSN stopping at one
 * of them (reneging): before the fix nothing was in flight, nothing was
 * lost and no timer was armed, so the message never completed, not even
 * as RETRY_EXCEEDED. Found by sender_fuzz (a forged ACK cum=101 with
 * SACK words, then one with cum=102, then a silent peer). Now an RTO
 * resends the reneged PSN and a silent peer exhausts the retries.
 */
static void sender_sack_reneged(void)
{
	struct mrc_sender_params p = {
		.retry_cnt = 1, .fixed_cwnd = 8, .mtu = 1024, .ack_interval = 4,
		.timer_granularity_us = 1,
		.rto = { .min_us = 100, .max_us = 1000, .granularity_us = 1,
			 .initial_us = 200 },
	};
	const u64 sack = 3ull << 62;	/* PSNs 102 and 103 */
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u64 now = 10, due;
	u32 n = 0;

	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, NULL, NULL, 100),
		 0);
	CHECK_EQ(mrc_sender_post(&s, 4, 7), 0);
	while (mrc_sender_next(&s, now, &tx))
		n++;
	CHECK_EQ(n, 4);
	CHECK_EQ(mrc_sender_on_ack(&s, 20, 101, &sack, 1, 0, false),
		 MRC_TX_ACK_OK);
	/* 101 arrives; the peer now says 102 is missing. */
	CHECK_EQ(mrc_sender_on_ack(&s, 30, 102, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK(!mrc_sender_next(&s, 31, &tx));
	/* An RTO after that progress, 102 goes again. */
	CHECK(mrc_sender_next_timer(&s, 31, &due));
	CHECK(due > 31);
	CHECK(!mrc_sender_on_timeout(&s, due - 1));
	CHECK(mrc_sender_on_timeout(&s, due));
	now = due;
	CHECK(mrc_sender_next(&s, now, &tx));
	CHECK_EQ(tx.psn, 102);
	CHECK_EQ(tx.why, MRC_SENDER_RETX_TIMEOUT);
	CHECK(!mrc_sender_next(&s, now, &tx));
	/* The peer stays silent: within the retries, the message fails. */
	for (n = 0; n < 8 && !s.failed; n++) {
		CHECK(mrc_sender_next_timer(&s, now, &due));
		now = due > now ? due : now;
		if (mrc_sender_on_timeout(&s, now))
			while (mrc_sender_next(&s, now, &tx))
				;
	}
	CHECK(s.failed);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 7);
	CHECK_EQ(d.status, MRC_SENDER_ST_RETRY_EXCEEDED);
	CHECK(!mrc_sender_poll_done(&s, &d));
}

static const struct mrc_sender_params unit_params = {
	.retry_cnt = 1, .fixed_cwnd = 8, .mtu = 1024, .ack_interval = 4,
	.timer_granularity_us = 1,
	.rto = { .min_us = 100, .max_us = 1000, .granularity_us = 1,
		 .initial_us = 200 },
};

/*
 * A READ (posted awaiting a response) finishes only after its response,
 * though its request was acknowledged first; it asks again on a new PSN
 * of its own, once the earlier request is acknowledged, and the messages
 * still complete in posting order. The WRITE went out after the READ:
 * only a caller with a packet map may ask again (as the requester does).
 */
static void sender_response_messages(void)
{
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u32 pkts[8];
	int rd, wr;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, NULL,
				 NULL, 100), 0);
	mrc_sender_set_pkt_map(&s, pkts);
	rd = mrc_sender_post_flags(&s, 1, 5, MRC_SENDER_POST_RESPONSE);
	wr = mrc_sender_post(&s, 2, 6);
	CHECK_EQ(rd, 0);
	CHECK_EQ(wr, 1);
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK_EQ(tx.psn, 100);
	CHECK_EQ(tx.msg, (u32)rd);
	CHECK(tx.ack_req);
	/* Not acknowledged yet: no second request. */
	CHECK(!mrc_sender_next_request(&s, 10, (u32)rd, &tx));
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK_EQ(tx.psn, 102);
	CHECK_EQ(mrc_sender_msg_of(&s, 101), wr);
	CHECK_EQ(mrc_sender_msg_of(&s, 103), -1);
	CHECK_EQ(mrc_sender_on_ack(&s, 20, 103, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	/* Both acknowledged; the READ's data has not come. */
	CHECK(!mrc_sender_poll_done(&s, &d));
	CHECK(mrc_sender_next_request(&s, 30, (u32)rd, &tx));
	CHECK_EQ(tx.psn, 103);
	CHECK_EQ(tx.msg, (u32)rd);
	CHECK_EQ(tx.pkt, 1);
	CHECK(tx.ack_req);
	CHECK_EQ(mrc_sender_msg_of(&s, 103), rd);
	CHECK(!mrc_sender_next_request(&s, 30, (u32)wr + 2, &tx));
	CHECK_EQ(mrc_sender_on_ack(&s, 40, 104, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK(!mrc_sender_poll_done(&s, &d));
	mrc_sender_response_done(&s, (u32)rd);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 5);
	CHECK_EQ(d.status, MRC_SENDER_ST_OK);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 6);
	CHECK(!mrc_sender_poll_done(&s, &d));
	CHECK_EQ(s.stats.timeouts, 0);
}

/*
 * A READ's next request may take a PSN among a WRITE's packets only when
 * the caller keeps a packet map: a retransmission then still names the
 * packet the PSN carried (the distance from the WRITE's first PSN would
 * be off by the request, and the wrong bytes would go again). Without the
 * map the request waits until the WRITE is sent.
 */
static void sender_request_among_packets(void)
{
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u32 pkts[8], map;
	int rd, wr;

	for (map = 0; map < 2; map++) {
		CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4,
					 NULL, NULL, 100), 0);
		if (map)
			mrc_sender_set_pkt_map(&s, pkts);
		rd = mrc_sender_post_flags(&s, 1, 1, MRC_SENDER_POST_RESPONSE);
		CHECK(mrc_sender_next(&s, 10, &tx));
		CHECK_EQ(mrc_sender_on_ack(&s, 20, 101, NULL, 0, 0, false),
			 MRC_TX_ACK_OK);
		wr = mrc_sender_post(&s, 4, 2);
		CHECK(mrc_sender_next(&s, 30, &tx));
		CHECK(mrc_sender_next(&s, 30, &tx));
		CHECK_EQ(tx.psn, 102);
		CHECK_EQ(mrc_sender_next_request(&s, 40, (u32)rd, &tx),
			 map == 1);
		if (!map)
			continue;
		CHECK_EQ(tx.psn, 103);
		CHECK_EQ(tx.msg, (u32)rd);
		CHECK(mrc_sender_next(&s, 40, &tx));
		CHECK_EQ(tx.psn, 104);
		CHECK_EQ(tx.msg, (u32)wr);
		CHECK_EQ(tx.pkt, 2);
		CHECK(mrc_sender_next(&s, 40, &tx));
		CHECK_EQ(tx.pkt, 3);
		mrc_sender_on_trim(&s, 50, 104);
		mrc_sender_on_trim(&s, 50, 103);
		CHECK(mrc_sender_next_retransmit(&s, 60, &tx));
		CHECK_EQ(tx.psn, 103);
		CHECK_EQ(tx.msg, (u32)rd);
		CHECK_EQ(tx.pkt, 1);
		CHECK(mrc_sender_next_retransmit(&s, 60, &tx));
		CHECK_EQ(tx.psn, 104);
		CHECK_EQ(tx.msg, (u32)wr);
		CHECK_EQ(tx.pkt, 2);
	}
}

/*
 * Without a packet map a request must follow its message's last PSN: once
 * a WRITE went out in full after the READ, the READ's re-request would
 * take a PSN whose distance from the READ's first is not its packet, and
 * its retransmission would name the wrong packet. It waits for the map.
 */
static void sender_request_after_other_message(void)
{
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u32 pkts[8], map;
	int rd;

	for (map = 0; map < 2; map++) {
		CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4,
					 NULL, NULL, 100), 0);
		if (map)
			mrc_sender_set_pkt_map(&s, pkts);
		rd = mrc_sender_post_flags(&s, 1, 1, MRC_SENDER_POST_RESPONSE);
		CHECK_EQ(mrc_sender_post(&s, 2, 2), 1);
		CHECK(mrc_sender_next(&s, 10, &tx));
		CHECK(mrc_sender_next(&s, 10, &tx));
		CHECK(mrc_sender_next(&s, 10, &tx));
		CHECK_EQ(tx.psn, 102);
		CHECK_EQ(mrc_sender_on_ack(&s, 20, 103, NULL, 0, 0, false),
			 MRC_TX_ACK_OK);
		CHECK_EQ(mrc_sender_next_request(&s, 30, (u32)rd, &tx),
			 map == 1);
		if (!map)
			continue;
		CHECK_EQ(tx.psn, 103);
		CHECK_EQ(tx.pkt, 1);
		mrc_sender_on_trim(&s, 40, 103);
		CHECK(mrc_sender_next_retransmit(&s, 50, &tx));
		CHECK_EQ(tx.psn, 103);
		CHECK_EQ(tx.msg, (u32)rd);
		CHECK_EQ(tx.pkt, 1);
	}
}

/*
 * An ACK's result says what it delivered (cumulatively or selectively)
 * and what it acknowledged cumulatively; an echo of a copy nobody charged
 * withdraws nothing.
 */
static void sender_ack_result(void)
{
	const u64 sack = 1ull << 63;	/* PSN 3 */
	struct mrc_sender_ack_result res;
	struct mrc_sender_msg msgs[4];
	struct mrc_sender_ack ack = {
		.cum_psn = 2, .sack = &sack, .nwords = 1,
		.has_echo = true, .echo_psn = 3, .ts_echo = 10,
	};
	struct mrc_tx_slot slots[8];
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u32 n = 0;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, NULL,
				 NULL, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 5, 1), 0);
	while (mrc_sender_next(&s, 10, &tx))
		n++;
	CHECK_EQ(n, 5);
	CHECK_EQ(mrc_sender_on_ack_ex(&s, 20, &ack, &res), MRC_TX_ACK_OK);
	CHECK_EQ(res.delivered, 3);
	CHECK_EQ(res.acked, 2);
	CHECK_EQ(res.lost, 0);
	CHECK_EQ(s.stats.charges_cancelled, 0);
	ack.cum_psn = 6;
	ack.nwords = 0;
	CHECK_EQ(mrc_sender_on_ack_ex(&s, 30, &ack, &res), MRC_TX_ACK_INVALID);
	CHECK_EQ(res.delivered, 0);
	CHECK_EQ(s.stats.acks_invalid, 1);
}

/*
 * Responses that stop coming count as timeouts (backoff, a retry) when
 * the caller reports them; a response's progress resets the retries; past
 * retry_cnt the READ itself fails, though its request was acknowledged.
 */
static void sender_response_timeouts(void)
{
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u64 rto, due;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, NULL,
				 NULL, 0), 0);
	CHECK_EQ(mrc_sender_post_flags(&s, 1, 9, MRC_SENDER_POST_RESPONSE),
		 0);
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK_EQ(mrc_sender_on_ack(&s, 20, 1, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	/* Nothing in flight: the sender's own timer has nothing to do. */
	CHECK(!mrc_sender_next_timer(&s, 20, &due));
	rto = mrc_sender_rto_us(&s);
	CHECK(!mrc_sender_on_timeout_ex(&s, 20 + rto, 0));
	CHECK_EQ(s.stats.timeouts, 0);
	CHECK(mrc_sender_on_timeout_ex(&s, 20 + rto, 1));
	CHECK_EQ(s.stats.timeouts, 1);
	CHECK_EQ(mrc_sender_rto_us(&s), 2 * rto);
	mrc_sender_on_response(&s, 30 + rto);
	CHECK(mrc_sender_on_timeout_ex(&s, 40 + 3 * rto, 1));
	CHECK(!s.failed);
	CHECK(!mrc_sender_on_timeout_ex(&s, 40 + 7 * rto, 1));
	CHECK(s.failed);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 9);
	CHECK_EQ(d.status, MRC_SENDER_ST_RETRY_EXCEEDED);
}

/*
 * A READ whose response never comes fails; a WRITE posted behind it,
 * though its packets were all acknowledged, is flushed: after an error
 * completion the rest of the queue completes in error (IB's flush), never
 * as a success behind the failure.
 */
static void sender_flush_behind_response(void)
{
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u64 rto, now = 20;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, NULL,
				 NULL, 0), 0);
	CHECK_EQ(mrc_sender_post_flags(&s, 1, 1, MRC_SENDER_POST_RESPONSE),
		 0);
	CHECK_EQ(mrc_sender_post(&s, 2, 2), 1);
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK_EQ(mrc_sender_on_ack(&s, 20, 3, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK(!mrc_sender_poll_done(&s, &d));
	rto = mrc_sender_rto_us(&s);
	while (!s.failed && now < 1000000) {
		now += rto;
		mrc_sender_on_timeout_ex(&s, now, 1);
		rto = mrc_sender_rto_us(&s);
	}
	CHECK(s.failed);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 1);
	CHECK_EQ(d.status, MRC_SENDER_ST_RETRY_EXCEEDED);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 2);
	CHECK_EQ(d.status, MRC_SENDER_ST_FLUSHED);
	CHECK(!mrc_sender_poll_done(&s, &d));
}

/*
 * An RTO of 0 (the IB timeout attribute 0: wait forever) arms no timer
 * and never times out; new bounds turn it on, keeping what was learnt.
 */
static void sender_without_rto(void)
{
	struct mrc_sender_params p = unit_params;
	struct mrc_rto_params on = p.rto;
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u64 due;

	p.rto.initial_us = 0;
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, NULL, NULL, 0),
		 0);
	CHECK_EQ(mrc_sender_rto_us(&s), 0);
	CHECK_EQ(mrc_sender_post(&s, 2, 1), 0);
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK(!mrc_sender_next_timer(&s, 10, &due));
	CHECK(!mrc_sender_on_timeout(&s, 1000000));
	CHECK_EQ(s.stats.timeouts, 0);
	CHECK(!mrc_sender_next(&s, 1000000, &tx));
	mrc_sender_set_rto(&s, &on);
	CHECK_EQ(mrc_sender_rto_us(&s), 200);
	CHECK(mrc_sender_next_timer(&s, 1000000, &due));
	CHECK(mrc_sender_on_timeout(&s, 1000000));
	CHECK(mrc_sender_next_retransmit(&s, 1000000, &tx));
	CHECK_EQ(tx.psn, 0);
	CHECK_EQ(tx.why, MRC_SENDER_RETX_TIMEOUT);
}

/*
 * A NAK(trimmed) for a copy older than the PSN's last transmission is
 * stale and changes nothing; one for the last copy marks it for
 * retransmission at once.
 */
static void sender_trim_echo(void)
{
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_tx tx;
	struct mrc_sender s;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, NULL,
				 NULL, 0), 0);
	CHECK_EQ(mrc_sender_post(&s, 1, 1), 0);
	CHECK(mrc_sender_next(&s, 10, &tx));
	CHECK_EQ(mrc_sender_on_trim_echo(&s, 15, 0, 10), MRC_TX_NAK_MARKED);
	CHECK(mrc_sender_next_retransmit(&s, 20, &tx));
	CHECK_EQ(tx.why, MRC_SENDER_RETX_TRIM);
	CHECK_EQ(s.stats.retx_trim, 1);
	CHECK_EQ(mrc_sender_on_trim_echo(&s, 25, 0, 10), MRC_TX_NAK_IGNORED);
	CHECK(!mrc_sender_next_retransmit(&s, 25, &tx));
	CHECK_EQ(mrc_sender_on_trim_echo(&s, 30, 0, 20), MRC_TX_NAK_MARKED);
	CHECK(mrc_sender_next_retransmit(&s, 30, &tx));
}

/*
 * Probes through the sender: a retired EV's probe when it is due, one at
 * a time; unanswered for max(RTO without backoff,
 * MRC_SENDER_PROBE_TIMEOUT_MIN_US) it failed (counted lost, the next one
 * backs off) and its late reply is not taken; replies in time bring the
 * EV back. A failed sender probes nothing.
 */
static void sender_probe_timeout(void)
{
	struct mrc_rto_params slow = { .min_us = 100, .max_us = 100000,
				       .granularity_us = 1,
				       .initial_us = 5000 };
	struct mrc_ev_desc descs[4];
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_ev_params evp;
	struct mrc_sender_tx tx;
	struct mrc_ev_set set;
	struct mrc_ev evs[4];
	struct mrc_sender s;
	u64 now = 0, due;
	u32 i;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, NULL,
				 NULL, 0), 0);
	CHECK_EQ(mrc_sender_next_probe(&s, 0), -1);
	CHECK(!mrc_sender_on_probe_reply(&s, 0, 0, true));

	memset(descs, 0, sizeof(descs));
	for (i = 0; i < 4; i++)
		descs[i].path.udp_sport = (u16)(49152 + i);
	mrc_ev_params_default(&evp);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 4, 1, descs, &evp), 0);
	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 4, &set,
				 NULL, 0), 0);
	/* An RTO of 200 us: the floor is the timeout. */
	CHECK_EQ(mrc_sender_probe_timeout_us(&s),
		 MRC_SENDER_PROBE_TIMEOUT_MIN_US);
	CHECK(mrc_ev_on_loss(&set, 1, 0));
	CHECK_EQ(mrc_sender_next_probe(&s, 50), -1);
	CHECK_EQ(mrc_sender_next_probe(&s, 100), 1);
	CHECK_EQ(s.stats.probes, 1);
	CHECK_EQ(mrc_sender_next_probe(&s, 1099), -1);
	CHECK_EQ(s.stats.probes_lost, 0);
	CHECK(set.evs[1].probe_pending);
	/* Unanswered for 1 ms: failed; the next one after 200 us. */
	CHECK_EQ(mrc_sender_next_probe(&s, 1100), -1);
	CHECK_EQ(s.stats.probes_lost, 1);
	CHECK(!set.evs[1].probe_pending);
	CHECK(!mrc_sender_on_probe_reply(&s, 1150, 1, true));
	CHECK_EQ(set.evs[1].probe_successes, 0);
	CHECK_EQ(mrc_sender_next_probe(&s, 1299), -1);
	CHECK_EQ(mrc_sender_next_probe(&s, 1300), 1);
	CHECK(mrc_sender_on_probe_reply(&s, 1310, 1, true));
	/* A duplicate reply counts once. */
	CHECK(!mrc_sender_on_probe_reply(&s, 1310, 1, true));
	CHECK_EQ(mrc_sender_next_probe(&s, 1310), 1);
	CHECK(mrc_sender_on_probe_reply(&s, 1320, 1, true));
	CHECK_EQ(set.evs[1].state, MRC_EV_GOOD);
	CHECK_EQ(s.stats.probes, 3);
	CHECK_EQ(s.stats.probes_lost, 1);

	/* A longer RTO is the timeout. */
	mrc_sender_set_rto(&s, &slow);
	CHECK_EQ(mrc_sender_probe_timeout_us(&s), 5000);
	CHECK(mrc_ev_on_loss(&set, 2, 2000));
	CHECK_EQ(mrc_sender_next_probe(&s, 2100), 2);
	CHECK_EQ(mrc_sender_next_probe(&s, 7099), -1);
	CHECK_EQ(s.stats.probes_lost, 1);
	CHECK_EQ(mrc_sender_next_probe(&s, 7100), -1);
	CHECK_EQ(s.stats.probes_lost, 2);

	/*
	 * The sender fails: no more probes, though one is due. The timer
	 * also fires for probes now; as a caller does, each one due goes
	 * out (unanswered).
	 */
	CHECK_EQ(mrc_sender_post(&s, 1, 1), 0);
	now = 8000;
	CHECK(mrc_sender_next(&s, now, &tx));
	for (i = 0; i < 200 && !s.failed; i++) {
		/* The outage backs the RTO off, not the probe timeout. */
		CHECK_EQ(mrc_sender_probe_timeout_us(&s), 5000);
		CHECK(mrc_sender_next_timer(&s, now, &due));
		CHECK(due > now || i == 0);
		now = due;
		mrc_sender_on_timeout(&s, now);
		while (mrc_sender_next(&s, now, &tx))
			;
		while (mrc_sender_next_probe(&s, now) >= 0)
			;
	}
	CHECK(s.failed);
	CHECK(set.evs[2].state == MRC_EV_ASSUMED_BAD);
	CHECK_EQ(mrc_sender_next_probe(&s, now + 100000), -1);
}

/* Sends whatever may go now; how many transmissions went. */
static u32 send_all(struct mrc_sender *s, u64 now)
{
	struct mrc_sender_tx tx;
	u32 n = 0;

	while (mrc_sender_next(s, now, &tx))
		n++;
	return n;
}

/*
 * Every path of a connection goes down with data in flight, and the RTO
 * backs off through the outage. When the plane comes back, the timer
 * covers the probes (nothing else happens: no ACK can come), and once a
 * path is back the data in flight is resent at once and the RTO starts
 * again from its base: recovery takes a few round trips, not the rest of
 * a backed-off RTO. The retry count stands. A path that comes back while
 * others delivered restarts nothing.
 */
static void sender_path_back_restarts_stalled(void)
{
	struct mrc_sender_params p = unit_params;
	struct mrc_ev_desc descs[2];
	struct mrc_sender_msg msgs[4];
	struct mrc_sender_done done;
	struct mrc_tx_slot slots[8];
	struct mrc_sender_tx tx;
	struct mrc_ev_params evp;
	struct mrc_ev_set set;
	struct mrc_ev evs[2];
	struct mrc_sender s;
	u64 now, due;
	u32 retries;
	int ev;

	/* Room for the outage: 7 retries, an RTO that backs off to 100 ms. */
	p.retry_cnt = 7;
	p.rto.max_us = 100000;
	p.rto.initial_us = 1000;
	memset(descs, 0, sizeof(descs));
	descs[0].path.udp_sport = 49152;
	descs[1].path.udp_sport = 49153;
	mrc_ev_params_default(&evp);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 1, descs, &evp), 0);
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, &set, NULL, 0),
		 0);
	CHECK_EQ(mrc_sender_post(&s, 4, 1), 0);
	CHECK_EQ(send_all(&s, 0), 4);
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, true, 10);

	/* Plane down: nothing to probe, the RTO alone; it backs off. */
	CHECK(mrc_sender_next_timer(&s, 10, &due));
	CHECK_EQ(due, 1000);
	CHECK(mrc_sender_on_timeout(&s, 1000));
	CHECK_EQ(send_all(&s, 1000), 4);
	CHECK(mrc_sender_next_timer(&s, 1000, &due));
	CHECK_EQ(due, 3000);
	CHECK(mrc_sender_on_timeout(&s, 3000));
	CHECK_EQ(send_all(&s, 3000), 4);
	CHECK(mrc_sender_next_timer(&s, 3000, &due));
	CHECK_EQ(due, 7000);
	retries = s.retries;
	CHECK_EQ(retries, 2);

	/* Back at 3500: the timer is due for the probes, not at 7000. */
	now = 3500;
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, false, now);
	CHECK(mrc_sender_next_timer(&s, now, &due));
	CHECK_EQ(due, now);
	CHECK(mrc_sender_on_timeout(&s, now));	/* a probe waits */
	CHECK_EQ(s.retries, retries);
	CHECK_EQ(mrc_sender_next_probe(&s, now), 0);
	CHECK_EQ(mrc_sender_next_probe(&s, now), 1);
	CHECK_EQ(mrc_sender_next_probe(&s, now), -1);
	/* Pending: the timer covers their timeout, still before the RTO. */
	CHECK(mrc_sender_next_timer(&s, now, &due));
	CHECK(due > now && due <= 7000);
	CHECK(mrc_sender_on_probe_reply(&s, now + 10, 0, true));
	CHECK(mrc_sender_on_probe_reply(&s, now + 10, 1, true));
	CHECK_EQ(s.stats.path_back_restarts, 0);
	/* The confirming probes are due at once. */
	CHECK(mrc_sender_next_timer(&s, now + 10, &due));
	CHECK_EQ(due, now + 10);
	CHECK_EQ(mrc_sender_next_probe(&s, now + 10), 0);
	CHECK_EQ(mrc_sender_next_probe(&s, now + 10), 1);
	CHECK(mrc_sender_on_probe_reply(&s, now + 20, 1, true));
	CHECK_EQ(set.evs[1].state, MRC_EV_GOOD);

	/* Back: everything in flight goes again now, on the good path. */
	CHECK_EQ(s.stats.path_back_restarts, 1);
	CHECK(mrc_sender_next(&s, now + 20, &tx));
	CHECK_EQ(tx.psn, 0);
	CHECK_EQ(tx.why, MRC_SENDER_RETX_TIMEOUT);
	CHECK_EQ(tx.ev, 1);
	CHECK_EQ(send_all(&s, now + 20), 3);
	CHECK_EQ(mrc_sender_rto_us(&s), 1000);
	CHECK_EQ(s.retries, retries);
	CHECK_EQ(s.stats.timeouts, 2);
	/* The other EV comes back too; no second restart. */
	CHECK(mrc_sender_on_probe_reply(&s, now + 30, 0, true));
	CHECK_EQ(mrc_ev_usable_count(&set), 2);
	CHECK_EQ(s.stats.path_back_restarts, 1);
	CHECK_EQ(send_all(&s, now + 50), 0);
	CHECK_EQ(mrc_sender_on_ack(&s, now + 60, 4, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK_EQ(s.retries, 0);
	CHECK_EQ(mrc_sender_pending(&s), 1);

	/* Two planes; plane 1 goes down, plane 0 keeps delivering. */
	descs[1].plane = 1;
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 2, descs, &evp), 0);
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, &set, NULL, 0),
		 0);
	CHECK_EQ(mrc_sender_post(&s, 2, 1), 0);
	CHECK_EQ(send_all(&s, 0), 2);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 10);
	CHECK_EQ(mrc_sender_on_ack(&s, 50, 1, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, false, 100);
	while ((ev = mrc_sender_next_probe(&s, 100)) >= 0)
		mrc_sender_on_probe_reply(&s, 110, (u32)ev, true);
	while ((ev = mrc_sender_next_probe(&s, 110)) >= 0)
		mrc_sender_on_probe_reply(&s, 120, (u32)ev, true);
	CHECK_EQ(set.evs[1].state, MRC_EV_GOOD);
	CHECK_EQ(s.stats.path_back_restarts, 0);
	CHECK_EQ(send_all(&s, 120), 0);
	/* Idle (nothing owed), a bad EV sets no timer. */
	CHECK_EQ(mrc_sender_on_ack(&s, 130, 2, NULL, 0, 0, false),
		 MRC_TX_ACK_OK);
	CHECK(mrc_sender_poll_done(&s, &done));
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 140);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, false, 150);
	CHECK(!mrc_sender_next_timer(&s, 150, &due));
	/* Posted, nothing outstanding yet; sent: due at once. */
	CHECK_EQ(mrc_sender_post(&s, 1, 2), 1);
	CHECK(!mrc_sender_next_timer(&s, 150, &due));
	CHECK_EQ(send_all(&s, 150), 1);
	CHECK(mrc_sender_next_timer(&s, 150, &due));
	CHECK_EQ(due, 150);
}

/*
 * After a failure every message comes back (flushed) while its PSNs stay
 * outstanding, and the ring takes new posts: a PSN of a message already
 * returned names no message, not the ring entry's new one (found by
 * sender_fuzz: mrc_sender_msg_of() gave the index of a message posted
 * after the failure, so an RNR NAK of the old PSN would have been charged
 * to it).
 */
static void sender_msg_of_after_failure(void)
{
	struct mrc_sender_msg msgs[2];
	struct mrc_tx_slot slots[8];
	struct mrc_sender_done d;
	struct mrc_sender_tx tx;
	struct mrc_sender s;
	u64 now = 10, due;
	u32 i;

	CHECK_EQ(mrc_sender_init(&s, &unit_params, slots, 8, msgs, 2, NULL,
				 NULL, 40), 0);
	CHECK_EQ(mrc_sender_post(&s, 2, 1), 0);
	CHECK(mrc_sender_next(&s, now, &tx));
	CHECK(mrc_sender_next(&s, now, &tx));
	CHECK_EQ(mrc_sender_msg_of(&s, 41), 0);
	for (i = 0; i < 10 && !s.failed; i++) {
		CHECK(mrc_sender_next_timer(&s, now, &due));
		now = due;
		mrc_sender_on_timeout(&s, now);
		while (mrc_sender_next(&s, now, &tx))
			;
	}
	CHECK(s.failed);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.status, MRC_SENDER_ST_RETRY_EXCEEDED);
	/* Ring entry 0 is taken again, by a message flushed at once. */
	CHECK_EQ(mrc_sender_post(&s, 1, 2), 1);
	CHECK_EQ(mrc_sender_post(&s, 1, 3), 0);
	CHECK_EQ(mrc_sender_msg_of(&s, 40), -1);
	CHECK_EQ(mrc_sender_msg_of(&s, 41), -1);
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK(mrc_sender_poll_done(&s, &d));
	CHECK_EQ(d.cookie, 3);
	CHECK_EQ(d.status, MRC_SENDER_ST_FLUSHED);
	CHECK_EQ(mrc_sender_msg_of(&s, 41), -1);
}

static u32 cc_rtt_calls;
static u32 cc_rtt_psn;

/* The caller's share of an RTT: half of it, so that the effect shows. */
static u64 half_rtt(void *arg, u32 psn, u64 sent_at, u64 rtt)
{
	CHECK_EQ(sent_at, *(u64 *)arg);
	cc_rtt_calls++;
	cc_rtt_psn = psn;
	return rtt / 2;
}

/*
 * NSCC's RTT sample goes through the caller's hook (its own queueing
 * taken out); one EV by a key when spraying is off.
 */
static void sender_cc_rtt_and_single_path(void)
{
	struct mrc_sender_params p = unit_params;
	struct mrc_ev_desc descs[4];
	struct mrc_sender_msg msgs[4];
	struct mrc_tx_slot slots[8];
	struct mrc_nscc_params ccp;
	struct mrc_ev_params evp;
	struct mrc_sender_tx tx;
	struct mrc_ev_set set;
	struct mrc_ev evs[4];
	struct mrc_sender s;
	struct mrc_nscc cc;
	u64 sent_at = 10;
	u32 i, ev = MRC_TX_NIL;

	memset(descs, 0, sizeof(descs));
	for (i = 0; i < 4; i++)
		descs[i].path.udp_sport = (u16)(49152 + i);
	mrc_ev_params_default(&evp);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 4, 1, descs, &evp), 0);
	mrc_nscc_params_default(&ccp);
	CHECK_EQ(mrc_nscc_init(&cc, &ccp), 0);
	CHECK_EQ(mrc_sender_init(&s, &p, slots, 8, msgs, 4, &set, &cc, 0), 0);
	s.cc_rtt = half_rtt;
	s.cc_rtt_arg = &sent_at;
	mrc_sender_set_single_path(&s, true, 12345);
	CHECK_EQ(mrc_sender_post(&s, 4, 1), 0);
	for (i = 0; i < 4; i++) {
		CHECK(mrc_sender_next(&s, sent_at, &tx));
		if (!i)
			ev = tx.ev;
		CHECK(ev < 4);
		CHECK_EQ(tx.ev, ev);
	}
	CHECK_EQ(mrc_sender_on_ack(&s, 50, 4, NULL, 0, ev, false),
		 MRC_TX_ACK_OK);
	CHECK_EQ(cc_rtt_calls, 1);
	CHECK_EQ(cc_rtt_psn, 3);
}

/* Out of the window is dropped unanswered; behind epsn is a duplicate. */
static void receiver_window_edges(void)
{
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	struct mrc_receiver rc;
	u32 last;

	mrc_receiver_init(&rc, 10);
	mrc_receiver_on_packet(&rc, 10 + MRC_RX_WINDOW, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(!v.reply);
	mrc_receiver_on_packet(&rc, 10, MRC_RECEIVER_F_LAST, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(!v.reply);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 10);
	/* A trimmed copy of a PSN already here is just a duplicate. */
	mrc_receiver_on_packet(&rc, 10, MRC_RECEIVER_F_TRIMMED, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DUPLICATE);
	CHECK(v.reply && r.syndrome == MRC_SYN_ACK);
	CHECK_EQ(r.cum_psn, 11);
	/* Out of order: held, answered with a SACK, nothing completes. */
	mrc_receiver_on_packet(&rc, 13, MRC_RECEIVER_F_LAST, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(v.reply);
	CHECK_EQ(r.cum_psn, 11);
	CHECK_EQ(r.nwords, 1);
	CHECK_EQ(r.sack[0], 1ull << 62);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	mrc_receiver_on_packet(&rc, 11, MRC_RECEIVER_F_TRIMMED, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_TRIMMED);
	CHECK_EQ(r.syndrome, MRC_NAK_TRIMMED);
	CHECK_EQ(r.nak_psn, 11);
	mrc_receiver_on_packet(&rc, 11, 0, &v, &r);
	mrc_receiver_on_packet(&rc, 12, 0, &v, &r);
	/* 12 closed the hole: answered though it did not ask. */
	CHECK(v.reply);
	CHECK_EQ(r.cum_psn, 14);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 13);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
}

/*
 * Completion marks live in a window-sized ring indexed like the receive
 * bitmap: a packet a full window past a PSN whose completion was not yet
 * polled would share its mark. Found writing sender_fuzz's receiver
 * model (its seed "marks-ahead" is the same input as encoded packets):
 * the receiver reported PSN 0, no last packet, as a completed message.
 * Such a packet is now dropped until the caller polls; then it is in the
 * window again.
 */
static void receiver_marks_wait_for_poll(void)
{
	struct mrc_receiver rc;
	struct mrc_receiver_verdict v;
	struct mrc_receiver_reply r;
	u32 last;

	mrc_receiver_init(&rc, 0);
	mrc_receiver_on_packet(&rc, 0, 0, &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	mrc_receiver_on_packet(&rc, MRC_RX_WINDOW,
			       MRC_RECEIVER_F_LAST | MRC_RECEIVER_F_ACK_REQ,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(!v.reply);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	/* Polled: the receive window holds it again. */
	mrc_receiver_on_packet(&rc, MRC_RX_WINDOW,
			       MRC_RECEIVER_F_LAST | MRC_RECEIVER_F_ACK_REQ,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	/* Across the 24-bit wrap, with a completion still to poll. */
	mrc_receiver_init(&rc, 0xfffffe);
	mrc_receiver_on_packet(&rc, 0xfffffe, MRC_RECEIVER_F_LAST, &v, &r);
	mrc_receiver_on_packet(&rc, 0xffffff, 0, &v, &r);
	CHECK_EQ(mrc_receiver_epsn(&rc), 0);
	mrc_receiver_on_packet(&rc, MRC_RX_WINDOW - 2, MRC_RECEIVER_F_LAST,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	mrc_receiver_on_packet(&rc, MRC_RX_WINDOW - 1, MRC_RECEIVER_F_LAST,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DROP);
	CHECK(mrc_receiver_poll_done(&rc, &last));
	CHECK_EQ(last, 0xfffffe);
	CHECK(!mrc_receiver_poll_done(&rc, &last));
	mrc_receiver_on_packet(&rc, MRC_RX_WINDOW - 1, MRC_RECEIVER_F_LAST,
			       &v, &r);
	CHECK_EQ(v.action, MRC_RECEIVER_DELIVER);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(sender_refuses_bad_input),
	KTAP_CASE(sender_invalid_ack_and_rnr),
	KTAP_CASE(sender_sack_reneged),
	KTAP_CASE(sender_response_messages),
	KTAP_CASE(sender_request_among_packets),
	KTAP_CASE(sender_request_after_other_message),
	KTAP_CASE(sender_response_timeouts),
	KTAP_CASE(sender_flush_behind_response),
	KTAP_CASE(sender_ack_result),
	KTAP_CASE(sender_without_rto),
	KTAP_CASE(sender_trim_echo),
	KTAP_CASE(sender_cc_rtt_and_single_path),
	KTAP_CASE(sender_probe_timeout),
	KTAP_CASE(sender_path_back_restarts_stalled),
	KTAP_CASE(sender_msg_of_after_failure),
	KTAP_CASE(receiver_window_edges),
	KTAP_CASE(receiver_marks_wait_for_poll),
	KTAP_CASE(clean_network_delivers_in_order),
	KTAP_CASE(hostile_network_many_seeds),
	KTAP_CASE(failed_paths_are_retired),
	KTAP_CASE(recovered_path_is_probed_back),
	KTAP_CASE(plane_loss_keeps_traffic_on_the_other),
	KTAP_CASE(plane_loss_resends_in_flight_at_once),
	KTAP_CASE(whole_outage_resumes_when_a_plane_returns),
	KTAP_CASE(silent_outage_resumes_within_probe_intervals),
	KTAP_CASE(trims_retransmit_without_rto),
	KTAP_CASE(dead_network_exhausts_retries),
	KTAP_CASE(exp_retry_stage),
	KTAP_CASE(psn_window_bounds_outstanding),
};

KTAP_MAIN("mrc_sender_sim", cases)
