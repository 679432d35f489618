// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe show: the module's last results, printed again in any format.
 */
#include <getopt.h>
#include <stdio.h>

#include "user/commands.h"
#include "user/lib/context.h"
#include "user/lib/decode.h"
#include "user/lib/format.h"
#include "core/names.h"
#include "user/lib/nl.h"
#include "user/lib/limits.h"
#include "user/lib/options.h"
#include "user/reports.h"

static const char tp_show_usage[] =
	"usage: tscprobe show [noise|cache|skew] [OPTIONS]\n"
	"\n"
	"Print the module's last results again (as the measuring command did).\n"
	"Naming the measurement makes the command fail (exit 6) when the last\n"
	"results are of another kind.\n"
	"\n"
	"      --fail-above L    judge them as the measuring command does (with the\n"
	"                        measurement named)\n"
	"      --limits FILE     judge them against FILE's lines for their kind\n"
	"  -j, --json            print JSON (or --csv, --prom); --svg FILE: a picture\n"
	"  -v, --verbose         text: every CPU (pair) in full\n"
	"  -h, --help            show this help\n"
	"\n"
	TP_LIMIT_HELP;

/**
 * struct tp_show - show's command line
 * @out: the format, and the limits once settled
 * @lim: --fail-above and --limits as given
 * @limits: the limits they make
 */
struct tp_show {
	struct tp_output out;
	struct tp_limit_opts lim;
	struct tp_limits limits;
};

static int tp_show_report(const struct tp_result *r,
			  const struct tp_output *o)
{
	switch (r->kind) {
	case TSCPROBE_KIND_NOISE:
		return tp_noise_output(r, o, stdout);
	case TSCPROBE_KIND_CACHE:
		return tp_cache_output(r, o, stdout);
	case TSCPROBE_KIND_SKEW:
		return tp_skew_output(r, o, stdout);
	default:
		tp_err("show: cannot show results of kind %u", r->kind);
		return TP_EXIT_FAIL;
	}
}

/* show's options: the output formats and the limits. */
static int tp_show_option(void *ctx, int c, char **argv)
{
	struct tp_show *s = ctx;
	int ret;

	if (!tp_output_option(&s->out, c, optarg, "show", &ret) &&
	    !tp_limit_option(&s->lim, "show", c, optarg, &ret))
		return tp_bad_option("show", c, argv);
	return ret;
}

/* The limits for results of @kind; TP_EXIT_USAGE (one line) if none. */
static int tp_show_limits(struct tp_show *s, uint32_t kind)
{
	return tp_output_limits(&s->out, &s->lim, "show", kind, &s->limits);
}

/*
 * Before anything is asked of the module: a --fail-above is only
 * understood for a named measurement, and a limits file is checked whole
 * (its lines for the results' kind are taken once they are in).
 */
static int tp_show_check_limits(struct tp_show *s, int want)
{
	struct tp_limits all;
	char err[1024];

	if (want)
		return tp_show_limits(s, (uint32_t)want);
	if (s->lim.nargs)
		return tp_usage_err("show", "--fail-above needs the measurement named, like 'show noise --fail-above 20us'");
	if (s->lim.file && tp_limits_read(s->lim.file, &all, err, sizeof(err)))
		return tp_usage_err("show", "%s", err);
	return TP_EXIT_OK;
}

/* The results as asked, judged when there are limits. */
static int tp_show_results(struct tp_show *s, struct tp_result *r, int want)
{
	int ret;

	r->ctx = tp_context_env(&r->cpus, r->tsc_khz);
	tp_result_group(r);
	if (!want && s->lim.file) {
		ret = tp_show_limits(s, r->kind);
		if (ret)
			return ret;
	}
	return tp_show_report(r, &s->out);
}

/**
 * tp_cmd_show() - the "show" subcommand
 * @argc: argument count
 * @argv: arguments: an optional measurement name, -j
 *
 * Return: an enum tp_exit; TP_EXIT_NORESULT when there are no results (of
 * the named kind), TP_EXIT_OVER_LIMIT when they fail their limits.
 */
int tp_cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		TP_OUTPUT_OPTIONS,
		TP_LIMIT_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tp_show s = { .out = { TP_FMT_TEXT, NULL, false, NULL } };
	struct tp_nl_error error;
	struct tp_result r;
	int want = 0;
	struct tp_nl nl;
	int ret;

	/* No "+": options may follow the measurement ("show noise -j"). */
	ret = tp_getopt(argc, argv, ":jvh", opts, tp_show_usage, tp_show_option,
			&s);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	if (optind < argc) {
		want = tp_name_lookup(tp_kind_name, TSCPROBE_KIND_MAX,
				      argv[optind]);
		if (want <= 0)
			return tp_usage_err("show", "unknown measurement '%s'",
					    argv[optind]);
		optind++;
	}
	ret = tp_no_more_args("show", argc, argv);
	if (!ret)
		ret = tp_show_check_limits(&s, want);
	if (ret)
		return ret;
	ret = tp_nl_open(&nl);
	if (ret)
		return ret;
	tp_result_init(&r, 0);
	if (tp_result_fetch(&nl, 0, &r, &error)) {
		ret = tp_nl_report("show", &error);
	} else if (want && r.kind != (uint32_t)want) {
		tp_err("show: no %s results (the last run was %s %llu)",
		       tp_kind_name(want), tp_kind_name(r.kind),
		       (unsigned long long)r.run_id);
		ret = TP_EXIT_NORESULT;
	} else {
		ret = tp_show_results(&s, &r, want);
	}
	tp_result_free(&r);
	tp_nl_close(&nl);
	return ret;
}
