// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's own threads off the measured CPUs.  Its main thread wakes
 * every 250 ms for the progress line, waits for the module's replies and
 * notifications, and drives the userspace skew engine's pairs: on a
 * measured CPU each wake-up is time taken from the measurement (an IPI and
 * a context switch in a gap, noise itself with interrupts on).  So before
 * a run it moves itself to the online CPUs that are not measured (within
 * the affinity it was given, where that leaves any), as rtla's -H and
 * oslat's main-thread affinity do; threads it creates later inherit that,
 * and the userspace engines' measuring threads are created with their own
 * CPU.  When every online CPU is measured there is nowhere else to go, and
 * the report says so.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/json_write.h"
#include "user/lib/placement.h"

/* A tp_cpuset as a cpu_set_t of TP_MAX_CPUS CPUs (allocated). */
static cpu_set_t *tp_cpu_set_of(const struct tp_cpuset *s)
{
	cpu_set_t *set = CPU_ALLOC(TP_MAX_CPUS);
	int cpu = -1;

	if (!set)
		return NULL;
	CPU_ZERO_S(CPU_ALLOC_SIZE(TP_MAX_CPUS), set);
	while ((cpu = tp_cpuset_next(s, cpu)) >= 0)
		CPU_SET_S((size_t)cpu, CPU_ALLOC_SIZE(TP_MAX_CPUS), set);
	return set;
}

/* The CPUs the calling thread may run on; false when unknown. */
static bool tp_allowed_cpus(struct tp_cpuset *s)
{
	size_t size = CPU_ALLOC_SIZE(TP_MAX_CPUS);
	cpu_set_t *set = CPU_ALLOC(TP_MAX_CPUS);
	unsigned int cpu;
	bool ok;

	memset(s, 0, sizeof(*s));
	if (!set)
		return false;
	ok = !sched_getaffinity(0, size, set);
	for (cpu = 0; ok && cpu < TP_MAX_CPUS; cpu++)
		if (CPU_ISSET_S(cpu, size, set))
			tp_cpuset_add(s, cpu);
	CPU_FREE(set);
	return ok;
}

/*
 * Every thread of the process to @s: the CLI has only its main thread
 * when it places itself, but a library may have started one.
 */
static int tp_set_all_threads(const struct tp_cpuset *s)
{
	size_t size = CPU_ALLOC_SIZE(TP_MAX_CPUS);
	cpu_set_t *set = tp_cpu_set_of(s);
	struct dirent *d;
	DIR *dir;
	int err = 0;

	if (!set)
		return ENOMEM;
	if (sched_setaffinity(0, size, set))
		err = errno;
	dir = opendir("/proc/self/task");
	while (!err && dir && (d = readdir(dir))) {
		pid_t tid = (pid_t)atoi(d->d_name);

		if (tid > 0 && sched_setaffinity(tid, size, set) && errno != ESRCH)
			err = errno;
	}
	if (dir)
		closedir(dir);
	CPU_FREE(set);
	return err;
}

/**
 * tp_cli_place() - move the CLI's own threads off the measured CPUs
 * @measured: the CPUs the run measures
 * @pl: where the CLI runs from now on, for the report
 */
void tp_cli_place(const struct tp_cpuset *measured, struct tp_placement *pl)
{
	struct tp_cpuset online, allowed, others, want;
	int cpu = -1, err;

	memset(pl, 0, sizeof(*pl));
	pl->known = true;
	if (!tp_allowed_cpus(&allowed) || tp_online_cpus(&online)) {
		snprintf(pl->why, sizeof(pl->why), "its CPUs cannot be read");
		return;
	}
	pl->cpus = allowed;
	memset(&others, 0, sizeof(others));
	memset(&want, 0, sizeof(want));
	while ((cpu = tp_cpuset_next(&online, cpu)) >= 0) {
		if (tp_cpuset_has(measured, (unsigned int)cpu))
			continue;
		tp_cpuset_add(&others, (unsigned int)cpu);
		if (tp_cpuset_has(&allowed, (unsigned int)cpu))
			tp_cpuset_add(&want, (unsigned int)cpu);
	}
	if (!tp_cpuset_count(&others))
		return;		/* every online CPU is measured */
	if (!tp_cpuset_count(&want))
		want = others;	/* its affinity held measured CPUs only */
	err = tp_set_all_threads(&want);
	if (err) {
		snprintf(pl->why, sizeof(pl->why), "cannot move: %s",
			 strerror(err));
		return;
	}
	pl->cpus = want;
	pl->apart = true;
}

/**
 * tp_placement_text() - "cli: ran on CPU 0, apart from the measured CPUs",
 *	and "threads: SCHED_FIFO priority 50 ..." when --priority raised them
 * @pl: the placement (nothing is printed unless it is known)
 * @f: where to
 */
void tp_placement_text(const struct tp_placement *pl, FILE *f)
{
	char cpus[256];

	if (!pl->known)
		return;
	tp_cpuset_format(&pl->cpus, cpus, sizeof(cpus));
	if (pl->apart)
		fprintf(f, "cli: ran on CPU%s %s, apart from the measured CPUs\n",
			tp_cpuset_count(&pl->cpus) == 1 ? "" : "s", cpus);
	else if (!*pl->why)
		fprintf(f, "cli: ran on CPU%s %s, among the measured CPUs: no other CPU is online\n",
			tp_cpuset_count(&pl->cpus) == 1 ? "" : "s", cpus);
	else
		fprintf(f, "cli: ran on CPU%s %s, maybe among the measured CPUs: %s\n",
			tp_cpuset_count(&pl->cpus) == 1 ? "" : "s", cpus,
			pl->why);
	if (pl->priority)
		fprintf(f, "threads: SCHED_FIFO priority %u on the measured CPUs (--priority)\n",
			pl->priority);
}

/**
 * tp_placement_json() - "cli": {cpus, apart, why} (null: not known), and
 *	"fifo_priority" of the measuring threads (null: not raised)
 * @pl: the placement
 * @j: the writer, inside the report's top-level object
 */
void tp_placement_json(const struct tp_placement *pl, struct jw *j)
{
	if (!pl->known) {
		jw_null(j, "cli");
	} else {
		jw_obj(j, "cli");
		jw_cpuset(j, "cpus", &pl->cpus);
		jw_bool(j, "apart", pl->apart);
		if (pl->apart)
			jw_null(j, "why");
		else
			jw_str(j, "why", *pl->why ? pl->why :
			       "no other CPU is online");
		jw_obj_end(j);
	}
	if (pl->priority)
		jw_u64(j, "fifo_priority", pl->priority);
	else
		jw_null(j, "fifo_priority");
}
