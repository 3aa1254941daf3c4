// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: a context's controller state, made by its first controller call
 * (a program that never calls mrc_ctl_*() opens no netlink socket) and
 * freed with the context. Every controller call enters through
 * mrc_ctl_enter(): the capability check, then the state, locked.
 */
#include <stdlib.h>
#include <string.h>

#include "mrc_ctl_lib.h"

void mrc_ctl_state_free(struct mrc_ctl_state *st)
{
	int id;

	if (!st)
		return;
	for (id = 0; id <= MRC_CTL_LIB_ID_MAX; id++)
		free(st->ev[id].evs);
	mrc_nl_close(st->nl);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

static int mrc_ctl_state_new(struct mrc_context *ctx,
			     struct mrc_ctl_state **out)
{
	const char *name = ibv_get_device_name(ctx->vctx->device);
	struct mrc_ctl_state *st;
	int err;

	if (!name || strlen(name) >= sizeof(st->dev))
		return ENODEV;
	st = calloc(1, sizeof(*st));
	if (!st)
		return ENOMEM;
	err = mrc_nl_open(&st->nl);
	if (err) {
		free(st);
		/* No "mrc" family: the module is not loaded. */
		return err == ENOENT ? ENODEV : err;
	}
	strcpy(st->dev, name);
	pthread_mutex_init(&st->lock, NULL);
	*out = st;
	return 0;
}

int mrc_ctl_enter(struct mrc_context *ctx, struct mrc_ctl_state **out)
{
	int err = 0;

	if (!ctx)
		return EINVAL;
	if (!mrc_ctl_capable())
		return EPERM;
	pthread_mutex_lock(&ctx->lock);
	if (!ctx->ctl)
		err = mrc_ctl_state_new(ctx, &ctx->ctl);
	pthread_mutex_unlock(&ctx->lock);
	if (err)
		return err;
	pthread_mutex_lock(&ctx->ctl->lock);
	*out = ctx->ctl;
	return 0;
}

void mrc_ctl_leave(struct mrc_ctl_state *st)
{
	pthread_mutex_unlock(&st->lock);
}

bool mrc_ctl_bytes_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * Every kind of profile: INIT -> OFFLINE, OFFLINE -> ONLINE or INIT,
 * ONLINE -> OFFLINE, or where it is.
 */
bool mrc_ctl_profile_move_ok(enum mrc_ctl_profile_state from,
			     enum mrc_ctl_profile_state to)
{
	if (to != MRC_CTL_PROFILE_INIT && to != MRC_CTL_PROFILE_OFFLINE &&
	    to != MRC_CTL_PROFILE_ONLINE)
		return false;
	return from == to || from == MRC_CTL_PROFILE_OFFLINE ||
	       (from == MRC_CTL_PROFILE_INIT && to == MRC_CTL_PROFILE_OFFLINE) ||
	       (from == MRC_CTL_PROFILE_ONLINE && to == MRC_CTL_PROFILE_OFFLINE);
}
