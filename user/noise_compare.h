/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise --compare, below the noise command that parses it: the module with
 * interrupts off, with them on, and the userspace engine, side by side.
 */
#ifndef TSCPROBE_USER_NOISE_COMPARE_H
#define TSCPROBE_USER_NOISE_COMPARE_H

#include "user/lib/format.h"
#include "user/lib/module_run.h"

int tp_noise_compare(const struct tp_start *kernel,
		     const struct tp_output *out);

#endif /* TSCPROBE_USER_NOISE_COMPARE_H */
