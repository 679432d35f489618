// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe noise --compare: the same CPUs measured three ways, back to back
 * (the module with interrupts off, with them on, and the userspace engine),
 * and one table that answers the original question: how much of the jitter is
 * the operating system's?
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "user/engines.h"
#include "user/lib/context_report.h"
#include "user/lib/model.h"
#include "core/names.h"
#include "user/lib/nl.h"
#include "user/noise_compare.h"
#include "user/reports.h"
#include "core/report.h"
#include "user/lib/format.h"

enum { TP_CMP_OFF, TP_CMP_ON, TP_CMP_USER, TP_CMP_MODES };

static const char *const tp_cmp_names[TP_CMP_MODES] = {
	"kernel, irqs off", "kernel, irqs on", "user (irqs on)",
};

static const char *const tp_cmp_keys[TP_CMP_MODES] = {
	"kernel_irqs_off", "kernel_irqs_on", "user",
};

/**
 * struct tp_cmp_row - one mode, all its CPUs together
 * @ran: the mode was measured
 * @samples: gaps measured
 * @pct: p50, p99, p99.9 (of the merged histogram) and max, in cycles
 * @events_per_s: events per second and CPU
 * @coverage: measured over wall time, all CPUs
 */
struct tp_cmp_row {
	bool ran;
	uint64_t samples;
	uint64_t pct[4];
	double events_per_s;
	double coverage;
};

static void tp_cmp_aggregate(const struct tp_result *r, struct tp_cmp_row *row)
{
	static const uint32_t ppm[3] = { 500000, 990000, 999000 };
	struct tp_hist *h = calloc(1, sizeof(*h));
	uint64_t events = 0, measured = 0, wall = 0, max = 0;
	unsigned int i;

	if (!h) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];
		const struct tp_series_res *g = &c->series[TSCPROBE_SERIES_GAP];

		if (g->hist)
			tp_hist_merge(h, g->hist);
		events += c->events_total;
		measured += c->measured_cycles;
		wall += c->wall_cycles;
		if (g->stats.max > max)
			max = g->stats.max;
	}
	row->ran = true;
	row->samples = tp_hist_count(h);
	for (i = 0; i < 3; i++)
		row->pct[i] = tp_hist_percentile(h, ppm[i]);
	row->pct[3] = max;
	row->coverage = wall ? (double)measured / (double)wall : 0.0;
	row->events_per_s = r->elapsed_ns && r->ncpus ?
		(double)events / (r->elapsed_ns / 1e9) / r->ncpus : 0.0;
	free(h);
}

/* Run one mode, started in the module as @kernel starts noise. */
static int tp_cmp_run(const struct tp_start *kernel, unsigned int mode,
		      struct tp_result *res)
{
	struct tp_run_params p = *kernel->p;
	struct tp_start st = {
		.kind = TSCPROBE_KIND_NOISE,
		.cpus = kernel->cpus,
		.p = &p,
		.put_attrs = kernel->put_attrs,
		.expect_ns = p.duration_ns + p.warm_up_ns,
		.progress = kernel->progress,
		.quiet = kernel->quiet,
	};

	tp_result_init(res, TSCPROBE_KIND_NOISE);
	res->started = time(NULL);
	if (mode == TP_CMP_USER)
		return tp_user_noise(kernel->cpus, &p, kernel->quiet, res);
	p.irqs = mode == TP_CMP_OFF ? TSCPROBE_IRQS_OFF : TSCPROBE_IRQS_ON;
	return tp_run_kernel(&st, res);
}

/* What one comparison shows: the run, the results, each mode's row. */
struct tp_cmp {
	const struct tp_start *kernel;
	const struct tp_output *out;
	const struct tp_result *res;
	const struct tp_cmp_row *row;
	unsigned int ran[TP_CMP_MODES];
};

static void tp_cmp_ratio(struct tp_model *m, const char *what, double on,
			 double off)
{
	if (off > 0)
		tp_text(m, "%s x%.1f", what, on / off);
	else
		tp_text(m, "%s %s", what, on > 0 ? "up from 0" : "0 both ways");
}

/* A mode's CPUs, each with its own figures. */
static void tp_cmp_cpus(struct tp_model *m, const struct tp_result *r)
{
	struct tp_noise_summary s;
	unsigned int i;

	tp_arr(m, "cpus");
	for (i = 0; i < r->ncpus; i++) {
		tp_noise_summarize(r, &r->cpu[i], &s);
		tp_obj(m, NULL);
		tp_u64(m, "cpu", r->cpu[i].cpu, NULL);
		tp_u64(m, "samples", s.samples, NULL);
		tp_u64(m, "p50_cycles", s.pct[1], NULL);
		tp_u64(m, "p99_cycles", s.pct[2], NULL);
		tp_u64(m, "p999_cycles", s.pct[3], NULL);
		tp_u64(m, "max_cycles", s.pct[5], NULL);
		tp_u64(m, "events_total", r->cpu[i].events_total, NULL);
		tp_dbl(m, "coverage", s.coverage, NULL);
		tp_end(m);
	}
	tp_end(m);
}

/* Row @i: the @i-th mode that ran, all its CPUs together. */
static void tp_cmp_mode(struct tp_model *m, const void *ctx, unsigned int i)
{
	const struct tp_cmp *c = ctx;
	unsigned int k = c->ran[i];
	const struct tp_cmp_row *row = &c->row[k];

	tp_str(m, "name", tp_cmp_names[k], &(struct tp_opts){
		.not_in = TP_ONLY_TEXT });
	tp_str(m, "mode", tp_cmp_keys[k], NULL);
	tp_str(m, "engine", k == TP_CMP_USER ? "user" : "kernel", NULL);
	tp_str(m, "irqs", k == TP_CMP_OFF ? "off" : "on", NULL);
	tp_u64(m, "samples", row->samples, NULL);
	tp_u64(m, "p50_cycles", row->pct[0], NULL);
	tp_u64(m, "p99_cycles", row->pct[1], NULL);
	tp_u64(m, "p999_cycles", row->pct[2], NULL);
	tp_u64(m, "max_cycles", row->pct[3], NULL);
	tp_dbl(m, "events_per_second", row->events_per_s, NULL);
	tp_dbl(m, "coverage", row->coverage, NULL);
	tp_cmp_cpus(m, &c->res[k]);
}

static const struct tp_column tp_cmp_cols[] = {
	{ "name", "%-18s", NULL, TP_CELL_PLAIN },
	{ "p50_cycles", " %9llu", NULL, TP_CELL_PLAIN },
	{ "p99_cycles", " %9llu", NULL, TP_CELL_PLAIN },
	{ "p999_cycles", " %9llu", NULL, TP_CELL_PLAIN },
	{ "max_cycles", " %12llu", NULL, TP_CELL_PLAIN },
	{ "events_per_second", " %10.2f", NULL, TP_CELL_PLAIN },
	{ "coverage", " %8.2f%%", NULL, TP_CELL_PCT },
};

/* How much of the jitter is the operating system's: on against off. */
static void tp_cmp_share(struct tp_model *m, const struct tp_cmp_row *row)
{
	if (!row[TP_CMP_OFF].ran || !row[TP_CMP_ON].ran)
		return;
	tp_text(m, "the OS's share, interrupts on against off: ");
	tp_cmp_ratio(m, "p99.9", row[TP_CMP_ON].pct[2], row[TP_CMP_OFF].pct[2]);
	tp_text(m, ", ");
	tp_cmp_ratio(m, "max", row[TP_CMP_ON].pct[3], row[TP_CMP_OFF].pct[3]);
	tp_text(m, ", ");
	tp_cmp_ratio(m, "events/s", row[TP_CMP_ON].events_per_s,
		     row[TP_CMP_OFF].events_per_s);
	tp_text(m, "\n");
}

/* The comparison, text or JSON as asked. */
static void tp_cmp_report(const struct tp_cmp *c, unsigned int nran)
{
	const struct tp_result *user = &c->res[TP_CMP_USER];
	struct tp_model *m = tp_model_new(user, c->out, NULL);
	char cpus[256], dur[32], thr[32];

	tp_cpuset_format(c->kernel->cpus, cpus, sizeof(cpus));
	tp_format_ns(c->kernel->p->duration_ns, dur, sizeof(dur));
	tp_format_ns(user->p.threshold_ns, thr, sizeof(thr));
	tp_text(m, "noise --compare on CPUs %s, %s each, tsc %u kHz, events are gaps >= %s\n",
		cpus, dur, user->tsc_khz, thr);
	tp_text(m, "%-18s %9s %9s %9s %12s %10s %9s\n", "mode", "p50", "p99",
		"p99.9", "max", "events/s", "coverage");
	tp_table(m, "modes", tp_cmp_cols, TP_ARRAY_SIZE(tp_cmp_cols));
	tp_text(m, "(cycles; events per second and CPU)\n");
	tp_cmp_share(m, c->row);
	tp_str(m, "kind", "noise-compare", NULL);
	tp_report_origin(m);
	tp_u64(m, "tsc_khz", user->tsc_khz, NULL);
	tp_u64(m, "duration_ns", c->kernel->p->duration_ns, NULL);
	tp_u64(m, "threshold_cycles", user->p.threshold_cycles, NULL);
	tp_cpuset(m, "cpus", c->kernel->cpus);
	tp_rows(m, "modes", nran, tp_cmp_mode, c);
	tp_not_in(m, TP_IN_TEXT);
	if (c->out->fmt == TP_FMT_JSON)
		tp_render_json(m, stdout);
	else
		tp_render_text(m, stdout);
	tp_model_free(m);
}

/**
 * tp_noise_compare() - noise --compare
 * @kernel: how the command starts noise in the module: its CPUs and
 *	parameters (duration, width, gap, threshold, clock; --irqs and --user
 *	are refused with --compare), attributes and progress line
 * @out: the format asked for
 *
 * Without the module there is nothing to compare: the command says so and
 * ends before it measures (exit 3), so that a script never takes the
 * userspace engine alone for a comparison.  A mode that fails ends the
 * comparison with its exit code; Ctrl-C ends it too, and what was measured
 * so far is printed.
 *
 * Return: an enum tp_exit.
 */
int tp_noise_compare(const struct tp_start *kernel,
		     const struct tp_output *out)
{
	struct tp_result res[TP_CMP_MODES];
	struct tp_cmp_row row[TP_CMP_MODES];
	struct tp_cmp cmp = { kernel, out, res, row, { 0 } };
	unsigned int m, ran = 0;
	int ret = TP_EXIT_OK;

	if (!tp_nl_family_registered()) {
		fprintf(stderr, "tscprobe module is not loaded: noise --compare measures it against the userspace engine and cannot compare without it: load it with 'modprobe tscprobe', or measure the userspace engine alone with --user\n");
		return TP_EXIT_NOMODULE;
	}
	memset(row, 0, sizeof(row));
	memset(res, 0, sizeof(res));
	for (m = 0; m < TP_CMP_MODES && ret == TP_EXIT_OK; m++) {
		ret = tp_cmp_run(kernel, m, &res[m]);
		if (ret == TP_EXIT_OK || ret == TP_EXIT_INTERRUPTED) {
			tp_cmp_aggregate(&res[m], &row[m]);
			cmp.ran[ran++] = m;
		}
	}
	if (ran && (ret == TP_EXIT_OK || ret == TP_EXIT_INTERRUPTED))
		tp_cmp_report(&cmp, ran);
	for (m = 0; m < TP_CMP_MODES; m++)
		tp_result_free(&res[m]);
	return ret;
}
