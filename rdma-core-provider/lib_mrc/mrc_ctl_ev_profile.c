// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: EV profiles over the kernel's (Documentation/mrc-api.rst, "EV
 * profiles"). A kernel profile is published whole and fixed, so a
 * profile being configured (INIT, OFFLINE) is kept by the library, and
 * going ONLINE publishes it (PROFILE_NEW, replacing one of the same id);
 * going OFFLINE again withdraws it (PROFILE_DEL: QPs made meanwhile keep
 * their copy). A profile some other controller published (mrcctl) is
 * ONLINE here too: its first modify takes the kernel's copy as the
 * library's.
 *
 * Modes: EXP (explicit: ev_count slots, filled by REPLACE_EV from
 * MRC_CTL_EV_UNPOPULATED) and GEN (generated from fields, on every plane
 * of the device). AUTO is EOPNOTSUPP: the kernel's own spraying is what a
 * QP without a profile gets, not a profile.
 *
 * EV states are the kernel's once ONLINE: MODIFY_EV_STATE denies (DENIED)
 * or allows (GOOD) each EV named; a query reports DENIED, else
 * ASSUMED_BAD when a connection over the profile holds the EV retired,
 * else GOOD. Before ONLINE an EV has no state (UNKNOWN) and setting one
 * is EINVAL.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_ctl_lib.h"

#define MRC_CTL_EV_MASK (MRC_CTL_EV_PROFILE_STATE |			\
			 MRC_CTL_EV_PROFILE_CUR_STATE |			\
			 MRC_CTL_EV_PROFILE_MODE |			\
			 MRC_CTL_EV_PROFILE_FMT_ID |			\
			 MRC_CTL_EV_PROFILE_COUNT |			\
			 MRC_CTL_EV_PROFILE_MIN_ACTIVE |		\
			 MRC_CTL_EV_PROFILE_EVENT_MASK |		\
			 MRC_CTL_EV_PROFILE_EV_OP |			\
			 MRC_CTL_EV_PROFILE_EV_FIELDS_OP |		\
			 MRC_CTL_EV_PROFILE_VENDOR_CFG)

/*
 * The event mask is the kernel profile's too: set while the profile is not
 * ONLINE, like the rest.
 */
#define MRC_CTL_EV_CONFIG (MRC_CTL_EV_PROFILE_MODE |			\
			   MRC_CTL_EV_PROFILE_FMT_ID |			\
			   MRC_CTL_EV_PROFILE_COUNT |			\
			   MRC_CTL_EV_PROFILE_MIN_ACTIVE |		\
			   MRC_CTL_EV_PROFILE_EVENT_MASK |		\
			   MRC_CTL_EV_PROFILE_EV_FIELDS_OP |		\
			   MRC_CTL_EV_PROFILE_VENDOR_CFG)

/* A kernel profile and its EVs, as read. */
struct mrc_ctl_kprofile {
	struct mrc_nl_profile p;
	struct mrc_nl_ev *evs;		/* p.num_evs */
};

/* 0 and *found, or an errno. */
static int mrc_ctl_kprofile_find(struct mrc_ctl_state *st, uint32_t id,
				 struct mrc_nl_profile *p, bool *found)
{
	struct mrc_nl_profile_find find = { .id = id };
	int err;

	err = mrc_nl_talk(st->nl, mrc_nl_req_profile_dump(st->nl, st->dev),
			  mrc_nl_parse_profile, &find);
	if (err)
		return err;
	*found = find.found;
	*p = find.profile;
	return 0;
}

static int mrc_ctl_kprofile_evs(struct mrc_ctl_state *st,
				struct mrc_ctl_kprofile *k)
{
	struct mrc_nl_ev_list list = {
		.format = k->p.format, .capacity = k->p.num_evs,
	};
	int err;

	k->evs = calloc(k->p.num_evs ? k->p.num_evs : 1, sizeof(*k->evs));
	if (!k->evs)
		return ENOMEM;
	list.evs = k->evs;
	err = mrc_nl_talk(st->nl, mrc_nl_req_ev_dump(st->nl, st->dev, k->p.id),
			  mrc_nl_parse_ev, &list);
	if (!err && list.seen != k->p.num_evs)
		err = EAGAIN;	/* replaced between the two dumps */
	return err;
}

/* ASSUMED_BAD from the connections over profile @id, into evs[].state. */
static int mrc_ctl_kprofile_retired(struct mrc_ctl_state *st,
				    struct mrc_ctl_kprofile *k)
{
	struct mrc_nl_path_bad paths = {
		.id = k->p.id, .capacity = k->p.num_evs,
	};
	uint32_t i;
	int err;

	paths.bad = calloc(k->p.num_evs ? k->p.num_evs : 1, sizeof(bool));
	if (!paths.bad)
		return ENOMEM;
	err = mrc_nl_talk(st->nl, mrc_nl_req_path_dump(st->nl, st->dev, NULL),
			  mrc_nl_parse_path, &paths);
	for (i = 0; !err && i < k->p.num_evs; i++)
		if (paths.bad[i] && k->evs[i].state != MRC_NL_EV_DENIED)
			k->evs[i].state = MRC_NL_EV_ASSUMED_BAD;
	free(paths.bad);
	return err;
}

/* The format profile of this context with @format's mode, or 0. */
static uint64_t mrc_ctl_fmt_id_for(const struct mrc_ctl_state *st,
				   uint8_t format)
{
	enum mrc_ctl_ev_fmt_mode mode = mrc_ctl_fmt_from_nl(format);
	int i;

	for (i = MRC_CTL_LIB_ID_MIN; i <= MRC_CTL_LIB_ID_MAX; i++)
		if (st->fmt[i].exists && st->fmt[i].mode == mode)
			return i;
	return 0;
}

static void mrc_ctl_vcfg_from_nl(const struct mrc_nl_profile *p,
				 uint8_t *cfg)
{
	memset(cfg, 0, MRC_CTL_MAX_VENDOR_CFG_SIZE);
	if (p->is_default)
		cfg[0] |= MRC_CTL_LIB_VCFG_DEFAULT;
	if (p->has_peer) {
		cfg[0] |= MRC_CTL_LIB_VCFG_PEER;
		memcpy(cfg + MRC_CTL_LIB_VCFG_PEER_OFFSET, p->peer,
		       sizeof(p->peer));
	}
}

/* Byte 0 flags, 16..31 the peer with the PEER flag; the rest zero. */
static bool mrc_ctl_vcfg_valid(const uint8_t *cfg)
{
	const uint8_t *peer = cfg + MRC_CTL_LIB_VCFG_PEER_OFFSET;

	if (cfg[0] & ~(MRC_CTL_LIB_VCFG_DEFAULT | MRC_CTL_LIB_VCFG_PEER))
		return false;
	if (!mrc_ctl_bytes_zero(cfg + 1, MRC_CTL_LIB_VCFG_PEER_OFFSET - 1) ||
	    !mrc_ctl_bytes_zero(peer + 16, MRC_CTL_MAX_VENDOR_CFG_SIZE -
			       MRC_CTL_LIB_VCFG_PEER_OFFSET - 16))
		return false;
	return (cfg[0] & MRC_CTL_LIB_VCFG_PEER) ||
	       mrc_ctl_bytes_zero(peer, 16);
}

static void mrc_ctl_staged_clear(struct mrc_ctl_ev_staged *s)
{
	free(s->evs);
	memset(s, 0, sizeof(*s));
}

/* The kernel's profile @k as this context's, ONLINE. */
static int mrc_ctl_staged_adopt(struct mrc_ctl_state *st,
				const struct mrc_ctl_kprofile *k,
				struct mrc_ctl_ev_staged *s)
{
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->exists = true;
	s->state = MRC_CTL_PROFILE_ONLINE;
	s->fmt_id = mrc_ctl_fmt_id_for(st, k->p.format);
	s->min_active = k->p.min_active;
	s->event_mask = mrc_ctl_event_mask_from_nl(k->p.event_mask);
	mrc_ctl_vcfg_from_nl(&k->p, s->vendor_cfg);
	if (k->p.mode == MRC_NL_MODE_GENERATED) {
		s->mode = MRC_CTL_EV_MODE_GEN;
		s->num_fields = k->p.num_fields;
		for (i = 0; i < k->p.num_fields; i++) {
			const struct mrc_nl_field *f = &k->p.fields[i];

			s->fields[i] = (struct mrc_ctl_ev_field){
				f->width, f->init, f->min, f->max, f->mask,
			};
		}
		return 0;
	}
	s->mode = MRC_CTL_EV_MODE_EXP;
	s->count = k->p.num_evs;
	s->evs = calloc(s->count ? s->count : 1, sizeof(*s->evs));
	if (!s->evs)
		return ENOMEM;
	for (i = 0; i < s->count; i++)
		mrc_ctl_ev_from_nl(&k->evs[i], k->p.format, &s->evs[i]);
	return 0;
}

/* A copy of @from whose EV array is its own. */
static int mrc_ctl_staged_copy(const struct mrc_ctl_ev_staged *from,
			       struct mrc_ctl_ev_staged *to)
{
	*to = *from;
	to->evs = NULL;
	if (!from->evs)
		return 0;
	to->evs = calloc(from->count ? from->count : 1, sizeof(*to->evs));
	if (!to->evs)
		return ENOMEM;
	memcpy(to->evs, from->evs, from->count * sizeof(*to->evs));
	return 0;
}

static int mrc_ctl_set_count(struct mrc_ctl_ev_staged *s, uint32_t count)
{
	struct mrc_ctl_ev *evs;

	if (count < 1 || count > MRC_NL_MAX_EVS ||
	    s->mode == MRC_CTL_EV_MODE_GEN)
		return EINVAL;
	evs = calloc(count, sizeof(*evs));
	if (!evs)
		return ENOMEM;
	if (s->evs)
		memcpy(evs, s->evs,
		       (count < s->count ? count : s->count) * sizeof(*evs));
	free(s->evs);
	s->evs = evs;
	s->count = count;
	return 0;
}

static int mrc_ctl_replace_evs(struct mrc_ctl_ev_staged *s,
			       const struct mrc_ctl_ev_op_entry *e, int n)
{
	uint32_t i;
	int k;

	if (s->mode != MRC_CTL_EV_MODE_EXP || !s->evs)
		return EINVAL;
	for (k = 0; k < n; k++) {
		bool all = e[k].flags & MRC_CTL_EV_OP_F_ALL_COPIES;
		bool done = false;

		if (e[k].flags & ~MRC_CTL_EV_OP_F_ALL_COPIES)
			return EINVAL;
		for (i = 0; i < s->count && (all || !done); i++) {
			if (!mrc_ctl_ev_equal(&s->evs[i], &e[k].ev))
				continue;
			s->evs[i] = e[k].ev_new;
			done = true;
		}
		if (!done)
			return ENOENT;
	}
	return 0;
}

static int mrc_ctl_set_fields(struct mrc_ctl_ev_staged *s,
			      const struct mrc_ctl_ev_field *f, int n)
{
	int i;

	if (!f || n < 1 || n > MRC_NL_MAX_FIELDS)
		return EINVAL;
	for (i = 0; i < n; i++)
		if (f[i].width < 1 || f[i].width > 32)
			return EINVAL;
	memcpy(s->fields, f, n * sizeof(*f));
	s->num_fields = n;
	return 0;
}

/* The configuration the attributes in @mask give, into @s; an errno. */
static int mrc_ctl_ev_configure(struct mrc_ctl_state *st,
				struct mrc_ctl_ev_staged *s,
				const struct mrc_ctl_ev_profile_attr *attr,
				int mask)
{
	int err;

	if (mask & MRC_CTL_EV_PROFILE_MODE) {
		if (attr->ev_mode == MRC_CTL_EV_MODE_AUTO)
			return EOPNOTSUPP;
		if (attr->ev_mode != MRC_CTL_EV_MODE_EXP &&
		    attr->ev_mode != MRC_CTL_EV_MODE_GEN)
			return EINVAL;
		if (attr->ev_mode == MRC_CTL_EV_MODE_GEN && s->evs) {
			free(s->evs);
			s->evs = NULL;
			s->count = 0;
		}
		s->mode = attr->ev_mode;
	}
	if (mask & MRC_CTL_EV_PROFILE_FMT_ID) {
		uint64_t id = attr->ev_fmt_profile_id;

		if (id < MRC_CTL_LIB_ID_MIN || id > MRC_CTL_LIB_ID_MAX)
			return EINVAL;
		if (!st->fmt[id].exists)
			return ENOENT;
		if (!st->fmt[id].mode ||
		    st->fmt[id].state == MRC_CTL_PROFILE_INIT)
			return EINVAL;
		s->fmt_id = id;
	}
	if (mask & MRC_CTL_EV_PROFILE_COUNT) {
		err = mrc_ctl_set_count(s, attr->ev_count);
		if (err)
			return err;
	}
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE) {
		if (attr->ev_min_active > MRC_NL_MAX_EVS)
			return EINVAL;
		s->min_active = attr->ev_min_active;
	}
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK) {
		uint32_t unused;

		err = mrc_ctl_event_mask_to_nl(attr->ev_event_mask, &unused);
		if (err)
			return err;
		s->event_mask = attr->ev_event_mask;
	}
	if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) {
		if (attr->ev_fields_op.op != MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS ||
		    s->mode != MRC_CTL_EV_MODE_GEN)
			return EINVAL;
		err = mrc_ctl_set_fields(s, attr->ev_fields_op.fields,
					 attr->ev_fields_op.field_count);
		if (err)
			return err;
	}
	if (mask & MRC_CTL_EV_PROFILE_VENDOR_CFG) {
		if (!mrc_ctl_vcfg_valid(attr->vendor_cfg))
			return EINVAL;
		memcpy(s->vendor_cfg, attr->vendor_cfg, sizeof(s->vendor_cfg));
	}
	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op == MRC_CTL_EV_OP_REPLACE_EV) {
		if (!attr->ev_op.entries || attr->ev_op.entry_count < 1)
			return EINVAL;
		err = mrc_ctl_replace_evs(s, attr->ev_op.entries,
					  attr->ev_op.entry_count);
		if (err)
			return err;
	}
	return 0;
}

/*
 * @s as a kernel profile @id on a device of @planes planes; fills @p and
 * its EV array @evs.
 */
static int mrc_ctl_ev_to_kernel(const struct mrc_ctl_state *st, uint32_t id,
				const struct mrc_ctl_ev_staged *s,
				uint32_t planes, struct mrc_nl_profile *p,
				struct mrc_nl_ev **evs)
{
	uint32_t i;
	int err;

	memset(p, 0, sizeof(*p));
	*evs = NULL;
	if (!s->mode || !s->fmt_id || !st->fmt[s->fmt_id].exists ||
	    !st->fmt[s->fmt_id].mode)
		return EINVAL;
	err = mrc_ctl_fmt_to_nl(st->fmt[s->fmt_id].mode, &p->format);
	if (err)
		return err;
	p->id = id;
	p->min_active = s->min_active ? s->min_active : 1;
	mrc_ctl_event_mask_to_nl(s->event_mask, &p->event_mask);
	p->replace = true;
	p->is_default = s->vendor_cfg[0] & MRC_CTL_LIB_VCFG_DEFAULT;
	p->has_peer = s->vendor_cfg[0] & MRC_CTL_LIB_VCFG_PEER;
	memcpy(p->peer, s->vendor_cfg + MRC_CTL_LIB_VCFG_PEER_OFFSET,
	       sizeof(p->peer));
	if (s->mode == MRC_CTL_EV_MODE_GEN) {
		if (!s->num_fields)
			return EINVAL;
		p->mode = MRC_NL_MODE_GENERATED;
		p->plane_mask = (1u << planes) - 1;
		p->num_fields = s->num_fields;
		for (i = 0; i < s->num_fields; i++) {
			const struct mrc_ctl_ev_field *f = &s->fields[i];

			p->fields[i] = (struct mrc_nl_field){
				f->width, f->init_val, f->min_val, f->max_val,
				f->mask,
			};
		}
		return 0;
	}
	if (!s->count || !s->evs)
		return EINVAL;
	*evs = calloc(s->count, sizeof(**evs));
	if (!*evs)
		return ENOMEM;
	p->mode = MRC_NL_MODE_EXPLICIT;
	p->num_evs = s->count;
	p->evs = *evs;
	for (i = 0; i < s->count; i++) {
		/* An unpopulated slot fails here: its port is 0. */
		err = mrc_ctl_ev_to_nl(&s->evs[i], p->format, &(*evs)[i]);
		if (err) {
			free(*evs);
			*evs = NULL;
			return err;
		}
	}
	return 0;
}

/* Moves @s from its state to @to, publishing or withdrawing it. */
static int mrc_ctl_ev_move(struct mrc_ctl_state *st, uint32_t id,
			   struct mrc_ctl_ev_staged *s,
			   enum mrc_ctl_profile_state to)
{
	struct mrc_nl_profile p;
	struct mrc_nl_ev *evs;
	struct mrc_nl_dev d;
	int err;

	if (!mrc_ctl_profile_move_ok(s->state, to))
		return EINVAL;
	if (to == s->state)
		return 0;
	switch (to) {
	case MRC_CTL_PROFILE_OFFLINE:
		if (s->state == MRC_CTL_PROFILE_ONLINE) {
			err = mrc_nl_profile_del(st->nl, st->dev, id);
			/* Already withdrawn by another controller: fine. */
			if (err && err != ENOENT)
				return err;
			break;
		}
		/* Complete: everything ONLINE needs is there. */
		err = mrc_ctl_ev_to_kernel(st, id, s, 1, &p, &evs);
		free(evs);
		if (err)
			return err;
		break;
	case MRC_CTL_PROFILE_ONLINE:
		/* A generated profile runs on every plane of the device. */
		d.num_planes = 1;
		if (s->mode == MRC_CTL_EV_MODE_GEN) {
			err = mrc_nl_dev_get(st->nl, st->dev, &d);
			if (err)
				return err;
			if (!d.num_planes || d.num_planes > MRC_NL_MAX_PLANES)
				return ENODEV;
		}
		err = mrc_ctl_ev_to_kernel(st, id, s, d.num_planes, &p, &evs);
		if (!err)
			err = mrc_nl_profile_new(st->nl, st->dev, &p);
		free(evs);
		if (err)
			return err;
		break;
	case MRC_CTL_PROFILE_INIT:
		free(s->evs);
		memset(s, 0, sizeof(*s));
		s->exists = true;
		break;
	}
	s->state = to;
	return 0;
}

/* Sets the state of each EV named in @e (all named EVs are checked first). */
static int mrc_ctl_ev_set_states(struct mrc_ctl_state *st, uint32_t id,
				 const struct mrc_ctl_ev_op_entry *e, int n)
{
	struct mrc_ctl_kprofile k = { 0 };
	struct mrc_ctl_ev want;
	uint8_t *target = NULL;
	uint32_t i;
	bool found;
	int err, j;

	if (!e || n < 1)
		return EINVAL;
	for (j = 0; j < n; j++) {
		uint8_t s;

		err = mrc_ctl_state_to_nl(e[j].state, &s);
		if (err)
			return err;
		if (e[j].flags & ~MRC_CTL_EV_OP_F_ALL_COPIES)
			return EINVAL;
	}
	err = mrc_ctl_kprofile_find(st, id, &k.p, &found);
	if (!err && !found)
		err = ENOENT;
	if (!err)
		err = mrc_ctl_kprofile_evs(st, &k);
	if (!err) {
		/* 0: unchanged; else the kernel state + 1. */
		target = calloc(k.p.num_evs ? k.p.num_evs : 1, 1);
		if (!target)
			err = ENOMEM;
	}
	for (j = 0; !err && j < n; j++) {
		bool all = e[j].flags & MRC_CTL_EV_OP_F_ALL_COPIES;
		uint8_t s;

		mrc_ctl_state_to_nl(e[j].state, &s);
		found = false;
		for (i = 0; i < k.p.num_evs && (all || !found); i++) {
			mrc_ctl_ev_from_nl(&k.evs[i], k.p.format, &want);
			if (!mrc_ctl_ev_equal(&want, &e[j].ev))
				continue;
			target[i] = s + 1;
			found = true;
		}
		if (!found)
			err = ENOENT;
	}
	for (i = 0; !err && i < k.p.num_evs; i++) {
		struct mrc_nl_ev by_index = { .index = i };

		if (target[i])
			err = mrc_nl_ev_set(st->nl, st->dev, id, &by_index,
					    target[i] - 1);
	}
	free(target);
	free(k.evs);
	return err;
}

static int mrc_ctl_ev_modify(struct mrc_ctl_state *st, uint32_t id,
			     const struct mrc_ctl_ev_profile_attr *attr,
			     int mask)
{
	struct mrc_ctl_ev_staged *cur = &st->ev[id], next;
	struct mrc_ctl_kprofile k = { 0 };
	bool found = false, created = false;
	int err;

	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op != MRC_CTL_EV_OP_REPLACE_EV &&
	    attr->ev_op.op != MRC_CTL_EV_OP_MODIFY_EV_STATE)
		return EINVAL;

	if (!cur->exists) {
		err = mrc_ctl_kprofile_find(st, id, &k.p, &found);
		if (!err && found)
			err = mrc_ctl_kprofile_evs(st, &k);
		if (!err && found)
			err = mrc_ctl_staged_adopt(st, &k, cur);
		free(k.evs);
		if (err) {
			mrc_ctl_staged_clear(cur);
			return err;
		}
	}
	if (!cur->exists) {
		if (!(mask & MRC_CTL_EV_PROFILE_STATE) ||
		    attr->profile_state != MRC_CTL_PROFILE_INIT)
			return ENOENT;
		cur->exists = true;
		cur->state = MRC_CTL_PROFILE_INIT;
		created = true;
	}
	err = 0;
	if (cur->state == MRC_CTL_PROFILE_ONLINE &&
	    ((mask & MRC_CTL_EV_CONFIG) ||
	     ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	      attr->ev_op.op == MRC_CTL_EV_OP_REPLACE_EV)))
		err = EBUSY;
	else if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
		 attr->ev_op.op == MRC_CTL_EV_OP_MODIFY_EV_STATE &&
		 cur->state != MRC_CTL_PROFILE_ONLINE)
		err = EINVAL;
	if (err)
		goto fail;

	err = mrc_ctl_staged_copy(cur, &next);
	if (err)
		goto fail;
	err = mrc_ctl_ev_configure(st, &next, attr, mask);
	if (!err && (mask & MRC_CTL_EV_PROFILE_STATE))
		err = mrc_ctl_ev_move(st, id, &next, attr->profile_state);
	if (!err && (mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op == MRC_CTL_EV_OP_MODIFY_EV_STATE)
		err = mrc_ctl_ev_set_states(st, id, attr->ev_op.entries,
					    attr->ev_op.entry_count);
	if (err) {
		free(next.evs);
		goto fail;
	}
	free(cur->evs);
	*cur = next;
	return 0;
fail:
	/* A refused call creates nothing. */
	if (created)
		mrc_ctl_staged_clear(cur);
	return err;
}

MRC_EXPORT
int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask)
{
	struct mrc_ctl_state *st;
	int err;

	if (!attr || (attr_mask & ~MRC_CTL_EV_MASK) ||
	    (attr_mask & MRC_CTL_EV_PROFILE_CUR_STATE) ||
	    ev_profile_id < MRC_CTL_LIB_ID_MIN ||
	    ev_profile_id > MRC_CTL_LIB_ID_MAX)
		return mrc_fail(EINVAL);
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_ev_modify(st, ev_profile_id, attr, attr_mask);
	mrc_ctl_leave(st);
	return err ? mrc_fail(err) : 0;
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

/* Room for @needed entries in an array of @have; ENOSPC says how many. */
static int mrc_ctl_room(int *have, uint32_t needed, bool given)
{
	if (!given) {
		*have = needed;
		return 1;	/* the caller asked for the size only */
	}
	if ((uint32_t)*have < needed) {
		*have = needed;
		return -ENOSPC;
	}
	*have = needed;
	return 0;
}

static int mrc_ctl_query_evs(struct mrc_ctl_ev_profile_attr *attr,
			     const struct mrc_ctl_ev *evs,
			     const uint8_t *states, uint32_t count)
{
	struct mrc_ctl_ev_op_entry *e = attr->ev_op.entries;
	int n = attr->ev_op.entry_count, room, j;
	uint32_t i;

	if (n < 0 || (n && !e))
		return EINVAL;
	if (attr->ev_op.op == MRC_CTL_EV_OP_QUERY_EV_ARRAY) {
		room = mrc_ctl_room(&attr->ev_op.entry_count, count, n > 0);
		if (room)
			return room < 0 ? -room : 0;
		for (i = 0; i < count; i++) {
			memset(&e[i], 0, sizeof(e[i]));
			e[i].ev = evs[i];
			e[i].state = states ? mrc_ctl_state_from_nl(states[i]) :
					      MRC_CTL_EV_UNKNOWN;
		}
		return 0;
	}
	/* QUERY_EV_STATE: the state of each EV named. */
	if (!n)
		return EINVAL;
	for (j = 0; j < n; j++) {
		for (i = 0; i < count; i++)
			if (mrc_ctl_ev_equal(&evs[i], &e[j].ev))
				break;
		if (i == count)
			return ENOENT;
		e[j].state = states ? mrc_ctl_state_from_nl(states[i]) :
				      MRC_CTL_EV_UNKNOWN;
	}
	return 0;
}

static int mrc_ctl_query_fields(struct mrc_ctl_ev_profile_attr *attr,
				const struct mrc_ctl_ev_staged *s)
{
	int n = attr->ev_fields_op.field_count, room;

	if (attr->ev_fields_op.op != MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS ||
	    n < 0 || (n && !attr->ev_fields_op.fields))
		return EINVAL;
	room = mrc_ctl_room(&attr->ev_fields_op.field_count, s->num_fields,
			    n > 0);
	if (room)
		return room < 0 ? -room : 0;
	memcpy(attr->ev_fields_op.fields, s->fields,
	       s->num_fields * sizeof(s->fields[0]));
	return 0;
}

static int mrc_ctl_ev_query(struct mrc_ctl_state *st, uint32_t id,
			    struct mrc_ctl_ev_profile_attr *attr, int mask)
{
	const struct mrc_ctl_ev_staged *cur = &st->ev[id];
	struct mrc_ctl_kprofile k = { 0 };
	struct mrc_ctl_ev_staged view = { 0 };
	const struct mrc_ctl_ev_staged *s = cur;
	uint8_t *states = NULL;
	bool found = false;
	uint32_t i;
	int err;

	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op != MRC_CTL_EV_OP_QUERY_EV_STATE &&
	    attr->ev_op.op != MRC_CTL_EV_OP_QUERY_EV_ARRAY)
		return EINVAL;
	/* ONLINE, or unknown here: the kernel's copy is the truth. */
	if (!cur->exists || cur->state == MRC_CTL_PROFILE_ONLINE) {
		err = mrc_ctl_kprofile_find(st, id, &k.p, &found);
		if (err)
			return err;
	}
	if (found) {
		err = mrc_ctl_kprofile_evs(st, &k);
		if (!err && (mask & MRC_CTL_EV_PROFILE_EV_OP))
			err = mrc_ctl_kprofile_retired(st, &k);
		if (!err)
			err = mrc_ctl_staged_adopt(st, &k, &view);
		if (!err && cur->exists)
			view.fmt_id = cur->fmt_id;
		if (!err && k.p.num_evs) {
			states = malloc(k.p.num_evs);
			if (!states)
				err = ENOMEM;
		}
		for (i = 0; !err && i < k.p.num_evs; i++)
			states[i] = k.evs[i].state;
		/* A generated profile's EVs, as expanded by the kernel. */
		if (!err && view.mode == MRC_CTL_EV_MODE_GEN) {
			view.count = k.p.num_evs;
			view.evs = calloc(view.count ? view.count : 1,
					  sizeof(*view.evs));
			if (!view.evs)
				err = ENOMEM;
			for (i = 0; !err && i < view.count; i++)
				mrc_ctl_ev_from_nl(&k.evs[i], k.p.format,
						   &view.evs[i]);
		}
		free(k.evs);
		if (err)
			goto out;
		s = &view;
	} else if (!cur->exists) {
		return ENOENT;
	}

	err = 0;
	if (mask & MRC_CTL_EV_PROFILE_EV_OP)
		err = mrc_ctl_query_evs(attr, s->evs, states, s->count);
	if (!err && (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP))
		err = mrc_ctl_query_fields(attr, s);
	if (err)
		goto out;
	if (mask & MRC_CTL_EV_PROFILE_STATE)
		attr->profile_state = s->state;
	if (mask & MRC_CTL_EV_PROFILE_CUR_STATE)
		attr->cur_profile_state = s->state;
	if (mask & MRC_CTL_EV_PROFILE_MODE)
		attr->ev_mode = s->mode;
	if (mask & MRC_CTL_EV_PROFILE_FMT_ID)
		attr->ev_fmt_profile_id = s->fmt_id;
	if (mask & MRC_CTL_EV_PROFILE_COUNT)
		attr->ev_count = s->count;
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		attr->ev_min_active = s->min_active;
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		attr->ev_event_mask = s->event_mask;
	if (mask & MRC_CTL_EV_PROFILE_VENDOR_CFG)
		memcpy(attr->vendor_cfg, s->vendor_cfg,
		       sizeof(attr->vendor_cfg));
out:
	free(states);
	free(view.evs);
	return err;
}

MRC_EXPORT
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr,
			     int attr_mask)
{
	struct mrc_ctl_state *st;
	int err;

	if (!attr || (attr_mask & ~MRC_CTL_EV_MASK) ||
	    ev_profile_id < MRC_CTL_LIB_ID_MIN ||
	    ev_profile_id > MRC_CTL_LIB_ID_MAX)
		return mrc_fail(EINVAL);
	err = mrc_ctl_enter(mrc_ctx, &st);
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_ev_query(st, ev_profile_id, attr, attr_mask);
	mrc_ctl_leave(st);
	return err ? mrc_fail(err) : 0;
}
