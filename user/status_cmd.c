// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe status: the module's current run and its progress.
 */
#include <getopt.h>
#include <stdio.h>

#include "user/commands.h"
#include "user/lib/json_write.h"
#include "core/names.h"
#include "user/lib/decode.h"
#include "user/lib/nl.h"
#include "user/lib/module_run.h"
#include "user/lib/options.h"
#include "user/lib/format.h"

static const char tp_status_usage[] =
	"usage: tscprobe status [-j]\n"
	"\n"
	"Show the module's run state: what runs (or ran last), for how long, and\n"
	"each CPU's progress.\n"
	"\n"
	"  -j, --json   print JSON\n"
	"  -h, --help   show this help\n";

static void tp_status_text(const struct tp_result *st)
{
	char el[32], total[32];
	unsigned int i;

	printf("state: %s", tp_state_name(st->state));
	if (!st->run_id) {
		printf("\n");
		return;
	}
	tp_format_ns(st->elapsed_ns, el, sizeof(el));
	printf(" (run %llu, %s", (unsigned long long)st->run_id,
	       tp_kind_name(st->kind));
	if (st->kind == TSCPROBE_KIND_NOISE) {
		tp_format_ns(st->p.duration_ns, total, sizeof(total));
		printf(", %s of %s", el, total);
	} else if (st->kind == TSCPROBE_KIND_SKEW) {
		printf(", %s, %u/%u pairs", el, st->pairs_done,
		       st->pairs_total);
	} else {
		printf(", %s", el);
	}
	if (st->state != TSCPROBE_STATE_RUNNING)
		printf(", %s", tp_stop_reason_name(st->reason));
	printf(")\n");
	for (i = 0; i < st->ncpus; i++) {
		const struct tp_cpu_res *c = &st->cpu[i];
		const char *why;

		if (st->kind == TSCPROBE_KIND_SKEW) {
			why = tp_cpu_incomplete_why(c, 1);
			printf("cpu %u: %s%s%s\n", c->cpu,
			       c->flags & TSCPROBE_CPU_F_DONE ? "done" : "running",
			       *why ? ", " : "", why);
			continue;
		}
		printf("cpu %u: %s", c->cpu,
		       c->flags & TSCPROBE_CPU_F_DONE ? "done" : "running");
		if (st->kind == TSCPROBE_KIND_CACHE)
			printf(", %llu of %llu rounds", (unsigned long long)c->rounds,
			       (unsigned long long)st->p.rounds);
		else
			printf(", %llu samples, worst gap %llu cycles",
			       (unsigned long long)c->series[TSCPROBE_SERIES_GAP].stats.count,
			       (unsigned long long)c->series[TSCPROBE_SERIES_GAP].stats.max);
		why = tp_cpu_incomplete_why(c, st->kind != TSCPROBE_KIND_NOISE ||
					    c->series[TSCPROBE_SERIES_GAP].stats.count);
		printf("%s%s%s\n", *why ? ", incomplete (" : "", why,
		       *why ? ")" : "");
	}
}

static void tp_status_json(const struct tp_result *st)
{
	struct jw j;
	unsigned int i;

	jw_init(&j, stdout);
	jw_obj(&j, NULL);
	jw_str(&j, "state", tp_state_name(st->state));
	jw_u64(&j, "run_id", st->run_id);
	if (st->run_id) {
		jw_str(&j, "kind", tp_kind_name(st->kind));
		jw_str(&j, "stop_reason", tp_stop_reason_name(st->reason));
		jw_u64(&j, "elapsed_ns", st->elapsed_ns);
		jw_u64(&j, "duration_ns", st->p.duration_ns);
		if (st->kind == TSCPROBE_KIND_SKEW) {
			jw_u64(&j, "pairs_done", st->pairs_done);
			jw_u64(&j, "pairs_total", st->pairs_total);
		}
		jw_arr(&j, "cpus");
		for (i = 0; i < st->ncpus; i++) {
			const struct tp_cpu_res *c = &st->cpu[i];

			jw_obj(&j, NULL);
			jw_u64(&j, "cpu", c->cpu);
			jw_bool(&j, "done", c->flags & TSCPROBE_CPU_F_DONE);
			jw_bool(&j, "incomplete",
				c->flags & TSCPROBE_CPU_F_INCOMPLETE);
			jw_bool(&j, "starved",
				c->flags & TSCPROBE_CPU_F_STARVED);
			jw_bool(&j, "held", c->flags & TSCPROBE_CPU_F_HELD);
			jw_u64(&j, "samples",
			       c->series[TSCPROBE_SERIES_GAP].stats.count);
			jw_u64(&j, "max_cycles",
			       c->series[TSCPROBE_SERIES_GAP].stats.max);
			if (st->kind == TSCPROBE_KIND_CACHE)
				jw_u64(&j, "rounds", c->rounds);
			jw_obj_end(&j);
		}
		jw_arr_end(&j);
	}
	jw_obj_end(&j);
	jw_finish(&j);
}

/**
 * tp_cmd_status() - the "status" subcommand
 * @argc: argument count
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_status(int argc, char **argv)
{
	struct tp_nl_error error;
	struct tp_result st;
	bool json = false;
	struct tp_nl nl;
	int ret;

	ret = tp_simple_opts("status", tp_status_usage, argc, argv, &json);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	ret = tp_nl_open(&nl);
	if (ret)
		return ret;
	tp_result_init(&st, 0);
	if (tp_fetch_status(&nl, &st, &error))
		ret = tp_nl_report("status", &error);
	else if (json)
		tp_status_json(&st);
	else
		tp_status_text(&st);
	tp_result_free(&st);
	tp_nl_close(&nl);
	return ret;
}
