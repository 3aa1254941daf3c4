// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the mrc provider's entry (../mrc_provider_api.h). libibverbs
 * loaded the provider itself, privately (RTLD_LOCAL), so its symbols are
 * not in the global scope: the object is found by an address inside it,
 * the context's post_send, which libibverbs set from the provider's ops.
 * The versioned lookup makes sure the function is the one of this ABI,
 * not something of the same name elsewhere.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "mrc_lib.h"

mrc_provider_modify_qp_mrc_fn mrc_provider_get(struct ibv_context *vctx,
						void **handle)
{
	mrc_provider_modify_qp_mrc_fn fn;
	Dl_info info;
	void *h;

	*handle = NULL;
	if (!vctx->ops.post_send ||
	    !dladdr((void *)vctx->ops.post_send, &info) || !info.dli_fname)
		return NULL;
	/* Already loaded by libibverbs: this only takes a reference. */
	h = dlopen(info.dli_fname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
	if (!h)
		return NULL;
	fn = (mrc_provider_modify_qp_mrc_fn)dlvsym(h, MRC_PROVIDER_MODIFY_QP_MRC,
						   MRC_PROVIDER_MODIFY_QP_MRC_VERSION);
	if (!fn) {
		dlclose(h);
		return NULL;
	}
	*handle = h;
	return fn;
}

void mrc_provider_put(void *handle)
{
	if (handle)
		dlclose(handle);
}
