// SPDX-License-Identifier: GPL-2.0
/*
 * The load beside a measurement (load.h).  Each thread works in chunks of
 * TP_LOAD_CHUNK bytes (or TP_LOAD_SPINS steps) and looks at the stop flag
 * between two, so it ends within about a millisecond of the run; its
 * memory is allocated and touched before the run starts, so that no page
 * fault of the load falls inside the measurement.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "user/lib/json_write.h"
#include "user/lib/load.h"
#include "user/lib/cli.h"
#include "user/lib/cpuset.h"

/*
 * Per thread: memmove copies between two 32 MiB buffers, stream's triad
 * walks three 16 MiB arrays; both are larger than one L3 slice, so the
 * traffic reaches memory.
 */
#define TP_MEMMOVE_BYTES	(32u << 20)
#define TP_STREAM_BYTES		(16u << 20)
#define TP_LOAD_CHUNK		(1u << 20)
#define TP_LOAD_SPINS		(1u << 20)

static const char *const tp_load_names[] = {
	[TP_LOAD_NONE] = "none",
	[TP_LOAD_MEMMOVE] = "memmove",
	[TP_LOAD_STREAM] = "stream",
	[TP_LOAD_CPU] = "cpu",
};

/**
 * struct tp_load_thread - one load thread
 * @load: the load it belongs to
 * @cpu: the CPU it is pinned to
 * @tid: its thread
 * @a: its buffers (NULL for cpu)
 * @b: second buffer
 * @c: third (stream)
 * @bytes: memory it read and wrote
 * @loops: chunks it did
 * @misplaced: chunks it did away from @cpu
 * @started: the thread was created (and must be joined)
 */
struct tp_load_thread {
	struct tp_load *load;
	unsigned int cpu;
	pthread_t tid;
	char *a;
	char *b;
	char *c;
	uint64_t bytes;
	uint64_t loops;
	uint64_t misplaced;
	bool started;
};

/**
 * struct tp_load - a load running
 * @kind: enum tp_load_kind
 * @cpus: its CPUs
 * @stop: set when the run is over
 * @t0_ns: when the threads were started (CLOCK_MONOTONIC)
 * @n: entries in @t
 * @t: the threads
 */
struct tp_load {
	unsigned int kind;
	struct tp_cpuset cpus;
	atomic_bool stop;
	uint64_t t0_ns;
	unsigned int n;
	struct tp_load_thread t[];
};

static uint64_t tp_load_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/**
 * tp_load_name() - a load's name, as --load takes it
 * @kind: enum tp_load_kind
 *
 * Return: the name ("none" for TP_LOAD_NONE).
 */
const char *tp_load_name(unsigned int kind)
{
	return kind <= TP_LOAD_CPU ? tp_load_names[kind] : "?";
}

/**
 * tp_load_option() - take --load or --load-cpus
 * @o: the options, updated
 * @cmd: the subcommand, for errors
 * @c: what getopt_long() returned
 * @arg: the option's value
 * @ret: set to the option's enum tp_exit when it was one of them
 *
 * Return: true when @c was one of them.
 */
bool tp_load_option(struct tp_load_opts *o, const char *cmd, int c,
		    const char *arg, int *ret)
{
	unsigned int k;

	if (c == TP_OPT_LOAD_CPUS) {
		o->cpus_given = true;
		*ret = tp_cpus_option(cmd, arg, &o->cpus);
		return true;
	}
	if (c != TP_OPT_LOAD)
		return false;
	for (k = TP_LOAD_MEMMOVE; k <= TP_LOAD_CPU; k++)
		if (!strcmp(arg, tp_load_names[k])) {
			o->kind = k;
			*ret = TP_EXIT_OK;
			return true;
		}
	*ret = tp_usage_err(cmd, "--load '%s': give memmove, stream or cpu", arg);
	return true;
}

/**
 * tp_load_check() - refuse a load that cannot run beside @measured
 * @o: the load asked for
 * @cmd: the subcommand, for errors
 * @measured: the CPUs to be measured (settled: every online one without -c)
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE (one line printed).
 */
int tp_load_check(const struct tp_load_opts *o, const char *cmd,
		  const struct tp_cpuset *measured)
{
	struct tp_cpuset online;
	int cpu = -1;

	if (o->kind == TP_LOAD_NONE)
		return o->cpus_given ?
		       tp_usage_err(cmd, "--load-cpus needs --load") : TP_EXIT_OK;
	if (!o->cpus_given)
		return tp_usage_err(cmd, "--load needs --load-cpus: the CPUs it runs on");
	while ((cpu = tp_cpuset_next(&o->cpus, cpu)) >= 0)
		if (tp_cpuset_has(measured, (unsigned int)cpu))
			return tp_usage_err(cmd, "CPU %d is both measured and loaded: give -c and --load-cpus apart",
					    cpu);
	if (tp_online_cpus(&online))
		memset(&online, 0, sizeof(online));
	return tp_check_cpus_in(cmd, "--load-cpus", &o->cpus, &online,
				"online");
}

/* One chunk of work; returns the bytes it read and wrote. */
static uint64_t tp_load_chunk(struct tp_load_thread *t, size_t *at,
			      uint64_t *seed)
{
	size_t i, n = TP_LOAD_CHUNK / sizeof(double);
	double *a, *b, *c;

	switch (t->load->kind) {
	case TP_LOAD_MEMMOVE:
		memmove(t->b + *at, t->a + *at, TP_LOAD_CHUNK);
		*at = (*at + TP_LOAD_CHUNK) % TP_MEMMOVE_BYTES;
		if (!*at) {	/* the other way round next time */
			char *s = t->a;

			t->a = t->b;
			t->b = s;
		}
		return 2ull * TP_LOAD_CHUNK;
	case TP_LOAD_STREAM:
		a = (double *)(t->a + *at);
		b = (double *)(t->b + *at);
		c = (double *)(t->c + *at);
		for (i = 0; i < n; i++)
			a[i] = b[i] + 3.0 * c[i];
		*at = (*at + TP_LOAD_CHUNK) % TP_STREAM_BYTES;
		return 3ull * TP_LOAD_CHUNK;
	default:
		for (i = 0; i < TP_LOAD_SPINS; i++) {
			*seed ^= *seed << 13;
			*seed ^= *seed >> 7;
			*seed ^= *seed << 17;
		}
		return 0;
	}
}

static void *tp_load_thread_fn(void *arg)
{
	struct tp_load_thread *t = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull + t->cpu;
	size_t at = 0;

	while (!atomic_load_explicit(&t->load->stop, memory_order_relaxed)) {
		t->bytes += tp_load_chunk(t, &at, &seed);
		t->loops++;
		if (sched_getcpu() != (int)t->cpu)
			t->misplaced++;
	}
	/* Keeps the arithmetic from being optimised away. */
	if (seed == 0)
		t->loops++;
	return NULL;
}

/* A buffer of @bytes, its pages touched now rather than in the run. */
static char *tp_load_buffer(size_t bytes)
{
	char *p = malloc(bytes);

	if (p)
		memset(p, 1, bytes);
	return p;
}

static int tp_load_buffers(struct tp_load_thread *t, unsigned int kind)
{
	size_t bytes = kind == TP_LOAD_MEMMOVE ? TP_MEMMOVE_BYTES : TP_STREAM_BYTES;

	if (kind == TP_LOAD_CPU)
		return 0;
	t->a = tp_load_buffer(bytes);
	t->b = tp_load_buffer(bytes);
	t->c = kind == TP_LOAD_STREAM ? tp_load_buffer(bytes) : NULL;
	return t->a && t->b && (kind != TP_LOAD_STREAM || t->c) ? 0 : -1;
}

static int tp_load_spawn(struct tp_load_thread *t)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&t->tid, &attr, tp_load_thread_fn, t);
	pthread_attr_destroy(&attr);
	t->started = !err;
	return err;
}

/**
 * tp_load_start() - start the load, before the run
 * @l: set to the running load (NULL when none was asked); stop it with
 *	tp_load_stop() whatever this returns
 * @o: the load asked for (NULL: none)
 *
 * Return: TP_EXIT_OK, or TP_EXIT_FAIL (one line printed) when its memory
 * or a thread could not be had.
 */
int tp_load_start(struct tp_load **l, const struct tp_load_opts *o)
{
	unsigned int n = 0;
	int cpu = -1, err;

	*l = NULL;
	if (!o || o->kind == TP_LOAD_NONE)
		return TP_EXIT_OK;
	*l = calloc(1, sizeof(**l) + tp_cpuset_count(&o->cpus) *
			       sizeof((*l)->t[0]));
	if (!*l)
		goto nomem;
	(*l)->kind = o->kind;
	(*l)->cpus = o->cpus;
	atomic_init(&(*l)->stop, false);
	while ((cpu = tp_cpuset_next(&o->cpus, cpu)) >= 0) {
		struct tp_load_thread *t = &(*l)->t[n++];

		(*l)->n = n;
		t->load = *l;
		t->cpu = (unsigned int)cpu;
		if (tp_load_buffers(t, o->kind))
			goto nomem;
	}
	(*l)->t0_ns = tp_load_now_ns();
	for (n = 0; n < (*l)->n; n++) {
		err = tp_load_spawn(&(*l)->t[n]);
		if (err) {
			tp_err("--load: no thread on CPU %u: %s", (*l)->t[n].cpu,
			       strerror(err));
			return TP_EXIT_FAIL;
		}
	}
	return TP_EXIT_OK;
nomem:
	tp_err("--load %s: not enough memory for its buffers", tp_load_name(o->kind));
	return TP_EXIT_FAIL;
}

/**
 * tp_load_stop() - stop the load and say what it did
 * @l: the load (NULL: none; freed)
 * @r: filled in (kind TP_LOAD_NONE when no load ran)
 */
void tp_load_stop(struct tp_load *l, struct tp_load_report *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	if (!l)
		return;
	atomic_store(&l->stop, true);
	r->kind = l->kind;
	r->cpus = l->cpus;
	r->ns = tp_load_now_ns() - l->t0_ns;
	for (i = 0; i < l->n; i++) {
		struct tp_load_thread *t = &l->t[i];

		if (t->started)
			pthread_join(t->tid, NULL);
		r->bytes += t->bytes;
		r->loops += t->loops;
		r->misplaced += t->misplaced;
		free(t->a);
		free(t->b);
		free(t->c);
	}
	free(l);
}

/**
 * tp_load_text() - "load: ..." in a text report, when a load ran
 * @r: what it did
 * @f: where to
 */
void tp_load_text(const struct tp_load_report *r, FILE *f)
{
	double s = (double)r->ns / 1e9;
	char who[224];

	if (r->kind == TP_LOAD_NONE)
		return;
	tp_cpuset_who(&r->cpus, who, sizeof(who));
	fprintf(f, "load: %s on %s for %.2f s", tp_load_name(r->kind), who, s);
	if (r->kind != TP_LOAD_CPU && s > 0)
		fprintf(f, ", %.2f GB/s", (double)r->bytes / 1e9 / s);
	fprintf(f, "\n");
}

/**
 * tp_load_json() - the report's "load" object (null: none ran)
 * @r: what it did
 * @j: the writer, inside the report's top-level object
 */
void tp_load_json(const struct tp_load_report *r, struct jw *j)
{
	if (r->kind == TP_LOAD_NONE) {
		jw_null(j, "load");
		return;
	}
	jw_obj(j, "load");
	jw_str(j, "kind", tp_load_name(r->kind));
	jw_cpuset(j, "cpus", &r->cpus);
	jw_u64(j, "elapsed_ns", r->ns);
	jw_u64(j, "bytes", r->bytes);
	jw_u64(j, "chunks", r->loops);
	jw_u64(j, "misplaced_chunks", r->misplaced);
	jw_obj_end(j);
}
