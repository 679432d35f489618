// SPDX-License-Identifier: GPL-2.0
/*
 * The machine around a run: /proc/interrupts before and after, per CPU and
 * by category, and the environment audit (printed by context_report.c).
 */
#include <stdlib.h>
#include <string.h>

#include "user/lib/context.h"
#include "user/lib/proc_rows.h"
#include "user/lib/cli.h"

static const char *const tp_irq_names[TP_IRQ_CATS] = {
	[TP_IRQ_LOC] = "LOC", [TP_IRQ_RES] = "RES", [TP_IRQ_TLB] = "TLB",
	[TP_IRQ_CAL] = "CAL", [TP_IRQ_NMI] = "NMI", [TP_IRQ_DEV] = "devices",
	[TP_IRQ_OTHER] = "other",
};

/**
 * tp_irq_cat_name() - the name reports give a category of interrupts
 * @cat: the category
 *
 * Return: "LOC", "RES", ... "devices", "other".
 */
const char *tp_irq_cat_name(enum tp_irq_cat cat)
{
	return tp_irq_names[cat];
}

static enum tp_irq_cat tp_irq_cat_of(const char *label)
{
	unsigned int c;

	if (label[0] >= '0' && label[0] <= '9')
		return TP_IRQ_DEV;
	for (c = 0; c < TP_IRQ_DEV; c++)
		if (!strcmp(label, tp_irq_names[c]))
			return (enum tp_irq_cat)c;
	return TP_IRQ_OTHER;
}

/*
 * Rows that count no interrupt a CPU took: ERR and MIS (machine-wide, one
 * column, before 7.2), the APIC's ICR read retries (RTR), machine-check
 * polls (MCP, run from the timer) and exceptions (MCE: not interrupts);
 * and PMI, performance-monitoring interrupts, which x86 delivers as NMIs:
 * the NMI row has them already.
 */
static bool tp_irq_row_skipped(const char *label)
{
	static const char *const skipped[] = {
		"ERR", "MIS", "RTR", "MCP", "MCE", "PMI"
	};
	size_t i;

	for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
		if (!strcmp(label, skipped[i]))
			return true;
	return false;
}

/**
 * tp_irq_row_taken() - whether a row of /proc/interrupts counts interrupts
 *	the CPU took, as tp_irq_taken() sums them
 * @label: the row's label: "24", "LOC", "TLB"
 *
 * Return: false for NMIs (PMI too), TLB shootdowns (counted in CAL too) and
 * the rows that are no interrupts.
 */
bool tp_irq_row_taken(const char *label)
{
	enum tp_irq_cat cat = tp_irq_cat_of(label);

	return !tp_irq_row_skipped(label) && cat != TP_IRQ_NMI &&
	       cat != TP_IRQ_TLB;
}

/**
 * struct tp_irq_reading - /proc/interrupts being summed
 * @k: the sums
 * @cols: the CPU of each column
 * @ncols: columns (-1: the header is still to come)
 */
struct tp_irq_reading {
	struct tp_irq_counts *k;
	unsigned int *cols;
	int ncols;
};

/* The header names the columns: "CPU0 CPU1 CPU4 ..." (online CPUs). */
static int tp_irq_header(struct tp_irq_reading *rd, const char *s,
			 const char *e)
{
	unsigned int cpu;
	int got;

	rd->ncols = 0;
	while ((got = tp_proc_header_next(&s, e, &cpu)) == 1) {
		if (cpu >= TP_MAX_CPUS || rd->ncols == TP_MAX_CPUS)
			return -1;
		rd->cols[rd->ncols++] = cpu;
		rd->k->seen[cpu] = true;
	}
	return got < 0 || !rd->ncols ? -1 : 0;
}

static int tp_irq_line(void *arg, const char *s, const char *e)
{
	struct tp_irq_reading *rd = arg;
	char label[TP_ROW_LABEL];
	struct tp_proc_row r;
	enum tp_irq_cat cat;
	uint64_t v;
	int i;

	if (rd->ncols < 0)
		return tp_irq_header(rd, s, e);
	if (!tp_proc_row_split(s, e, &r) || r.label_len >= sizeof(label))
		return 0;
	memcpy(label, r.label, r.label_len);
	label[r.label_len] = '\0';
	if (tp_irq_row_skipped(label))
		return 0;
	cat = tp_irq_cat_of(label);
	for (i = 0; i < rd->ncols && tp_proc_row_count(&r, &v); i++)
		rd->k->cat[cat][rd->cols[i]] += v;
	return 0;
}

/**
 * tp_read_proc_interrupts() - sum /proc/interrupts per CPU and category
 * @path: the file (settable for tests)
 * @k: filled in
 *
 * Return: 0, or -1 when the file cannot be read or has no header.
 */
int tp_read_proc_interrupts(const char *path, struct tp_irq_counts *k)
{
	struct tp_irq_reading rd = { .k = k, .ncols = -1 };
	struct tp_proc_file f = { .fd = -1 };
	int ret = -1;

	memset(k, 0, sizeof(*k));
	rd.cols = calloc(TP_MAX_CPUS, sizeof(*rd.cols));
	if (rd.cols && !tp_proc_file_open(&f, path))
		ret = tp_proc_file_lines(&f, tp_irq_line, &rd);
	tp_proc_file_close(&f);
	free(rd.cols);
	if (ret || rd.ncols <= 0) {
		memset(k->seen, 0, sizeof(k->seen));
		return -1;
	}
	return 0;
}

/**
 * tp_irq_known() - whether both readings have a column for @cpu
 * @x: the context (NULL: no readings)
 * @cpu: the CPU
 *
 * Return: true when the CPU's interrupt deltas are known; an unknown count
 * is reported as such, never as 0.
 */
bool tp_irq_known(const struct tp_context *x, unsigned int cpu)
{
	return x && x->have_irqs && cpu < TP_MAX_CPUS &&
	       x->before.seen[cpu] && x->after.seen[cpu];
}

/**
 * tp_irq_taken() - the interrupts a reading says @cpu has taken
 * @k: the reading
 * @cpu: the CPU
 *
 * Every category but NMIs and TLB shootdowns, which arrive as function-
 * call IPIs and are counted in CAL too: what the module counts as "irq".
 *
 * Return: the sum, modulo 2^32 (the kernel's counts are 32 bits wide).
 */
uint32_t tp_irq_taken(const struct tp_irq_counts *k, unsigned int cpu)
{
	uint32_t sum = 0;
	unsigned int c;

	for (c = 0; c < TP_IRQ_CATS; c++)
		if (c != TP_IRQ_NMI && c != TP_IRQ_TLB)
			sum += (uint32_t)k->cat[c][cpu];
	return sum;
}

/**
 * tp_irq_delta() - interrupts of one category a CPU took during the run
 * @x: the context
 * @cat: the category
 * @cpu: the CPU
 *
 * Return: the difference of the two readings, modulo 2^32 so that a count
 * that wrapped in between adds what it counted (0 when unknown).
 */
uint64_t tp_irq_delta(const struct tp_context *x, enum tp_irq_cat cat,
		      unsigned int cpu)
{
	if (!tp_irq_known(x, cpu))
		return 0;
	return (uint32_t)(x->after.cat[cat][cpu] - x->before.cat[cat][cpu]);
}

/* What the userspace engine reports as "irq": see tp_irq_taken(). */
uint64_t tp_irq_delta_all(const struct tp_context *x, unsigned int cpu)
{
	if (!tp_irq_known(x, cpu))
		return 0;
	return (uint32_t)(tp_irq_taken(&x->after, cpu) -
			  tp_irq_taken(&x->before, cpu));
}

/**
 * tp_context_begin() - take the "before" reading of a run
 *
 * Return: a new context (the program exits if memory runs out).
 */
struct tp_context *tp_context_begin(void)
{
	struct tp_context *x = calloc(1, sizeof(*x));

	if (!x) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	x->have_irqs = !tp_read_proc_interrupts("/proc/interrupts", &x->before);
	return x;
}

/**
 * tp_context_end() - take the "after" reading and audit the run's CPUs
 * @x: the context
 * @cpus: the run's CPUs
 * @tsc_khz: the TSC rate of the run
 */
void tp_context_end(struct tp_context *x, const struct tp_cpuset *cpus,
		    uint32_t tsc_khz)
{
	if (x->have_irqs)
		x->have_irqs = !tp_read_proc_interrupts("/proc/interrupts",
							&x->after);
	x->have_env = !tp_env_read(&x->env, cpus, tsc_khz);
}

/**
 * tp_context_env() - a context with the environment audit only
 * @cpus: the CPUs to audit
 * @tsc_khz: the TSC rate
 *
 * For results shown again later (tscprobe show): the machine is audited
 * now, and the interrupts of the run are not known any more.
 *
 * Return: a new context (the program exits if memory runs out).
 */
struct tp_context *tp_context_env(const struct tp_cpuset *cpus,
				  uint32_t tsc_khz)
{
	struct tp_context *x = calloc(1, sizeof(*x));

	if (!x) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	x->have_env = !tp_env_read(&x->env, cpus, tsc_khz);
	return x;
}

void tp_context_free(struct tp_context *x)
{
	if (!x)
		return;
	if (x->have_env)
		tp_env_free(&x->env);
	free(x);
}
