/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a device must do as soon as its unregistration begins, long before
 * dealloc_driver: ib_core's clients, sysfs and the GID cache are torn
 * down in between, which takes seconds on a slow or debug kernel.
 */
#ifndef MRC_REMOVAL_H
#define MRC_REMOVAL_H

/* Module init, before any device can be created. */
int mrc_removal_init(void);
/* Module exit, after every device is unregistered. */
void mrc_removal_exit(void);

#endif /* MRC_REMOVAL_H */
