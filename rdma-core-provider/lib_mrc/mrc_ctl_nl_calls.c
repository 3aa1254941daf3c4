// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: each command of the "mrc" generic netlink family as one call
 * (mrc_ctl_nl.h): its request built, sent, and its answer decoded. The
 * controller API's files and mrcctl call these; the unit tests run them
 * over a scripted socket (tests/fake_nl.c).
 */
#include <errno.h>
#include <string.h>

#include "mrc_ctl_nl.h"

/*
 * A name the kernel cannot hold (its policy caps DEV and PRESET) is
 * refused as the kernel would refuse it, before it is built into a
 * request: an unbounded string would not fit nl->buf.
 */
static int mrc_nl_name_ok(const char *name, size_t max)
{
	return name && strnlen(name, max) < max ? 0 : EINVAL;
}

static int mrc_nl_dev_ok(const char *dev)
{
	return mrc_nl_name_ok(dev, MRC_NL_NAME_MAX);
}

/* Refused here: no kernel message goes with it. */
static int mrc_nl_refuse(struct mrc_nl *nl)
{
	nl->why[0] = '\0';
	return EINVAL;
}

/*
 * A dump's messages, each decoded and handed to the caller's callback of
 * the dump's kind; a callback's errno ends the dump.
 */
struct mrc_nl_walk {
	enum { MRC_NL_WALK_DEV, MRC_NL_WALK_PROFILE, MRC_NL_WALK_EV,
	       MRC_NL_WALK_PATH, MRC_NL_WALK_PLANE } kind;
	union {
		int (*dev)(const struct mrc_nl_dev *d, void *arg);
		int (*profile)(const struct mrc_nl_profile *p, void *arg);
		int (*ev)(const struct mrc_nl_ev *ev, void *arg);
		int (*path)(const struct mrc_nl_path *path, void *arg);
		int (*plane)(const struct mrc_nl_plane *plane, void *arg);
	} cb;
	void *arg;
};

static int mrc_nl_walk_one(const struct nlmsghdr *nlh, void *data)
{
	const struct mrc_nl_walk *walk = data;
	union {
		struct mrc_nl_dev dev;
		struct mrc_nl_profile profile;
		struct mrc_nl_ev ev;
		struct mrc_nl_path path;
		struct mrc_nl_plane plane;
	} u;
	uint32_t id;
	int err;

	switch (walk->kind) {
	case MRC_NL_WALK_DEV:
		err = mrc_nl_decode_dev(nlh, &u.dev);
		if (!err)
			err = walk->cb.dev(&u.dev, walk->arg);
		break;
	case MRC_NL_WALK_PROFILE:
		err = mrc_nl_decode_profile(nlh, &u.profile);
		if (!err)
			err = walk->cb.profile(&u.profile, walk->arg);
		break;
	case MRC_NL_WALK_EV:
		err = mrc_nl_decode_ev(nlh, &id, &u.ev);
		if (!err)
			err = walk->cb.ev(&u.ev, walk->arg);
		break;
	case MRC_NL_WALK_PATH:
		err = mrc_nl_decode_path(nlh, &u.path);
		if (!err)
			err = walk->cb.path(&u.path, walk->arg);
		break;
	default:
		err = mrc_nl_decode_plane(nlh, &u.plane);
		if (!err)
			err = walk->cb.plane(&u.plane, walk->arg);
	}
	if (!err)
		return MNL_CB_OK;
	errno = err;
	return MNL_CB_ERROR;
}

int mrc_nl_dev_get(struct mrc_nl *nl, const char *dev, struct mrc_nl_dev *d)
{
	memset(d, 0, sizeof(*d));
	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_dev_get(nl, dev), mrc_nl_parse_dev,
			   d);
}

int mrc_nl_dev_list(struct mrc_nl *nl, const char *dev,
		    int (*cb)(const struct mrc_nl_dev *d, void *arg),
		    void *arg)
{
	struct mrc_nl_walk walk = {
		.kind = MRC_NL_WALK_DEV, .cb.dev = cb, .arg = arg,
	};

	if (dev && mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_dev_get(nl, dev), mrc_nl_walk_one,
			   &walk);
}

int mrc_nl_dev_set(struct mrc_nl *nl, const char *dev,
		   const struct mrc_nl_dev_set *set)
{
	if (mrc_nl_dev_ok(dev) ||
	    ((set->has & MRC_NL_DEV_PRESET) &&
	     mrc_nl_name_ok(set->preset, MRC_NL_PRESET_MAX)))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_dev_set(nl, dev, set), NULL, NULL);
}

int mrc_nl_profile_new(struct mrc_nl *nl, const char *dev,
		       const struct mrc_nl_profile *p)
{
	/* Within the kernel's bounds, the request fits nl->buf. */
	if (mrc_nl_dev_ok(dev) || p->num_fields > MRC_NL_MAX_FIELDS ||
	    (p->mode == MRC_NL_MODE_EXPLICIT &&
	     (p->num_evs > MRC_NL_MAX_EVS || (p->num_evs && !p->evs))))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_profile_new(nl, dev, p), NULL,
			   NULL);
}

int mrc_nl_profile_del(struct mrc_nl *nl, const char *dev, uint32_t id)
{
	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_profile_del(nl, dev, id), NULL,
			   NULL);
}

int mrc_nl_profile_list(struct mrc_nl *nl, const char *dev,
			int (*cb)(const struct mrc_nl_profile *p, void *arg),
			void *arg)
{
	struct mrc_nl_walk walk = {
		.kind = MRC_NL_WALK_PROFILE, .cb.profile = cb, .arg = arg,
	};

	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_profile_dump(nl, dev),
			   mrc_nl_walk_one, &walk);
}

int mrc_nl_ev_list(struct mrc_nl *nl, const char *dev, uint32_t id,
		   int (*cb)(const struct mrc_nl_ev *ev, void *arg),
		   void *arg)
{
	struct mrc_nl_walk walk = {
		.kind = MRC_NL_WALK_EV, .cb.ev = cb, .arg = arg,
	};

	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_ev_dump(nl, dev, id),
			   mrc_nl_walk_one, &walk);
}

int mrc_nl_ev_set(struct mrc_nl *nl, const char *dev, uint32_t id,
		  const struct mrc_nl_ev *ev, uint8_t state)
{
	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_ev_set(nl, dev, id, ev, state),
			   NULL, NULL);
}

int mrc_nl_path_list(struct mrc_nl *nl, const char *dev, const uint8_t *peer,
		     int (*cb)(const struct mrc_nl_path *path, void *arg),
		     void *arg)
{
	struct mrc_nl_walk walk = {
		.kind = MRC_NL_WALK_PATH, .cb.path = cb, .arg = arg,
	};

	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_path_dump(nl, dev, peer),
			   mrc_nl_walk_one, &walk);
}

int mrc_nl_plane_list(struct mrc_nl *nl, const char *dev,
		      int (*cb)(const struct mrc_nl_plane *plane, void *arg),
		      void *arg)
{
	struct mrc_nl_walk walk = {
		.kind = MRC_NL_WALK_PLANE, .cb.plane = cb, .arg = arg,
	};

	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_plane_dump(nl, dev),
			   mrc_nl_walk_one, &walk);
}

int mrc_nl_cc_get(struct mrc_nl *nl, const char *dev,
		  struct mrc_nl_cc_state *st)
{
	memset(st, 0, sizeof(*st));
	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_cc_get(nl, dev), mrc_nl_parse_cc,
			   st);
}

int mrc_nl_cc_set(struct mrc_nl *nl, const char *dev,
		  const struct mrc_nl_cc *cc, int enabled, bool reset)
{
	if (mrc_nl_dev_ok(dev))
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_cc_set(nl, dev, cc, enabled, reset),
			   NULL, NULL);
}

struct mrc_nl_ep_answer {
	struct mrc_nl_ep_rsp *rsp;
	uint32_t cap;
	uint32_t *num;
};

static int mrc_nl_parse_ep_probe(const struct nlmsghdr *nlh, void *data)
{
	const struct mrc_nl_ep_answer *a = data;
	int err = mrc_nl_decode_ep_probe(nlh, a->rsp, a->cap, a->num);

	if (!err)
		return MNL_CB_OK;
	errno = err;
	return MNL_CB_ERROR;
}

int mrc_nl_ep_probe(struct mrc_nl *nl, const char *dev,
		    const struct mrc_nl_ep_req *reqs, uint32_t num,
		    struct mrc_nl_ep_rsp *rsp, uint32_t *num_rsp)
{
	struct mrc_nl_ep_answer a = { rsp, num, num_rsp };

	*num_rsp = 0;
	if (mrc_nl_dev_ok(dev) || !num || num > MRC_NL_EP_MAX_REQS)
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_ep_probe(nl, dev, reqs, num),
			   mrc_nl_parse_ep_probe, &a);
}

int mrc_nl_ep_port_status(struct mrc_nl *nl, const char *dev,
			  const struct mrc_nl_ep_req *reqs, uint32_t num,
			  struct mrc_nl_ep_rsp *rsp, uint32_t *num_rsp)
{
	struct mrc_nl_ep_answer a = { rsp, num, num_rsp };

	*num_rsp = 0;
	if (mrc_nl_dev_ok(dev) || !num || num > MRC_NL_EP_MAX_REQS)
		return mrc_nl_refuse(nl);
	return mrc_nl_talk(nl, mrc_nl_req_ep_port_status(nl, dev, reqs, num),
			   mrc_nl_parse_ep_probe, &a);
}
