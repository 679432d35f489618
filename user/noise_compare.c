// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe noise --compare: the same CPUs measured three ways, back to back
 * (the module with interrupts off, with them on, and the userspace engine),
 * and one table that answers the original question: how much of the jitter is
 * the operating system's?
 */
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "lib/json_write.h"
#include "core/names.h"
#include "lib/nl.h"
#include "noise_cmd.h"
#include "reports.h"
#include "core/report.h"
#include "lib/format.h"

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

/* Run one mode; its results go to @res. */
static int tp_cmp_run(const struct tp_noise_cmd *cmd, unsigned int mode,
		      struct tp_result *res)
{
	struct tp_run_params p = cmd->p;
	struct tp_start st = {
		.kind = TSCPROBE_KIND_NOISE,
		.cpus = &cmd->m.cpus,
		.p = &p,
		.put_attrs = tp_noise_put_attrs,
		.expect_ns = p.duration_ns + p.warm_up_ns,
		.progress = tp_noise_progress,
		.quiet = cmd->m.quiet,
	};

	tp_result_init(res, TSCPROBE_KIND_NOISE);
	if (mode == TP_CMP_USER)
		return tp_user_noise(&cmd->m.cpus, &p, cmd->m.quiet, res);
	p.irqs = mode == TP_CMP_OFF ? TSCPROBE_IRQS_OFF : TSCPROBE_IRQS_ON;
	return tp_run_kernel(&st, res);
}

static void tp_cmp_ratio(FILE *f, const char *what, double on, double off)
{
	if (off > 0)
		fprintf(f, "%s x%.1f", what, on / off);
	else
		fprintf(f, "%s %s", what, on > 0 ? "up from 0" : "0 both ways");
}

static void tp_cmp_text(const struct tp_noise_cmd *cmd,
			const struct tp_result *res,
			const struct tp_cmp_row *row, FILE *f)
{
	char cpus[256], dur[32], thr[32];
	unsigned int m, i;

	tp_cpuset_format(&cmd->m.cpus, cpus, sizeof(cpus));
	tp_format_ns(cmd->p.duration_ns, dur, sizeof(dur));
	tp_format_ns(res[TP_CMP_USER].p.threshold_ns, thr, sizeof(thr));
	fprintf(f, "noise --compare on CPUs %s, %s each, tsc %u kHz, events are gaps >= %s\n",
		cpus, dur, res[TP_CMP_USER].tsc_khz, thr);
	fprintf(f, "%-18s %9s %9s %9s %12s %10s %9s\n", "mode", "p50", "p99",
		"p99.9", "max", "events/s", "coverage");
	for (m = 0; m < TP_CMP_MODES; m++) {
		if (!row[m].ran)
			continue;
		fprintf(f, "%-18s", tp_cmp_names[m]);
		for (i = 0; i < 4; i++)
			fprintf(f, " %*llu", i == 3 ? 12 : 9,
				(unsigned long long)row[m].pct[i]);
		fprintf(f, " %10.2f %8.2f%%\n", row[m].events_per_s,
			100.0 * row[m].coverage);
	}
	fprintf(f, "(cycles; events per second and CPU)\n");
	if (!row[TP_CMP_OFF].ran || !row[TP_CMP_ON].ran)
		return;
	fprintf(f, "the OS's share, interrupts on against off: ");
	tp_cmp_ratio(f, "p99.9", row[TP_CMP_ON].pct[2], row[TP_CMP_OFF].pct[2]);
	fprintf(f, ", ");
	tp_cmp_ratio(f, "max", row[TP_CMP_ON].pct[3], row[TP_CMP_OFF].pct[3]);
	fprintf(f, ", ");
	tp_cmp_ratio(f, "events/s", row[TP_CMP_ON].events_per_s,
		     row[TP_CMP_OFF].events_per_s);
	fprintf(f, "\n");
}

static void tp_cmp_json_cpus(struct jw *j, const struct tp_result *r)
{
	struct tp_noise_summary s;
	unsigned int i;

	jw_arr(j, "cpus");
	for (i = 0; i < r->ncpus; i++) {
		tp_noise_summarize(r, &r->cpu[i], &s);
		jw_obj(j, NULL);
		jw_u64(j, "cpu", r->cpu[i].cpu);
		jw_u64(j, "samples", s.samples);
		jw_u64(j, "p50_cycles", s.pct[1]);
		jw_u64(j, "p99_cycles", s.pct[2]);
		jw_u64(j, "p999_cycles", s.pct[3]);
		jw_u64(j, "max_cycles", s.pct[5]);
		jw_u64(j, "events_total", r->cpu[i].events_total);
		jw_double(j, "coverage", s.coverage);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

static void tp_cmp_json(const struct tp_noise_cmd *cmd,
			const struct tp_result *res,
			const struct tp_cmp_row *row, FILE *f)
{
	struct jw j;
	unsigned int m;

	jw_init(&j, f);
	jw_obj(&j, NULL);
	jw_str(&j, "kind", "noise-compare");
	jw_u64(&j, "tsc_khz", res[TP_CMP_USER].tsc_khz);
	jw_u64(&j, "duration_ns", cmd->p.duration_ns);
	jw_u64(&j, "threshold_cycles", res[TP_CMP_USER].p.threshold_cycles);
	jw_cpuset(&j, "cpus", &cmd->m.cpus);
	jw_arr(&j, "modes");
	for (m = 0; m < TP_CMP_MODES; m++) {
		if (!row[m].ran)
			continue;
		jw_obj(&j, NULL);
		jw_str(&j, "mode", tp_cmp_keys[m]);
		jw_str(&j, "engine", m == TP_CMP_USER ? "user" : "kernel");
		jw_str(&j, "irqs", m == TP_CMP_OFF ? "off" : "on");
		jw_u64(&j, "samples", row[m].samples);
		jw_u64(&j, "p50_cycles", row[m].pct[0]);
		jw_u64(&j, "p99_cycles", row[m].pct[1]);
		jw_u64(&j, "p999_cycles", row[m].pct[2]);
		jw_u64(&j, "max_cycles", row[m].pct[3]);
		jw_double(&j, "events_per_second", row[m].events_per_s);
		jw_double(&j, "coverage", row[m].coverage);
		tp_cmp_json_cpus(&j, &res[m]);
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_obj_end(&j);
	jw_finish(&j);
}

/**
 * tp_noise_compare() - noise --compare
 * @cmd: the parsed command line (CPUs, duration, width, gap, threshold,
 *	clock; --irqs and --user are refused with --compare)
 *
 * Without the module there is nothing to compare: the command says so and
 * ends before it measures (exit 3), so that a script never takes the
 * userspace engine alone for a comparison.  A mode that fails ends the
 * comparison with its exit code; Ctrl-C ends it too, and what was measured
 * so far is printed.
 *
 * Return: an enum tp_exit.
 */
int tp_noise_compare(const struct tp_noise_cmd *cmd)
{
	struct tp_result res[TP_CMP_MODES];
	struct tp_cmp_row row[TP_CMP_MODES];
	unsigned int m, ran = 0;
	int ret = TP_EXIT_OK;

	if (!tp_nl_family_registered()) {
		fprintf(stderr, "tscprobe module is not loaded: noise --compare measures it against the userspace engine and cannot compare without it: load it with 'modprobe tscprobe', or measure the userspace engine alone with --user\n");
		return TP_EXIT_NOMODULE;
	}
	memset(row, 0, sizeof(row));
	memset(res, 0, sizeof(res));
	for (m = 0; m < TP_CMP_MODES && ret == TP_EXIT_OK; m++) {
		ret = tp_cmp_run(cmd, m, &res[m]);
		if (ret == TP_EXIT_OK || ret == TP_EXIT_INTERRUPTED) {
			tp_cmp_aggregate(&res[m], &row[m]);
			ran++;
		}
	}
	if (ran && (ret == TP_EXIT_OK || ret == TP_EXIT_INTERRUPTED)) {
		if (cmd->m.out.fmt == TP_FMT_JSON)
			tp_cmp_json(cmd, res, row, stdout);
		else
			tp_cmp_text(cmd, res, row, stdout);
	}
	for (m = 0; m < TP_CMP_MODES; m++)
		tp_result_free(&res[m]);
	return ret;
}
