// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe show: the module's last results, printed again in any format.
 */
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "lib/context.h"
#include "lib/format.h"
#include "core/names.h"
#include "lib/nl.h"
#include "lib/options.h"
#include "reports.h"

static const char tp_show_usage[] =
	"usage: tscprobe show [noise|cache|skew] [-j|--csv|--prom] [--svg FILE] [-v]\n"
	"\n"
	"Print the module's last results again (as the measuring command did).\n"
	"Naming the measurement makes the command fail (exit 6) when the last\n"
	"results are of another kind.\n"
	"\n"
	TP_OUTPUT_USAGE
	"  -h, --help            show this help\n";

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

/* show's options: the output formats only. */
static int tp_show_option(void *ctx, int c, char **argv)
{
	int ret;

	if (!tp_output_option(ctx, c, optarg, "show", &ret))
		return tp_bad_option("show", c, argv);
	return ret;
}

/**
 * tp_cmd_show() - the "show" subcommand
 * @argc: argument count
 * @argv: arguments: an optional measurement name, -j
 *
 * Return: an enum tp_exit; TP_EXIT_NORESULT when there are no results (of
 * the named kind).
 */
int tp_cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		TP_OUTPUT_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tp_output out = { TP_FMT_TEXT, NULL, false };
	struct tp_nl_error error;
	struct tp_result r;
	int want = 0;
	struct tp_nl nl;
	int ret;

	/* No "+": options may follow the measurement ("show noise -j"). */
	ret = tp_getopt(argc, argv, ":jvh", opts, tp_show_usage, tp_show_option,
			&out);
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
		r.ctx = tp_context_env(&r.cpus, r.tsc_khz);
		tp_result_group(&r);
		ret = tp_show_report(&r, &out);
	}
	tp_result_free(&r);
	tp_nl_close(&nl);
	return ret;
}
