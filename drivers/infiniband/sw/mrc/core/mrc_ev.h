/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The EV (entropy value) set of one connection: the paths its packets are
 * sprayed over, the state of each path, and which path the next packet
 * takes. Documentation/paths.rst describes the state machine and the
 * spraying algorithm; this header is the contract.
 *
 * An EV is one path through the fabric: a plane (one port of the device,
 * one slave of its bond) plus what steers the packet inside that plane,
 * either the UDP source port (ECMP fabrics) or an SRv6 micro-SID list
 * (statically source-routed fabrics). The set refers to its EVs by index,
 * 0 .. n_evs - 1; that index is what the requester records per PSN in its
 * tracker and carries in the header's EV field, so ACKs and losses map
 * back to an EV in O(1).
 *
 * Protocol core: plain C, no allocation, no locking, no clock. The caller
 * owns the storage (an array of struct mrc_ev), serialises calls on one
 * set, and passes the time in microseconds (u32, wrapping; compared with
 * serial arithmetic, so intervals must stay below 2^31 us).
 */
#ifndef MRC_EV_H
#define MRC_EV_H

#include "mrc_core_types.h"

#define MRC_EV_MAX		256u	/* EVs in one set */
#define MRC_EV_MAX_PLANES	8u	/* planes (ports) of one device */
/*
 * uSIDs an SRv6 EV may hold before the destination host's own uSID: a
 * F3216 container (32-bit block, six 16-bit uSIDs) in the outer IPv6
 * destination, with no segment routing header.
 */
#define MRC_EV_MAX_USIDS	5u

enum mrc_ev_state {
	/* Delivering: acknowledged data went through it. Sprayed on. */
	MRC_EV_GOOD,
	/*
	 * Lost a packet or timed out, or its plane went down: not sprayed
	 * on, probed until probes succeed.
	 */
	MRC_EV_ASSUMED_BAD,
	/* Forbidden (controller or peer): neither sprayed on nor probed. */
	MRC_EV_DENIED,
	/* Never confirmed yet (new, or just allowed again). Sprayed on. */
	MRC_EV_UNKNOWN,
};

/**
 * struct mrc_ev_path - how a packet is steered along one EV
 * @udp_sport: UDP source port, host order (the EV itself in UDP mode)
 * @n_usids: 0 in UDP mode; in SRv6 mode the number of switch uSIDs
 * @usids: the switch uSIDs in the order the packet meets the switches;
 *	the destination host's uSID follows them in the container
 */
struct mrc_ev_path {
	u16 udp_sport;
	u8 n_usids;
	u16 usids[MRC_EV_MAX_USIDS];
};

/**
 * struct mrc_ev - one EV of a set; read-only to the caller
 * @path: how packets on it are steered
 * @plane: the plane (port index) it leaves on
 * @state: enum mrc_ev_state
 * @probe_pending: a probe is out and its result not yet reported
 * @probe_successes: consecutive successful probes since it went bad
 * @probe_backoff: probe interval exponent (interval = base << backoff)
 * @probe_due_us: when it may be probed next
 * @probe_sent_us: when its pending probe went out (mrc_ev_probe_expire())
 * @sent: packets sprayed on it (data and retransmissions, not probes)
 * @acked: packets acknowledged that were sent on it
 * @lost: losses and timeouts charged to it
 * @probes: probes sent on it
 * @changed_us: when it last went ASSUMED_BAD (loss, timeout, plane event)
 *	or back to GOOD through probes, in the caller's time; valid once
 *	@changed is set (the changes without a time, ACK, deny and allow,
 *	leave it as it was)
 * @lost_us: when the last loss or timeout was charged to it (valid once
 *	@lost is non-zero)
 * @changed: @changed_us holds a time
 */
struct mrc_ev {
	struct mrc_ev_path path;
	u8 plane;
	u8 state;
	bool probe_pending;
	u8 probe_successes;
	u8 probe_backoff;
	u32 probe_due_us;
	u32 probe_sent_us;
	u64 sent;
	u64 acked;
	u64 lost;
	u64 probes;
	u32 changed_us;
	u32 lost_us;
	bool changed;
};

/**
 * struct mrc_ev_desc - an EV as the caller describes it to mrc_ev_set_init()
 * @path: how packets on it are steered
 * @plane: its plane, below the set's n_planes
 */
struct mrc_ev_desc {
	struct mrc_ev_path path;
	u8 plane;
};

/**
 * struct mrc_ev_params - tunables of a set
 * @min_active: ev_min_active: a loss or timeout does not retire an EV
 *	when that would leave fewer usable EVs than this (plane loss and
 *	denial still do: those paths cannot carry anything)
 * @probe_interval_us: first probe of a bad EV after this long, and the
 *	base of its backoff
 * @probe_max_backoff: the probe interval stops doubling at
 *	probe_interval_us << probe_max_backoff
 * @probes_to_good: consecutive successful probes that make a bad EV good
 */
struct mrc_ev_params {
	u32 min_active;
	u32 probe_interval_us;
	u8 probe_max_backoff;
	u8 probes_to_good;
};

/* Defaults: a floor of 1, first probe after 100 us, up to ~26 ms, 2 probes. */
#define MRC_EV_DEFAULT_MIN_ACTIVE		1u
#define MRC_EV_DEFAULT_PROBE_INTERVAL_US	100u
#define MRC_EV_DEFAULT_PROBE_MAX_BACKOFF	8u
#define MRC_EV_DEFAULT_PROBES_TO_GOOD		2u

/* Why a plane cannot carry traffic; a plane is usable with none of these. */
#define MRC_EV_PLANE_DOWN		0x1u	/* our port has no carrier */
#define MRC_EV_PLANE_PEER_DENIED	0x2u	/* the peer said: not to me */
/* the peer's controller said: my port on this plane is down */
#define MRC_EV_PLANE_PEER_PORT_DOWN	0x4u

/* Why an EV changed state, as told to the set's watcher. */
enum mrc_ev_why {
	MRC_EV_WHY_LOSS = 1,	/* a loss retired it */
	MRC_EV_WHY_TIMEOUT,	/* a timeout retired it */
	MRC_EV_WHY_PLANE,	/* its plane cannot carry traffic */
	MRC_EV_WHY_PROBES,	/* probes brought it back */
	MRC_EV_WHY_ACK,		/* an ACK confirmed it */
	MRC_EV_WHY_DENY,
	MRC_EV_WHY_ALLOW,
};

/*
 * Told of every change of an EV's state, after the set is consistent
 * again, from inside the call that made it (so under the caller's
 * serialisation: it must not call back into the set, nor block).
 */
typedef void (*mrc_ev_watch_fn)(void *ctx, u32 ev, u8 old_state,
				u8 new_state, u8 why);

/**
 * struct mrc_ev_set - the EVs of one connection; opaque to the caller
 * beyond the read-only accessors below
 */
struct mrc_ev_set {
	struct mrc_ev *evs;
	u32 n_evs;
	u8 n_planes;
	struct mrc_ev_params params;

	/* EVs are stored grouped by plane: plane p owns [first, first+len). */
	u16 plane_first[MRC_EV_MAX_PLANES];
	u16 plane_len[MRC_EV_MAX_PLANES];
	u16 plane_usable[MRC_EV_MAX_PLANES];	/* usable EVs of the plane */
	u16 plane_cursor[MRC_EV_MAX_PLANES];	/* next offset to try */
	u8 plane_flags[MRC_EV_MAX_PLANES];	/* MRC_EV_PLANE_* */
	u8 next_plane;				/* next plane to try */
	u32 usable;				/* usable EVs in all */
	u32 retired;				/* ASSUMED_BAD EVs */
	u32 probe_cursor;			/* where the probe scan resumes */
	u32 last_resort_cursor;			/* mrc_ev_pick_last_resort() */
	u32 probes_pending;			/* EVs with probe_pending */
	/*
	 * Times a plane stopped carrying traffic (mrc_ev_plane_set()): what
	 * was in flight on it will not arrive, and a sender that saw this
	 * change resends it without waiting for an RTO.
	 */
	u32 planes_lost;
	mrc_ev_watch_fn watch;			/* NULL: none */
	void *watch_ctx;
};

void mrc_ev_params_default(struct mrc_ev_params *p);

/*
 * Builds a set of @n_evs EVs (1 .. MRC_EV_MAX) on @n_planes planes
 * (1 .. MRC_EV_MAX_PLANES) in the caller's array @evs of @n_evs entries.
 * The EVs are stored grouped by plane, in the order of @descs within a
 * plane: evs[i] is not necessarily descs[i]. Every EV starts UNKNOWN and
 * every plane usable. -EINVAL for bad sizes, a plane out of range, an SRv6
 * path with too many uSIDs or zero-valued tunables.
 */
int mrc_ev_set_init(struct mrc_ev_set *set, struct mrc_ev *evs, u32 n_evs,
		    u8 n_planes, const struct mrc_ev_desc *descs,
		    const struct mrc_ev_params *params);

/*
 * The spray choice: the EV the next packet goes on, and counts it sent.
 * Planes take turns (round robin over the planes that have a usable EV),
 * and within a plane its usable EVs take turns, so packets spread evenly
 * over planes first and over each plane's paths second. @avoid (an index,
 * or -1) is skipped unless it is the only usable EV: a retransmission
 * passes the EV the packet was lost on. Returns the EV index, or
 * -EHOSTUNREACH when no EV is usable (nothing is counted then).
 */
int mrc_ev_pick(struct mrc_ev_set *set, int avoid);

/*
 * For a packet that cannot wait for probes to bring a path back, when
 * mrc_ev_pick() found none usable: the next ASSUMED_BAD EV on a plane
 * that can carry traffic, in turn, counted sent. A responder's ACKs,
 * NAKs, READ responses and PROBE_REPLYs are such packets: its EVs go bad
 * with its own plane events, but only its own requester's probes bring
 * them back, and a peer waiting for those answers gets none while it
 * sends nothing. A bad EV stays bad (only probes change that).
 * -EHOSTUNREACH when every plane is down or every EV denied.
 */
int mrc_ev_pick_last_resort(struct mrc_ev_set *set);

/* @n packets sent on EV @ev were acknowledged: UNKNOWN becomes GOOD. */
void mrc_ev_on_ack(struct mrc_ev_set *set, u32 ev, u32 n);

/*
 * A packet sent on @ev is lost (SACK hole past the reorder tolerance) or
 * timed out: the EV is retired at once (ASSUMED_BAD, first probe after
 * probe_interval_us) unless the floor forbids it. Returns true when it was
 * retired (or already was not usable), false when the floor kept it.
 */
bool mrc_ev_on_loss(struct mrc_ev_set *set, u32 ev, u32 now_us);
bool mrc_ev_on_timeout(struct mrc_ev_set *set, u32 ev, u32 now_us);

/*
 * Probing. mrc_ev_next_probe() returns a bad EV, on a usable plane, whose
 * probe is due and not pending, marks its probe pending (sent at @now_us)
 * and counts it; or -ENOENT. The caller sends a probe on it and reports
 * the outcome with mrc_ev_probe_result(): a success counts towards
 * probes_to_good, after which the EV is GOOD; a failure restarts the count
 * and doubles the interval (up to the maximum backoff). A result for an EV
 * with no probe pending is ignored; mrc_ev_probe_result() returns whether
 * it was taken. mrc_ev_probe_expire() fails every probe pending for
 * @timeout_us or longer, and returns how many it failed.
 */
int mrc_ev_next_probe(struct mrc_ev_set *set, u32 now_us);
bool mrc_ev_probe_result(struct mrc_ev_set *set, u32 ev, bool ok,
			 u32 now_us);
u32 mrc_ev_probe_expire(struct mrc_ev_set *set, u32 now_us, u32 timeout_us);

/*
 * How long until mrc_ev_next_probe() has a probe to send, or until
 * mrc_ev_probe_expire() with @timeout_us fails a pending one: in
 * *@wait_us, 0 when that is now. False when no EV is bad or awaits a
 * probe reply. Constant time while every EV is usable, so a caller may
 * ask on every event to keep a timer for probes.
 */
bool mrc_ev_probe_wait(const struct mrc_ev_set *set, u32 now_us,
		       u32 timeout_us, u32 *wait_us);

/*
 * Denial (controller or peer): DENIED EVs are neither used nor probed.
 * Allowing one makes it UNKNOWN (used at once, retired on its first loss).
 */
void mrc_ev_deny(struct mrc_ev_set *set, u32 ev);
void mrc_ev_allow(struct mrc_ev_set *set, u32 ev);

/*
 * Plane events. Setting any MRC_EV_PLANE_* flag on a plane makes all its
 * EVs unusable at once, floor or not, and marks them ASSUMED_BAD (DENIED
 * ones stay DENIED). Clearing the last flag returns them only through
 * probes: they are probed from @now_us on and become GOOD when the probes
 * succeed. mrc_ev_plane_set() returns the plane's flags after the change.
 */
u8 mrc_ev_plane_set(struct mrc_ev_set *set, u8 plane, u8 flag, bool on,
		    u32 now_us);

static inline bool mrc_ev_plane_usable(const struct mrc_ev_set *set, u8 plane)
{
	return plane < set->n_planes && !set->plane_flags[plane];
}

static inline bool mrc_ev_usable(const struct mrc_ev_set *set, u32 ev)
{
	const struct mrc_ev *e = &set->evs[ev];

	return (e->state == MRC_EV_GOOD || e->state == MRC_EV_UNKNOWN) &&
	       !set->plane_flags[e->plane];
}

static inline u32 mrc_ev_usable_count(const struct mrc_ev_set *set)
{
	return set->usable;
}

/* Some EV is bad or awaits a probe reply: mrc_ev_probe_wait() may say when. */
static inline bool mrc_ev_probing(const struct mrc_ev_set *set)
{
	return set->retired || set->probes_pending;
}

static inline const struct mrc_ev *
mrc_ev_get(const struct mrc_ev_set *set, u32 ev)
{
	return ev < set->n_evs ? &set->evs[ev] : NULL;
}

/*
 * Who is told of state changes (NULL: no one); after mrc_ev_set_init(),
 * which forgets it.
 */
void mrc_ev_set_watch(struct mrc_ev_set *set, mrc_ev_watch_fn fn, void *ctx);

const char *mrc_ev_state_name(enum mrc_ev_state state);

#endif /* MRC_EV_H */
