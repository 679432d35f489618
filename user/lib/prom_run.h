/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics every Prometheus report starts with: which run it is and on
 * what machine (tscprobe_run_info), how long it took, and the TSC rate.
 */
#ifndef TSCPROBE_USER_PROM_RUN_H
#define TSCPROBE_USER_PROM_RUN_H

#include <stdio.h>

#include "result.h"

void tp_prom_run(const struct tp_result *r, FILE *f);

#endif /* TSCPROBE_USER_PROM_RUN_H */
