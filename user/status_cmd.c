// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe status, stop and show: the current run and the last results.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lib/json.h"
#include "core/names.h"
#include "lib/nl.h"
#include "lib/module_run.h"
#include "lib/options.h"

static const char tp_status_usage[] =
	"usage: tscprobe status [-j]\n"
	"\n"
	"Show the module's run state: what runs (or ran last), for how long, and\n"
	"each CPU's progress.\n"
	"\n"
	"  -j, --json   print JSON\n"
	"  -h, --help   show this help\n";

static const char tp_stop_usage[] =
	"usage: tscprobe stop\n"
	"\n"
	"End the current run within one window and wait until it has ended; its\n"
	"results stay readable with 'tscprobe show'.  Exits 6 when nothing runs,\n"
	"1 when the run has not ended in time.\n"
	"\n"
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
	struct tj j;
	unsigned int i;

	tj_init(&j, stdout);
	tj_obj(&j, NULL);
	tj_str(&j, "state", tp_state_name(st->state));
	tj_u64(&j, "run_id", st->run_id);
	if (st->run_id) {
		tj_str(&j, "kind", tp_kind_name(st->kind));
		tj_str(&j, "stop_reason", tp_stop_reason_name(st->reason));
		tj_u64(&j, "elapsed_ns", st->elapsed_ns);
		tj_u64(&j, "duration_ns", st->p.duration_ns);
		if (st->kind == TSCPROBE_KIND_SKEW) {
			tj_u64(&j, "pairs_done", st->pairs_done);
			tj_u64(&j, "pairs_total", st->pairs_total);
		}
		tj_arr(&j, "cpus");
		for (i = 0; i < st->ncpus; i++) {
			const struct tp_cpu_res *c = &st->cpu[i];

			tj_obj(&j, NULL);
			tj_u64(&j, "cpu", c->cpu);
			tj_bool(&j, "done", c->flags & TSCPROBE_CPU_F_DONE);
			tj_bool(&j, "incomplete",
				c->flags & TSCPROBE_CPU_F_INCOMPLETE);
			tj_bool(&j, "starved",
				c->flags & TSCPROBE_CPU_F_STARVED);
			tj_u64(&j, "samples",
			       c->series[TSCPROBE_SERIES_GAP].stats.count);
			tj_u64(&j, "max_cycles",
			       c->series[TSCPROBE_SERIES_GAP].stats.max);
			if (st->kind == TSCPROBE_KIND_CACHE)
				tj_u64(&j, "rounds", c->rounds);
			tj_obj_end(&j);
		}
		tj_arr_end(&j);
	}
	tj_obj_end(&j);
	tj_finish(&j);
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

/*
 * How long "stop" waits for the run to end: the module moves a thread that
 * cannot get its CPU away two windows, a gap and 2 s after STOP, and it
 * then finishes its window elsewhere; 3 s more for the scheduler.
 */
static uint64_t tp_stop_timeout_ns(const struct tp_result *st)
{
	return 3 * st->p.width_ns + 2 * st->p.gap_ns + 5000000000ULL;
}

/* STOP, then wait for the end of the run it stopped. */
static int tp_stop_and_wait(struct tp_nl *ev, struct tp_nl *req)
{
	struct tp_nl_error error;
	struct tp_result st;
	int ret;

	if (tp_nl_join_events(ev)) {
		tp_err("cannot join the module's events group: %s",
		       strerror(errno));
		return TP_EXIT_FAIL;
	}
	tp_result_init(&st, 0);
	/* Joined first: its RUN_FINISHED cannot come before the wait. */
	if (tp_fetch_status(req, &st, &error)) {
		ret = tp_nl_report("stop", &error);
		goto out;
	}
	if (tp_nl_talk(req, tp_nl_request(req, TSCPROBE_CMD_STOP, false),
		       NULL, NULL, &error)) {
		ret = tp_nl_report("stop", &error);
		goto out;
	}
	ret = tp_wait_run_end(ev, req, st.run_id, tp_stop_timeout_ns(&st));
	if (ret == -ETIMEDOUT)
		tp_err("stop: run %llu has not ended yet",
		       (unsigned long long)st.run_id);
	else if (ret)
		tp_err("stop: waiting for run %llu to end: %s",
		       (unsigned long long)st.run_id, strerror(-ret));
	ret = ret ? TP_EXIT_FAIL : TP_EXIT_OK;
out:
	tp_result_free(&st);
	return ret;
}

/**
 * tp_cmd_stop() - the "stop" subcommand
 * @argc: argument count
 * @argv: arguments
 *
 * Return: an enum tp_exit; TP_EXIT_NORESULT when nothing runs.
 */
int tp_cmd_stop(int argc, char **argv)
{
	struct tp_nl *ev = NULL, *req = NULL;
	int ret;

	ret = tp_simple_opts("stop", tp_stop_usage, argc, argv, NULL);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	ev = calloc(1, sizeof(*ev));
	req = calloc(1, sizeof(*req));
	if (!ev || !req) {
		tp_err("out of memory");
		ret = TP_EXIT_FAIL;
		goto out;
	}
	ret = tp_nl_open(req);
	if (ret)
		goto out;
	ret = tp_nl_open(ev);
	if (ret) {
		tp_nl_close(req);
		goto out;
	}
	ret = tp_stop_and_wait(ev, req);
	tp_nl_close(ev);
	tp_nl_close(req);
out:
	free(ev);
	free(req);
	return ret;
}
