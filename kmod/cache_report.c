// SPDX-License-Identifier: GPL-2.0
/*
 * The cache measurement's report: its parameters, progress and CPU dumps
 * as netlink attributes, and its debugfs text.
 */
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "attrs.h"
#include "cache_kind.h"
#include "debugfs.h"
#include "kinds.h"
#include "run.h"
#include "core/cache.h"
#include "core/hist.h"
#include "core/names.h"
#include "core/report.h"

static int tp_cache_put_params(struct sk_buff *skb, const struct tp_run *run)
{
	const struct tp_params *p = &run->params;

	if (tp_nla_put_u64(skb, TSCPROBE_A_ROUNDS, p->rounds) ||
	    nla_put_u32(skb, TSCPROBE_A_BATCH, p->batch) ||
	    (p->levels && nla_put_flag(skb, TSCPROBE_A_LEVELS)) ||
	    (p->nodes && nla_put_flag(skb, TSCPROBE_A_NODES)) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_WIDTH_NS, p->width_ns) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_GAP_NS, p->gap_ns))
		return -EMSGSIZE;
	return 0;
}

/* GET_STATUS's figures: rounds, then windows. */
static void tp_cache_progress(const void *snap, u64 *v)
{
	const struct tp_cache_cpu *n = snap;

	v[0] = n->loop.pace.units;
	v[1] = n->windows;
}

static int tp_cache_put_progress(struct sk_buff *skb, const u64 *v)
{
	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_ROUNDS, v[0]) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_WINDOWS, v[1]))
		return -EMSGSIZE;
	return 0;
}

#define TP_CACHE_POS_STRIDE	1024	/* > TSCPROBE_HIST_BUCKETS */

/* Phase 0 of a CPU's dump: counts and times; sent once. */
static int tp_cache_put_scalars(struct sk_buff *skb,
				const struct tp_cache_cpu *n, u32 *idx)
{
	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_ROUNDS, n->loop.pace.units) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_WINDOWS, n->windows) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_MEASURED_CYCLES,
			   n->loop.pace.cycles) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_WALL_CYCLES,
			   n->last_tsc - n->first_tsc))
		return -EMSGSIZE;
	return 0;
}

/* Statistics and complete windows: the head of a series, sent once. */
static int tp_cache_put_head(struct sk_buff *skb,
			     const struct tp_cache_series *s)
{
	const struct tp_stats *st = &s->stats;
	struct nlattr *nest;
	unsigned int k;

	if (tp_nla_put_u64(skb, TSCPROBE_SERIES_A_COUNT, st->count) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_SUM, st->sum) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_SUMSQ_HI, st->sumsq_hi) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_SUMSQ_LO, st->sumsq_lo) ||
	    (st->count &&
	     (tp_nla_put_u64(skb, TSCPROBE_SERIES_A_MINIMUM, st->min) ||
	      tp_nla_put_u64(skb, TSCPROBE_SERIES_A_MAXIMUM, st->max))))
		return -EMSGSIZE;
	for (k = 0; k < TP_CACHE_WINDOWS; k++) {
		if (!s->win[k].blocks)
			continue;	/* not that many rounds yet */
		nest = nla_nest_start(skb, TSCPROBE_SERIES_A_WINDOW);
		if (!nest)
			return -EMSGSIZE;
		if (tp_nla_put_u64(skb, TSCPROBE_WINDOW_A_ROUNDS,
				   tp_cache_window_rounds(k)) ||
		    tp_nla_put_u64(skb, TSCPROBE_WINDOW_A_SUM, s->win[k].sum) ||
		    tp_nla_put_u64(skb, TSCPROBE_WINDOW_A_BLOCKS,
				   s->win[k].blocks)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* One series: its head (at bucket 0), then non-empty buckets from *idx. */
static int tp_cache_put_series(struct sk_buff *skb,
			       const struct tp_cache_series *s,
			       unsigned int id, u32 *idx)
{
	struct nlattr *nest = nla_nest_start(skb, TSCPROBE_CPU_A_SERIES);
	int err;

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TSCPROBE_SERIES_A_ID, id) ||
	    (*idx == 0 && tp_cache_put_head(skb, s))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	err = tp_nla_put_buckets(skb, &s->hist, idx);
	nla_nest_end(skb, nest);
	return err;
}

/* Phase 1: the three series; *idx is series * STRIDE + bucket. */
static int tp_cache_put_all_series(struct sk_buff *skb,
				   const struct tp_cache_cpu *n, u32 *idx)
{
	u32 s, b;
	int err;

	while (*idx < TP_CACHE_SERIES * TP_CACHE_POS_STRIDE) {
		s = *idx / TP_CACHE_POS_STRIDE;
		b = *idx % TP_CACHE_POS_STRIDE;
		err = tp_cache_put_series(skb, &n->loop.s[s], TP_CACHE_ID(s),
					  &b);
		*idx = s * TP_CACHE_POS_STRIDE + b;
		if (err)
			return err;
		*idx = (s + 1) * TP_CACHE_POS_STRIDE;
	}
	return 0;
}

/* LEVEL or NODE_LAT nests from *idx on. */
static int tp_cache_put_curve(struct sk_buff *skb, int type,
			      const struct tp_latency *lat, u32 n, u32 *idx)
{
	struct nlattr *nest;

	for (; *idx < n; (*idx)++) {
		const struct tp_latency *l = &lat[*idx];

		nest = nla_nest_start(skb, type);
		if (!nest)
			return -EMSGSIZE;
		if ((type == TSCPROBE_CPU_A_LEVEL ?
		     tp_nla_put_u64(skb, TSCPROBE_LEVEL_A_SIZE, l->size) :
		     nla_put_u32(skb, TSCPROBE_LEVEL_A_NODE, l->node)) ||
		    tp_nla_put_u64(skb, TSCPROBE_LEVEL_A_LOADS, l->loads) ||
		    tp_nla_put_u64(skb, TSCPROBE_LEVEL_A_CYCLES, l->cycles)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* Phase 2: the memory levels. */
static int tp_cache_put_levels(struct sk_buff *skb,
			       const struct tp_cache_cpu *n, u32 *idx)
{
	return tp_cache_put_curve(skb, TSCPROBE_CPU_A_LEVEL, n->levels,
				  n->nlevels, idx);
}

/* Phase 3: the nodes. */
static int tp_cache_put_nodes(struct sk_buff *skb,
			      const struct tp_cache_cpu *n, u32 *idx)
{
	return tp_cache_put_curve(skb, TSCPROBE_CPU_A_NODE_LAT, n->nodes,
				  n->nnodes, idx);
}

/* The phases of a CPU's dump, in order (see TP_POS()). */
static int (*const tp_cache_dump_phases[])(struct sk_buff *skb,
					   const struct tp_cache_cpu *n,
					   u32 *idx) = {
	tp_cache_put_scalars,
	tp_cache_put_all_series,
	tp_cache_put_levels,
	tp_cache_put_nodes,
};

/*
 * Each phase adds what fits from *idx on; a full message ends the call
 * with the position saved, and the next message resumes there.
 */
static int tp_cache_dump_cpu(struct sk_buff *skb, struct tp_cpu *c,
			     void *snap, unsigned long *pos, bool named)
{
	unsigned int phase = TP_POS_PHASE(*pos);
	u32 idx = TP_POS_IDX(*pos);
	int err = 0;

	for (; phase < ARRAY_SIZE(tp_cache_dump_phases); phase++, idx = 0) {
		err = tp_cache_dump_phases[phase](skb, snap, &idx);
		if (err)
			break;
	}
	*pos = TP_POS(phase, idx);
	return err;
}

static void tp_cache_show_series(struct seq_file *m,
				 const struct tp_cache_series *s,
				 unsigned int id)
{
	const struct tp_stats *st = &s->stats;

	seq_printf(m, "  %-8s gross cycles: min=%llu avg=%llu p50=%llu p99=%llu max=%llu sd=%llu\n",
		   tp_series_name(id), st->count ? st->min : 0,
		   tp_stats_mean(st), tp_hist_percentile(&s->hist, 500000),
		   tp_hist_percentile(&s->hist, 990000), st->max,
		   tp_stats_sd(st));
}

/* "last 1e5 rounds": the most recent complete block of that many. */
static void tp_cache_show_windows(struct seq_file *m,
				  const struct tp_cache *l)
{
	const struct tp_cache_series *ov, *ca, *un;
	u64 rounds, median;
	unsigned int k;

	ov = &l->s[TP_CACHE_IDX(TSCPROBE_SERIES_OVERHEAD)];
	ca = &l->s[TP_CACHE_IDX(TSCPROBE_SERIES_CACHED)];
	un = &l->s[TP_CACHE_IDX(TSCPROBE_SERIES_UNCACHED)];
	median = tp_hist_percentile(&ov->hist, 500000);
	for (k = 0; k < TP_CACHE_WINDOWS; k++) {
		if (!ov->win[k].blocks)
			continue;
		rounds = tp_cache_window_rounds(k);
		seq_printf(m, "  last %llu rounds (block %llu): overhead=%llu cached=%llu uncached=%llu (net of the overhead median %llu)\n",
			   rounds, ov->win[k].blocks,
			   div64_u64(ov->win[k].sum, rounds),
			   tp_net_cycles(div64_u64(ca->win[k].sum, rounds), median),
			   tp_net_cycles(div64_u64(un->win[k].sum, rounds), median),
			   median);
	}
}

/* Cycles per load with two decimals, as "N.NN". */
static void tp_cache_show_curve(struct seq_file *m, const char *what,
				const struct tp_latency *lat, u32 n)
{
	u64 hundredths;
	u32 i;

	for (i = 0; i < n; i++) {
		hundredths = lat[i].loads ?
			div64_u64(lat[i].cycles * 100, lat[i].loads) : 0;
		if (lat[i].size)
			seq_printf(m, "  %s %llu bytes: %llu.%02llu cycles/load (loads=%llu cycles=%llu)\n",
				   what, lat[i].size, hundredths / 100,
				   hundredths % 100, lat[i].loads,
				   lat[i].cycles);
		else
			seq_printf(m, "  %s %u: %llu.%02llu cycles/load, gross (loads=%llu cycles=%llu)\n",
				   what, lat[i].node, hundredths / 100,
				   hundredths % 100, lat[i].loads,
				   lat[i].cycles);
	}
}

/* The three Average lines, then distributions, windows and curves. */
static void tp_cache_show_cpu(struct seq_file *m, const struct tp_cpu *c,
			      void *snap)
{
	const struct tp_cache_cpu *n = snap;
	const struct tp_cache *l = &n->loop;
	const struct tp_stats *ov;
	char row[128];
	unsigned int i;

	ov = &l->s[TP_CACHE_IDX(TSCPROBE_SERIES_OVERHEAD)].stats;
	seq_printf(m, "cpu %u: rounds=%llu windows=%llu%s\n", c->cpu,
		   l->pace.units, n->windows,
		   test_bit(TP_CPU_INCOMPLETE, &c->flags) ? " incomplete" : "");
	for (i = 0; i < TP_CACHE_AVG_LINES; i++) {
		unsigned int series = tp_cache_avg_line_series(i);

		tp_cache_avg_line(row, sizeof(row), series,
				  &l->s[TP_CACHE_IDX(series)].stats, ov);
		seq_printf(m, "  %s\n", row);
	}
	for (i = 0; i < TP_CACHE_SERIES; i++)
		tp_cache_show_series(m, &l->s[i], TP_CACHE_ID(i));
	tp_cache_show_windows(m, l);
	tp_cache_show_curve(m, "level", n->levels, n->nlevels);
	tp_cache_show_curve(m, "node", n->nodes, n->nnodes);
}

static void tp_cache_show(struct seq_file *m, struct tp_run *run)
{
	const struct tp_params *p = &run->params;

	seq_printf(m, "cache run %llu: %s, rounds %llu, batch %u, levels %s, nodes %s, cycles_hz=%llu\n",
		   run->id, tp_state_name(tp_run_state(run)), p->rounds,
		   p->batch, p->levels ? "yes" : "no", p->nodes ? "yes" : "no",
		   (u64)tsc_khz * 1000);
	tp_show_cpus(m, run, tp_cache_show_cpu);
}

const struct tp_report_ops tp_cache_report_ops = {
	.put_params = tp_cache_put_params,
	.progress = tp_cache_progress,
	.put_progress = tp_cache_put_progress,
	.dump_cpu = tp_cache_dump_cpu,
	.show = tp_cache_show,
};
