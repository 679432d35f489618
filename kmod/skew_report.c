// SPDX-License-Identifier: GPL-2.0
/*
 * The skew measurement's report: its parameters and pairs as netlink
 * attributes, and its debugfs table; both read only settled pairs.
 */
#include <linux/seq_file.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "attrs.h"
#include "kinds.h"
#include "run.h"
#include "skew_kind.h"
#include "core/names.h"
#include "core/report.h"
#include "core/skew.h"

static unsigned int tp_skew_settled(const struct tp_run *run)
{
	const struct tp_skew_run *sk = run->priv;

	/* Acquire: the results of every settled pair are visible. */
	return smp_load_acquire(&sk->settled);
}

static int tp_skew_put_params(struct sk_buff *skb, const struct tp_run *run)
{
	const struct tp_skew_run *sk = run->priv;
	const struct tp_params *p = &run->params;

	if (nla_put_u32(skb, TSCPROBE_A_SAMPLES, p->samples) ||
	    nla_put_u32(skb, TSCPROBE_A_REPEATS, p->repeats) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_WIDTH_NS, p->width_ns) ||
	    nla_put_u32(skb, TSCPROBE_A_PAIRS_DONE, READ_ONCE(sk->done)) ||
	    nla_put_u32(skb, TSCPROBE_A_PAIRS_TOTAL, sk->nr_pairs))
		return -EMSGSIZE;
	return 0;
}

/* Per-CPU messages carry only the CPU's identity and flags. */
static int tp_skew_dump_cpu(struct sk_buff *skb, struct tp_cpu *c,
			    void *snap, unsigned long *pos, bool named)
{
	return 0;
}

static int tp_skew_put_stat(struct sk_buff *skb, int type,
			    const struct tp_sstats *s)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest ||
	    nla_put_s64(skb, TSCPROBE_STAT_A_MINIMUM, s->min, TSCPROBE_STAT_A_PAD) ||
	    nla_put_s64(skb, TSCPROBE_STAT_A_MAXIMUM, s->max, TSCPROBE_STAT_A_PAD) ||
	    nla_put_s64(skb, TSCPROBE_STAT_A_SUM, s->sum, TSCPROBE_STAT_A_PAD) ||
	    tp_nla_put_u64(skb, TSCPROBE_STAT_A_SUMSQ_HI, s->sumsq_hi) ||
	    tp_nla_put_u64(skb, TSCPROBE_STAT_A_SUMSQ_LO, s->sumsq_lo))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tp_skew_put_pair(struct sk_buff *skb, const struct tp_run *run,
			    unsigned int idx)
{
	const struct tp_skew_run *sk = run->priv;
	const struct tp_skew_pair *pr = &sk->pairs[idx];
	struct nlattr *nest;

	nest = nla_nest_start(skb, TSCPROBE_A_PAIR);
	if (!nest ||
	    nla_put_u32(skb, TSCPROBE_PAIR_A_FROM, pr->from) ||
	    nla_put_u32(skb, TSCPROBE_PAIR_A_TO, pr->to) ||
	    nla_put_u32(skb, TSCPROBE_PAIR_A_STATUS, pr->status) ||
	    nla_put_u32(skb, TSCPROBE_PAIR_A_RELATION, pr->relation) ||
	    (pr->elapsed &&
	     tp_nla_put_u64(skb, TSCPROBE_PAIR_A_ELAPSED_CYCLES, pr->elapsed)))
		return -EMSGSIZE;
	if (pr->status == TSCPROBE_PAIR_OK &&
	    (nla_put_u32(skb, TSCPROBE_PAIR_A_NR, pr->st.nr) ||
	     nla_put_u32(skb, TSCPROBE_PAIR_A_DISCARDED, pr->st.discarded) ||
	     tp_skew_put_stat(skb, TSCPROBE_PAIR_A_LATIJ, &pr->st.latij) ||
	     tp_skew_put_stat(skb, TSCPROBE_PAIR_A_LATJI, &pr->st.latji) ||
	     tp_skew_put_stat(skb, TSCPROBE_PAIR_A_SKEW, &pr->st.skew2) ||
	     tp_skew_put_stat(skb, TSCPROBE_PAIR_A_ONE_WAY, &pr->st.one_way2)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The skew table, for the settled pairs. */
static void tp_skew_show(struct seq_file *m, struct tp_run *run)
{
	const struct tp_skew_run *sk = run->priv;
	unsigned int n = tp_skew_settled(run), p, line, unsound = 0;
	u64 kept = 0, dropped = 0;
	const char *head;
	char row[200];

	seq_printf(m, "skew run %llu: %s, samples %u, repeats %u, pairs %u/%u, cycles_hz=%llu\n",
		   run->id, tp_state_name(tp_run_state(run)),
		   run->params.samples, run->params.repeats,
		   READ_ONCE(sk->done), sk->nr_pairs, (u64)tsc_khz * 1000);
	for (line = 0; (head = tp_skew_header(line)); line++)
		seq_printf(m, "%s\n", head);
	for (p = 0; p < n; p++) {
		const struct tp_skew_pair *pr = &sk->pairs[p];

		tp_skew_row(row, sizeof(row), pr->from, pr->to, pr->status,
			    &pr->st);
		seq_printf(m, "%s\n", row);
		if (pr->status != TSCPROBE_PAIR_OK)
			continue;
		kept += pr->st.nr;
		dropped += pr->st.discarded;
		unsound += !tp_skew_sound(&pr->st);
	}
	tp_skew_outliers_line(row, sizeof(row), kept, dropped, unsound);
	seq_printf(m, "%s\n", row);
}

static unsigned int tp_skew_nr_pairs(const struct tp_run *run)
{
	return tp_skew_settled(run);
}

const struct tp_report_ops tp_skew_report_ops = {
	.put_params = tp_skew_put_params,
	.dump_cpu = tp_skew_dump_cpu,
	.show = tp_skew_show,
	.nr_pairs = tp_skew_nr_pairs,
	.put_pair = tp_skew_put_pair,
};
