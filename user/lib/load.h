/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bounded load on other CPUs while noise or cache measures (--load,
 * --load-cpus): noise and latency under memory pressure, as MLC's loaded
 * latency and oslat's -w memmove show them.  One thread per load CPU,
 * pinned there, started before the run and stopped (within a chunk of
 * work, about a millisecond) when it ends; the report says what ran where
 * and how much it did.
 */
#ifndef TSCPROBE_USER_LOAD_H
#define TSCPROBE_USER_LOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "user/lib/cpuset.h"

struct jw;

/** enum tp_load_kind - what a load thread does */
enum tp_load_kind {
	TP_LOAD_NONE,
	TP_LOAD_MEMMOVE,	/* copy between two buffers larger than any LLC */
	TP_LOAD_STREAM,		/* STREAM's triad: a = b + s * c */
	TP_LOAD_CPU,		/* integer arithmetic, no memory traffic */
};

/* getopt values of the options. */
enum { TP_OPT_LOAD = 1400, TP_OPT_LOAD_CPUS };

#define TP_LOAD_OPTIONS							\
	{ "load", required_argument, NULL, TP_OPT_LOAD },		\
	{ "load-cpus", required_argument, NULL, TP_OPT_LOAD_CPUS }

/**
 * struct tp_load_opts - the load asked for
 * @kind: enum tp_load_kind (TP_LOAD_NONE: no --load)
 * @cpus: --load-cpus
 * @cpus_given: --load-cpus was given
 */
struct tp_load_opts {
	unsigned int kind;
	struct tp_cpuset cpus;
	bool cpus_given;
};

/**
 * struct tp_load_report - what a load did, for the report
 * @kind: enum tp_load_kind (TP_LOAD_NONE: no load ran)
 * @cpus: its CPUs
 * @bytes: memory read and written, over every thread (0 for cpu)
 * @loops: chunks of work done, over every thread
 * @ns: how long it ran
 * @misplaced: chunks a thread did away from its CPU (never, pinned)
 */
struct tp_load_report {
	unsigned int kind;
	struct tp_cpuset cpus;
	uint64_t bytes;
	uint64_t loops;
	uint64_t ns;
	uint64_t misplaced;
};

struct tp_load;

bool tp_load_option(struct tp_load_opts *o, const char *cmd, int c,
		    const char *arg, int *ret);
int tp_load_check(const struct tp_load_opts *o, const char *cmd,
		  const struct tp_cpuset *measured);
int tp_load_start(struct tp_load **l, const struct tp_load_opts *o);
void tp_load_stop(struct tp_load *l, struct tp_load_report *r);
const char *tp_load_name(unsigned int kind);
void tp_load_text(const struct tp_load_report *r, FILE *f);
void tp_load_json(const struct tp_load_report *r, struct jw *j);

#endif /* TSCPROBE_USER_LOAD_H */
