/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the contract's enumerations, shared by the module's debugfs views
 * and the CLI, so that a word means the same thing in both.
 */
#ifndef TSCPROBE_CORE_NAMES_H
#define TSCPROBE_CORE_NAMES_H

#include <linux/tscprobe.h>
#include "host.h"

const char *tp_kind_name(unsigned int kind);
const char *tp_state_name(unsigned int state);
const char *tp_stop_reason_name(unsigned int reason);
const char *tp_clock_name(unsigned int clock);
const char *tp_irqs_name(unsigned int irqs);
const char *tp_series_name(unsigned int series);
const char *tp_relation_name(unsigned int relation);
const char *tp_pair_status_name(unsigned int status);
const char *tp_feature_name(unsigned int bit);
const char *tp_attr_name(unsigned int type);
const char *tp_cause_name(unsigned int cause);
const char *tp_source_name(unsigned int source);
const char *tp_tsc_sync_name(unsigned int sync);
const char *tp_smi_source_name(unsigned int source);

/* Number of TSCPROBE_FEAT_* bits that have a name. */
#define TP_FEATURE_BITS	12

int tp_name_lookup(const char *(*name_of)(unsigned int), unsigned int max,
		   const char *name);

#endif /* TSCPROBE_CORE_NAMES_H */
