// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the API version rules. The library implements application API
 * MRC_API_CURRENT_VERSION and still serves programs written for versions
 * down to MRC_API_LAST_SUPPORTED_VERSION; the vendor API has its own range.
 * A program that states no version (0) or MRC_API_VER_LATEST gets the
 * current one; one written for a newer version than the library's, or an
 * older one than it still supports, is refused: the library cannot know
 * what that program expects (Documentation/mrc-api.rst).
 */
#include <stddef.h>

#include "mrc_lib.h"

MRC_EXPORT
void mrc_query_version(uint32_t *current_version,
		       uint32_t *last_supported_version,
		       uint32_t *vendor_version,
		       uint32_t *last_supported_vendor_version)
{
	if (current_version)
		*current_version = MRC_API_CURRENT_VERSION;
	if (last_supported_version)
		*last_supported_version = MRC_API_LAST_SUPPORTED_VERSION;
	if (vendor_version)
		*vendor_version = MRC_VENDOR_API_CURRENT_VERSION;
	if (last_supported_vendor_version)
		*last_supported_vendor_version =
			MRC_VENDOR_API_LAST_SUPPORTED_VERSION;
}

/* 0, or ENOTSUP for a version outside [oldest, current]. */
int mrc_check_version(uint32_t used, uint32_t current, uint32_t oldest,
		      uint32_t *chosen)
{
	if (used == 0 || used == (uint32_t)MRC_API_VER_LATEST) {
		*chosen = current;
		return 0;
	}
	if (used > current || used < oldest)
		return ENOTSUP;
	*chosen = used;
	return 0;
}
