// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RTT samples split at the packet's departure (mrc_departure.h).
 */
#include "mrc_departure.h"

#define MRC_DEPARTURE_VALID	((u64)1 << 63)

u64 mrc_departure_record(u32 psn, u32 left_us)
{
	return MRC_DEPARTURE_VALID | (u64)mrc_psn(psn) << 32 | left_us;
}

bool mrc_departure_wait(u64 record, u32 psn, u64 sent_at, u64 rtt,
			u64 *wait)
{
	u32 waited;

	if (!(record & MRC_DEPARTURE_VALID) ||
	    mrc_psn((u32)(record >> 32)) != mrc_psn(psn))
		return false;
	/*
	 * Serial arithmetic on the clock's low 32 bits (71 minutes): a
	 * departure before the build wraps to a huge wait and is refused
	 * with one that came after the ACK.
	 */
	waited = (u32)record - (u32)sent_at;
	if (waited >= rtt)
		return false;
	*wait = waited;
	return true;
}

u64 mrc_departure_fabric_rtt(u64 record, u32 psn, u64 sent_at, u64 rtt)
{
	u64 wait;

	if (!mrc_departure_wait(record, psn, sent_at, rtt, &wait))
		return rtt;
	return rtt - wait;
}
