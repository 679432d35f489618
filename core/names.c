// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the contract's enumerations.  An unknown value yields "?" rather
 * than NULL so that callers can print whatever a newer module sends.
 */
#include "names.h"

static const char *tp_pick(const char *const *names, unsigned int n,
			   unsigned int i)
{
	return i < n && names[i] ? names[i] : "?";
}

static const char *const tp_kinds[] = {
	[TSCPROBE_KIND_NONE] = "none",
	[TSCPROBE_KIND_NOISE] = "noise",
	[TSCPROBE_KIND_CACHE] = "cache",
	[TSCPROBE_KIND_SKEW] = "skew",
};

static const char *const tp_states[] = {
	[TSCPROBE_STATE_IDLE] = "idle",
	[TSCPROBE_STATE_RUNNING] = "running",
	[TSCPROBE_STATE_DONE] = "done",
	[TSCPROBE_STATE_STOPPED] = "stopped",
};

static const char *const tp_stop_reasons[] = {
	[TSCPROBE_STOP_NONE] = "none",
	[TSCPROBE_STOP_COMPLETED] = "completed",
	[TSCPROBE_STOP_REQUESTED] = "stop requested",
	[TSCPROBE_STOP_HOTPLUG] = "cpus went offline",
	[TSCPROBE_STOP_UNLOAD] = "module unloaded",
	[TSCPROBE_STOP_THRESHOLD] = "threshold",
};

static const char *const tp_clocks[] = {
	[TSCPROBE_CLOCK_LFENCE] = "lfence",
	[TSCPROBE_CLOCK_RDTSCP] = "rdtscp",
	[TSCPROBE_CLOCK_MFENCE] = "mfence",
	[TSCPROBE_CLOCK_PLAIN] = "plain",
};

static const char *const tp_irqs[] = {
	[TSCPROBE_IRQS_OFF] = "off",
	[TSCPROBE_IRQS_ON] = "on",
};

static const char *const tp_series[] = {
	[TSCPROBE_SERIES_NONE] = "none",
	[TSCPROBE_SERIES_GAP] = "gap",
	[TSCPROBE_SERIES_OVERHEAD] = "overhead",
	[TSCPROBE_SERIES_CACHED] = "cached",
	[TSCPROBE_SERIES_UNCACHED] = "uncached",
};

static const char *const tp_relations[] = {
	[TSCPROBE_REL_UNKNOWN] = "unknown",
	[TSCPROBE_REL_SMT] = "smt",
	[TSCPROBE_REL_PACKAGE] = "package",
	[TSCPROBE_REL_OTHER_PACKAGE] = "other-package",
	[TSCPROBE_REL_OTHER_NODE] = "other-node",
};

static const char *const tp_pair_statuses[] = {
	[TSCPROBE_PAIR_OK] = "ok",
	[TSCPROBE_PAIR_TIMEOUT] = "timeout",
	[TSCPROBE_PAIR_OFFLINE] = "offline",
	[TSCPROBE_PAIR_SKIPPED] = "skipped",
};

/* Indexed by bit number of TSCPROBE_FEAT_*; the words of /proc/cpuinfo. */
static const char *const tp_features[TP_FEATURE_BITS] = {
	"constant_tsc", "nonstop_tsc", "tsc_known_freq", "tsc_reliable",
	"rdtscp", "clflush", "clflushopt", "invariant_tsc", "aperfmperf",
	"hypervisor", "smi_count", "smi_pmu",
};

/* Top-level attributes, as the JSON output and error messages call them. */
static const char *const tp_attrs[] = {
	[TSCPROBE_A_PAD] = "pad",
	[TSCPROBE_A_VERSION] = "version",
	[TSCPROBE_A_TSC_KHZ] = "tsc_khz",
	[TSCPROBE_A_NR_CPU_IDS] = "nr_cpu_ids",
	[TSCPROBE_A_CPUS_ONLINE] = "cpus_online",
	[TSCPROBE_A_FEATURES] = "features",
	[TSCPROBE_A_KINDS] = "kinds",
	[TSCPROBE_A_STATE] = "state",
	[TSCPROBE_A_KIND] = "kind",
	[TSCPROBE_A_RUN_ID] = "run_id",
	[TSCPROBE_A_CPUS] = "cpus",
	[TSCPROBE_A_DURATION_NS] = "duration_ns",
	[TSCPROBE_A_IRQS] = "irqs",
	[TSCPROBE_A_WIDTH_NS] = "width_ns",
	[TSCPROBE_A_GAP_NS] = "gap_ns",
	[TSCPROBE_A_THRESHOLD_NS] = "threshold_ns",
	[TSCPROBE_A_THRESHOLD_CYCLES] = "threshold_cycles",
	[TSCPROBE_A_CLOCK] = "clock",
	[TSCPROBE_A_ROUNDS] = "rounds",
	[TSCPROBE_A_BATCH] = "batch",
	[TSCPROBE_A_LEVELS] = "levels",
	[TSCPROBE_A_NODES] = "nodes",
	[TSCPROBE_A_SAMPLES] = "samples",
	[TSCPROBE_A_REPEATS] = "repeats",
	[TSCPROBE_A_ELAPSED_NS] = "elapsed_ns",
	[TSCPROBE_A_STOP_REASON] = "stop_reason",
	[TSCPROBE_A_CPU] = "cpu",
	[TSCPROBE_A_PAIR] = "pair",
	[TSCPROBE_A_START_TSC] = "start_tsc",
	[TSCPROBE_A_PAIRS_DONE] = "pairs_done",
	[TSCPROBE_A_PAIRS_TOTAL] = "pairs_total",
	[TSCPROBE_A_STOP_AT_NS] = "stop_at_ns",
	[TSCPROBE_A_STOP_AT_CYCLES] = "stop_at_cycles",
	[TSCPROBE_A_TRACE_STOP] = "trace_stop",
	[TSCPROBE_A_STOP_CPU] = "stop_cpu",
	[TSCPROBE_A_STOP_EVENT] = "stop_event",
	[TSCPROBE_A_TSC_SYNC] = "tsc_sync",
	[TSCPROBE_A_TSC_OFFSETS_RUN_ID] = "tsc_offsets_run_id",
	[TSCPROBE_A_WARM_UP_NS] = "warm_up_ns",
};

static const char *const tp_causes[] = {
	[TSCPROBE_CAUSE_NONE] = "none",
	[TSCPROBE_CAUSE_SMI] = "smi",
	[TSCPROBE_CAUSE_NMI] = "nmi",
	[TSCPROBE_CAUSE_IRQ] = "irq",
	[TSCPROBE_CAUSE_STEAL] = "steal",
	[TSCPROBE_CAUSE_UNEXPLAINED] = "unexplained",
	[TSCPROBE_CAUSE_THREAD] = "thread",
	[TSCPROBE_CAUSE_SOFTIRQ] = "softirq",
};

static const char *const tp_tsc_syncs[] = {
	[TSCPROBE_TSC_UNKNOWN] = "unknown",
	[TSCPROBE_TSC_STABLE] = "stable",
	[TSCPROBE_TSC_UNSTABLE] = "unstable",
};

const char *tp_cause_name(unsigned int v)
{
	return tp_pick(tp_causes, TP_ARRAY_SIZE(tp_causes), v);
}

static const char *const tp_sources[] = {
	[TSCPROBE_SOURCE_THREAD] = "thread",
	[TSCPROBE_SOURCE_SOFTIRQ] = "softirq",
	[TSCPROBE_SOURCE_IRQ] = "irq",
	[TSCPROBE_SOURCE_NMI] = "nmi",
	[TSCPROBE_SOURCE_OTHER] = "other",
};

const char *tp_source_name(unsigned int v)
{
	return tp_pick(tp_sources, TP_ARRAY_SIZE(tp_sources), v);
}

static const char *const tp_smi_sources[] = {
	[TSCPROBE_SMI_SOURCE_NONE] = "none",
	[TSCPROBE_SMI_SOURCE_MSR] = "msr",
	[TSCPROBE_SMI_SOURCE_PERF] = "perf",
};

const char *tp_smi_source_name(unsigned int v)
{
	return tp_pick(tp_smi_sources, TP_ARRAY_SIZE(tp_smi_sources), v);
}

const char *tp_tsc_sync_name(unsigned int v)
{
	return tp_pick(tp_tsc_syncs, TP_ARRAY_SIZE(tp_tsc_syncs), v);
}

const char *tp_attr_name(unsigned int v)
{
	return tp_pick(tp_attrs, TP_ARRAY_SIZE(tp_attrs), v);
}

const char *tp_kind_name(unsigned int v)
{
	return tp_pick(tp_kinds, TP_ARRAY_SIZE(tp_kinds), v);
}

const char *tp_state_name(unsigned int v)
{
	return tp_pick(tp_states, TP_ARRAY_SIZE(tp_states), v);
}

const char *tp_stop_reason_name(unsigned int v)
{
	return tp_pick(tp_stop_reasons, TP_ARRAY_SIZE(tp_stop_reasons), v);
}

const char *tp_clock_name(unsigned int v)
{
	return tp_pick(tp_clocks, TP_ARRAY_SIZE(tp_clocks), v);
}

const char *tp_irqs_name(unsigned int v)
{
	return tp_pick(tp_irqs, TP_ARRAY_SIZE(tp_irqs), v);
}

const char *tp_series_name(unsigned int v)
{
	return tp_pick(tp_series, TP_ARRAY_SIZE(tp_series), v);
}

const char *tp_relation_name(unsigned int v)
{
	return tp_pick(tp_relations, TP_ARRAY_SIZE(tp_relations), v);
}

const char *tp_pair_status_name(unsigned int v)
{
	return tp_pick(tp_pair_statuses, TP_ARRAY_SIZE(tp_pair_statuses), v);
}

const char *tp_feature_name(unsigned int v)
{
	return tp_pick(tp_features, TP_ARRAY_SIZE(tp_features), v);
}

static int tp_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/**
 * tp_name_lookup() - find the value whose name is @name
 * @name_of: one of the tp_*_name() functions
 * @max: the largest value to try
 * @name: the name to look for
 *
 * Return: the value, or -1 when no value in 0..@max has that name.
 */
int tp_name_lookup(const char *(*name_of)(unsigned int), unsigned int max,
		   const char *name)
{
	unsigned int v;

	for (v = 0; v <= max; v++)
		if (tp_streq(name_of(v), name))
			return (int)v;
	return -1;
}
