/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's results as the CLI holds them, whichever engine produced them:
 * decoded from the module's GET_RESULT dump, or filled in by the userspace
 * engine.  Reports are written from this one form.
 */
#ifndef TSCPROBE_USER_RESULT_H
#define TSCPROBE_USER_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <linux/tscprobe.h>
#include "user/lib/actions.h"
#include "user/lib/cli.h"
#include "user/lib/cpuset.h"
#include "core/cache.h"
#include "user/lib/hold.h"
#include "user/lib/load.h"
#include "user/lib/placement.h"
#include "core/group.h"
#include "core/hist.h"
#include "core/noise.h"
#include "core/skew.h"
#include "core/stats.h"

struct tp_context;

/**
 * struct tp_run_params - a run's parameters (requested or effective)
 * @duration_ns: noise: run length
 * @width_ns: interrupts-off window
 * @gap_ns: pause between windows
 * @threshold_ns: noise: event threshold
 * @threshold_cycles: the same in cycles (0: derive from ns)
 * @irqs: enum tscprobe_irqs
 * @clock: enum tscprobe_clock
 * @rounds: cache
 * @batch: cache
 * @levels: cache
 * @nodes: cache
 * @samples: skew
 * @repeats: skew
 * @stop_at_ns: noise: the first gap this long ends the run (0: none)
 * @stop_at_cycles: the same in cycles (0: derive from ns)
 * @trace_stop: noise: tracing_off() at that moment too
 * @warm_up_ns: noise: measured first on each CPU and dropped
 * @priority: userspace engines: the SCHED_FIFO priority of the measuring
 *	threads (0: SCHED_OTHER, the default)
 */
struct tp_run_params {
	uint64_t duration_ns;
	uint64_t width_ns;
	uint64_t gap_ns;
	uint64_t threshold_ns;
	uint64_t threshold_cycles;
	uint32_t irqs;
	uint32_t clock;
	uint64_t rounds;
	uint32_t batch;
	bool levels;
	bool nodes;
	uint32_t samples;
	uint32_t repeats;
	uint64_t stop_at_ns;
	uint64_t stop_at_cycles;
	bool trace_stop;
	uint64_t warm_up_ns;
	uint32_t priority;
};

/** struct tp_counter_res - a counter that may be unreadable (@ok false) */
struct tp_counter_res {
	bool ok;
	uint64_t v;
};

/**
 * struct tp_source_res - what ran inside a noise CPU's windows: one source,
 *	or one kind of source's total
 * @kind: enum tscprobe_source
 * @id: the IRQ number, softirq vector or pid (0: a kind, other, an NMI)
 * @name: the IRQ action's, the softirq's, the thread's comm, the NMI
 *	handler's ("" for a kind)
 * @count: the times it ran
 * @cycles: its net time
 * @no_id: it has no number: a named row of /proc/interrupts ("LOC"), whose
 *	vector the file does not give (the userspace engine's)
 * @vector: an x86 system vector (kind irq): @id is no IRQ number
 * @threaded: kind irq: the handler ran in the interrupt's thread, @pid,
 *	named @thread
 * @withheld: the module names threads only to readers with CAP_NET_ADMIN;
 *	for others, kind thread: the threads summed, without id and name;
 *	kind irq: @threaded, but without @pid and @thread
 */
struct tp_source_res {
	uint32_t kind;
	uint32_t id;
	char name[TSCPROBE_SOURCE_NAME_LEN];
	uint64_t count;
	uint64_t cycles;
	bool no_id;
	bool vector;
	bool threaded;
	uint32_t pid;
	char thread[TSCPROBE_SOURCE_NAME_LEN];
	bool withheld;
};

/**
 * struct tp_event_res - one noise event and what the CPU saw across it
 * @tsc: TSC at the end of the gap
 * @cycles: the gap's length
 * @has_cause: a cause was given (the module names one; older modules and
 *	the userspace engine may not)
 * @cause: enum tscprobe_cause
 * @smi: SMIs across the gap (not ok: unreadable, never 0)
 * @nmi: NMIs across the gap
 * @irq: interrupts across the gap
 * @steal_ns: hypervisor steal time across the gap, ns
 * @has_sources: the module named what ran inside the gap (its probes were
 *	attached); then @nsources sources, largest first, the last perhaps
 *	OTHER, and @unexplained_cycles, the gap's time none accounts for
 * @group: the index of its group in the result's @groups (tp_result_group())
 *
 * @tsc and @cycles come first, as in core's struct tp_event.
 */
struct tp_event_res {
	uint64_t tsc;
	uint64_t cycles;
	bool has_cause;
	uint32_t cause;
	struct tp_counter_res smi;
	struct tp_counter_res nmi;
	struct tp_counter_res irq;
	struct tp_counter_res steal_ns;
	bool has_sources;
	uint32_t nsources;
	struct tp_source_res sources[TSCPROBE_EVENT_SOURCES + 1];
	uint64_t unexplained_cycles;
	uint32_t group;
};

/**
 * struct tp_cause_res - the noise one cause explains on one CPU
 * @events: events attributed to it (all of them, kept or not)
 * @cycles: the sum of their gaps
 */
struct tp_cause_res {
	uint64_t events;
	uint64_t cycles;
};


/**
 * struct tp_window_res - a cache series' most recent complete block
 * @rounds: the block length (1e3, 1e5, 1e6); 0 while no block is complete
 * @sum: the block's sum, gross cycles
 * @blocks: complete blocks so far
 */
struct tp_window_res {
	uint64_t rounds;
	uint64_t sum;
	uint64_t blocks;
};

/**
 * struct tp_series_res - one series of one CPU
 * @present: the series was reported
 * @stats: count, min, max, sum, sum of squares
 * @hist: the histogram, allocated when buckets arrive (NULL: none)
 * @win: cache: the windows, indexed like core's (1e3, 1e5, 1e6)
 */
struct tp_series_res {
	bool present;
	struct tp_stats stats;
	struct tp_hist *hist;
	struct tp_window_res win[TP_CACHE_WINDOWS];
};

/**
 * struct tp_cpu_res - one CPU's results
 * @cpu: CPU number
 * @flags: TSCPROBE_CPU_F_*
 * @node: NUMA node
 * @windows: windows run
 * @measured_cycles: cycles inside windows
 * @wall_cycles: cycles from the first window's start to the last one's end
 * @events_total: gaps at or above the threshold
 * @events_dropped: not kept
 * @not_notified: events the module could not notify (window cap, socket
 *	full); not ok when the module does not say
 * @has_causes: @causes was given (the module always gives it for noise)
 * @causes_known: bit (1 << cause) for every cause whose figures were
 *	given: a cause whose counter could not be read (SMI in a VM, SMI
 *	and NMI in userspace) is unknown, never 0 events
 * @causes: indexed by enum tscprobe_cause
 * @has_tsc_offset: @tsc_offset was given
 * @tsc_offset: this CPU's TSC minus the reference CPU's, cycles
 * @steps_back: noise: times the TSC went backwards between two reads (not
 *	ok: not reported)
 * @step_back_max: noise: the largest of those steps, cycles
 * @nevents: events in @events
 * @events: the largest events
 * @smi: SMIs
 * @smi_source: enum tscprobe_smi_source as the module sent it (NONE when
 *	it did not); tp_cpu_smi_source() says where @smi came from
 * @nmi: NMIs
 * @irq: interrupts
 * @aperf: APERF over the windows
 * @mperf: MPERF over the windows
 * @ctx_vol: voluntary context switches of the measuring thread
 * @ctx_invol: its involuntary context switches
 * @migrations: its migrations
 * @kinds_known: noise: bit (1 << kind) for each kind of source whose
 *	probes the module could attach (0: the sources are unknown)
 * @kinds: noise: each kind's exact totals, by enum tscprobe_source
 * @sources_lost: noise: spans the module's rings dropped
 * @sources_untimed: noise: the sources are the userspace engine's, counted
 *	from /proc over the run: no time (the cycles mean nothing), no span
 *	to lose
 * @nsources: noise: entries in @sources
 * @sources: noise: the sources, largest first, the last maybe OTHER
 * @clock_before_khz: cache and skew: the effective clock just before the
 *	CPU's measurement (0: not read)
 * @clock_after_khz: just after it (0: not read)
 * @series: indexed by enum tscprobe_series
 * @rounds: cache: rounds completed
 * @nlevels: cache: points in @levels
 * @nnodes: cache: points in @nodes
 * @levels: cache: the memory-level curve (size, loads, cycles)
 * @nodes: cache: the uncached load per NUMA node (node, loads, cycles)
 */
struct tp_cpu_res {
	unsigned int cpu;
	uint32_t flags;
	uint32_t node;
	uint64_t windows;
	uint64_t measured_cycles;
	uint64_t wall_cycles;
	uint64_t events_total;
	uint64_t events_dropped;
	struct tp_counter_res not_notified;
	bool has_causes;
	uint32_t causes_known;
	struct tp_cause_res causes[TSCPROBE_CAUSE_MAX + 1];
	bool has_tsc_offset;
	int64_t tsc_offset;
	struct tp_counter_res steps_back;
	uint64_t step_back_max;
	unsigned int nevents;
	struct tp_event_res events[TSCPROBE_MAX_EVENTS];
	struct tp_counter_res smi;
	uint32_t smi_source;
	struct tp_counter_res nmi;
	struct tp_counter_res irq;
	struct tp_counter_res aperf;
	struct tp_counter_res mperf;
	struct tp_counter_res ctx_vol;
	struct tp_counter_res ctx_invol;
	struct tp_counter_res migrations;
	uint32_t kinds_known;
	struct tp_source_res kinds[TSCPROBE_SOURCE_OTHER];
	uint64_t sources_lost;
	bool sources_untimed;
	unsigned int nsources;
	struct tp_source_res sources[TSCPROBE_MAX_SOURCES + 1];
	uint32_t clock_before_khz;
	uint32_t clock_after_khz;
	struct tp_series_res series[TSCPROBE_SERIES_MAX + 1];
	uint64_t rounds;
	unsigned int nlevels;
	unsigned int nnodes;
	struct tp_latency levels[TP_CACHE_MAX_LEVELS];
	struct tp_latency nodes[TP_CACHE_MAX_NODES];
};

/**
 * struct tp_pair_res - one ordered skew pair
 * @from: CPU i (the side that starts)
 * @to: CPU j
 * @status: enum tscprobe_pair_status
 * @relation: enum tscprobe_relation
 * @elapsed_cycles: what the pair cost (0: unknown)
 * @st: nr and the statistics (skew and one-way doubled); only for OK
 */
struct tp_pair_res {
	unsigned int from;
	unsigned int to;
	uint32_t status;
	uint32_t relation;
	uint64_t elapsed_cycles;
	struct tp_skew_stats st;
};

/**
 * struct tp_result - a run and its results
 * @kind: enum tscprobe_kind
 * @user_engine: measured by the userspace engine, not the module
 * @tsc_khz: TSC rate used for every ns figure
 * @run_id: the module's run id (0 for the userspace engine)
 * @state: enum tscprobe_state
 * @reason: enum tscprobe_stop_reason
 * @elapsed_ns: run length
 * @start_tsc: TSC at start
 * @cpus: the measured CPUs
 * @p: the effective parameters
 * @ncpus: entries in @cpu
 * @cap: allocated entries
 * @cpu: per-CPU results, in the order they arrived (CPU order)
 * @ctx: the machine around the run (interrupts, environment), or NULL
 * @pairs_done: skew: pairs measured (progress)
 * @pairs_total: skew: pairs in the run
 * @npairs: entries in @pair
 * @pairs_cap: allocated entries
 * @pair: skew: the ordered pairs, in the order they arrived ((i, j) order)
 * @has_stop_event: the run ended at an event (stop reason threshold)
 * @stop_cpu: that event's CPU
 * @stop_event: that event
 * @tsc_sync: enum tscprobe_tsc_sync, the module's view
 * @tsc_offsets_run_id: the skew run the CPUs' TSC offsets come from (0:
 *	none)
 * @grouped: noise: the events were grouped across CPUs (tp_result_group())
 * @tsc_aligned: the grouping aligned the CPUs' TSCs with the module's
 *	offsets
 * @tsc_in_sync: the CPUs' TSCs are known to be in sync (or were aligned)
 * @ngroups: entries in @groups
 * @groups: the groups of events that overlap in time, in time order
 * @cli: where the CLI's own threads ran during the run
 * @held: the conditions the CLI held during the run (not stated for a
 *	stored result)
 * @load: the load the CLI ran beside the run (none for a stored result)
 * @actions: what the CLI did at the run's events and end (none asked for a
 *	stored result)
 * @started: when the CLI started the run, seconds since the epoch (0:
 *	unknown, a stored result)
 */
struct tp_result {
	uint32_t kind;
	bool user_engine;
	uint32_t tsc_khz;
	uint64_t run_id;
	uint32_t state;
	uint32_t reason;
	uint64_t elapsed_ns;
	uint64_t start_tsc;
	struct tp_cpuset cpus;
	struct tp_run_params p;
	unsigned int ncpus;
	unsigned int cap;
	struct tp_cpu_res *cpu;
	struct tp_context *ctx;
	uint32_t pairs_done;
	uint32_t pairs_total;
	unsigned int npairs;
	unsigned int pairs_cap;
	struct tp_pair_res *pair;
	bool has_stop_event;
	unsigned int stop_cpu;
	struct tp_event_res stop_event;
	uint32_t tsc_sync;
	uint64_t tsc_offsets_run_id;
	bool grouped;
	bool tsc_aligned;
	bool tsc_in_sync;
	uint32_t ngroups;
	struct tp_group *groups;
	struct tp_placement cli;
	struct tp_conditions held;
	struct tp_load_report load;
	struct tp_actions_report actions;
	time_t started;
};

/* The engine that measured @r, as every report names it. */
static inline const char *tp_result_engine(const struct tp_result *r)
{
	return r->user_engine ? "user" : "kernel";
}

void tp_result_init(struct tp_result *r, uint32_t kind);
void tp_result_free(struct tp_result *r);
struct tp_cpu_res *tp_result_cpu(struct tp_result *r, unsigned int cpu);
const char *tp_cpu_incomplete_why(const struct tp_cpu_res *c, uint64_t samples);
struct tp_hist *tp_series_hist(struct tp_series_res *s);
struct tp_pair_res *tp_result_add_pair(struct tp_result *r, unsigned int from,
				       unsigned int to);
void tp_result_drop_items(struct tp_result *r);
void tp_result_group(struct tp_result *r);


/**
 * enum tp_smi_why - why a result, or the module, has no SMI count
 * @TP_SMI_READABLE: it has one (on every CPU)
 * @TP_SMI_VM: a virtual machine: its count is the hypervisor's
 * @TP_SMI_USERSPACE: the userspace engine: MSRs are out of its reach
 * @TP_SMI_NO_MSR: the CPU has no readable MSR_SMI_COUNT (AMD, old Intel),
 *	nor a PMU counter of its SMIs (AMD before Zen, no PMU, none free)
 * @TP_SMI_UNKNOWN: absent, for no reason the CLI can tell
 */
enum tp_smi_why {
	TP_SMI_READABLE,
	TP_SMI_VM,
	TP_SMI_USERSPACE,
	TP_SMI_NO_MSR,
	TP_SMI_UNKNOWN,
};

uint64_t tp_result_max_gap(const struct tp_result *r, unsigned int *cpu);
const struct tp_action_end *tp_result_action_end(const struct tp_result *r,
						 struct tp_action_end *end);
const struct tp_action_event *
tp_result_action_event(const struct tp_result *r, unsigned int cpu,
		       const struct tp_event_res *e, struct tp_action_event *out);
enum tp_smi_why tp_result_smi_why(const struct tp_result *r);
unsigned int tp_cpu_smi_source(const struct tp_cpu_res *c);
unsigned int tp_features_smi_source(uint32_t features);
const char *tp_smi_why_key(enum tp_smi_why why);
const char *tp_smi_why_text(enum tp_smi_why why);

const char *tp_event_cause_word(const struct tp_event_res *e);


#endif /* TSCPROBE_USER_RESULT_H */
