// SPDX-License-Identifier: GPL-2.0
/*
 * The run's own metrics, at the top of every Prometheus report.
 *
 * The run's labels (kind, engine, state, stop reason, run id, kernel
 * release, tscprobe version, host) sit on one info metric whose value is
 * always 1, as node_exporter's node_uname_info does, and not on every
 * series: a run id on every series would make every run a new set of time
 * series.  A query joins them where it needs them, e.g.
 *   tscprobe_noise_gap_cycles * on(instance) group_left(kernel)
 *     tscprobe_run_info
 */
#include <inttypes.h>

#include "env.h"
#include "format.h"
#include "core/names.h"
#include "prom_run.h"

static void tp_prom_run_info(const struct tp_result *r, FILE *f)
{
	char kernel[128], host[128], run_id[24], labels[640];

	tp_env_sys_line("/proc/sys/kernel/osrelease", kernel, sizeof(kernel));
	tp_env_sys_line("/proc/sys/kernel/hostname", host, sizeof(host));
	snprintf(run_id, sizeof(run_id), "%" PRIu64, r->run_id);
	tp_prom_labels(labels, sizeof(labels), "kind", tp_kind_name(r->kind),
		       "engine", tp_result_engine(r),
		       "state", tp_state_name(r->state),
		       "stop_reason", tp_stop_reason_name(r->reason),
		       "run_id", run_id, "kernel", kernel,
		       "version", TSCPROBE_VERSION, "host", host, NULL);
	tp_prom_family(f, "tscprobe_run_info", "gauge",
		       "The run this file describes, as labels; always 1.");
	tp_prom_u64(f, "tscprobe_run_info", labels, 1);
}

/**
 * tp_prom_run() - the families every Prometheus report starts with
 * @r: the results
 * @f: where to
 *
 * tscprobe_run_info (the run's labels), tscprobe_run_elapsed_seconds and
 * tscprobe_tsc_frequency_hertz, which turns any *_cycles series into
 * seconds (cycles / hertz).
 */
void tp_prom_run(const struct tp_result *r, FILE *f)
{
	tp_prom_run_info(r, f);
	tp_prom_family(f, "tscprobe_run_elapsed_seconds", "gauge",
		       "How long the run took.");
	tp_prom_double(f, "tscprobe_run_elapsed_seconds", NULL,
		       (double)r->elapsed_ns / 1e9);
	if (!r->tsc_khz)
		return;		/* unknown: no sample, never a 0 */
	tp_prom_family(f, "tscprobe_tsc_frequency_hertz", "gauge",
		       "TSC rate: a *_cycles value over this is seconds.");
	tp_prom_u64(f, "tscprobe_tsc_frequency_hertz", NULL,
		    (uint64_t)r->tsc_khz * 1000);
}
