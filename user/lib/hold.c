// SPDX-License-Identifier: GPL-2.0
/*
 * Conditions held during a run (hold.h): /dev/cpu_dma_latency and the
 * deepest idle state of the measured CPUs (recorded by idle_record.c).
 * Paths are under $TSCPROBE_SYSROOT like the environment audit's, so that
 * tests can hold them in a synthetic tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "user/lib/env.h"
#include "user/lib/hold.h"
#include "user/lib/idle_record.h"
#include "user/lib/json_write.h"
#include "user/lib/parse.h"
#include "user/lib/cli.h"

/* --dma-latency: a time in whole microseconds, at most TP_DMA_MAX_US; or off. */
static int tp_hold_option_dma(const char *cmd, const char *arg, long *us)
{
	const char *why;
	uint64_t ns;

	if (!strcmp(arg, "off")) {
		*us = TP_DMA_OFF;
		return TP_EXIT_OK;
	}
	if (tp_parse_duration(arg, &ns, &why))
		return tp_usage_err(cmd, "--dma-latency '%s': %s; or off", arg,
				    why);
	if (ns % 1000 || ns / 1000 > TP_DMA_MAX_US)
		return tp_usage_err(cmd, "--dma-latency '%s': must be whole microseconds, 0 to %lds",
				    arg, TP_DMA_MAX_US / 1000000);
	*us = (long)(ns / 1000);
	return TP_EXIT_OK;
}

/* --deepest-idle-state: the index of the deepest state allowed (stateN). */
static int tp_hold_option_idle(const char *cmd, const char *arg, int *state)
{
	const char *why;
	uint64_t v;

	if (tp_parse_u64(arg, 0, TP_IDLE_STATES - 1, &v, &why))
		return tp_usage_err(cmd, "--deepest-idle-state '%s': %s (an idle state's index, stateN in sysfs)",
				    arg, why);
	*state = (int)v;
	return TP_EXIT_OK;
}

/**
 * tp_hold_option() - take --dma-latency or --deepest-idle-state
 * @o: the options, updated
 * @cmd: the subcommand, for errors
 * @c: what getopt_long() returned
 * @arg: the option's value
 * @ret: set to the option's enum tp_exit when it was one of them
 *
 * Return: true when @c was one of them.
 */
bool tp_hold_option(struct tp_hold_opts *o, const char *cmd, int c,
		    const char *arg, int *ret)
{
	if (c == TP_OPT_DMA_LATENCY) {
		o->dma_given = true;
		*ret = tp_hold_option_dma(cmd, arg, &o->dma_latency_us);
		return true;
	}
	if (c == TP_OPT_DEEPEST_IDLE) {
		o->idle_given = true;
		*ret = tp_hold_option_idle(cmd, arg, &o->deepest_idle);
		return true;
	}
	return false;
}

/* The exit code for a condition the system refused: EACCES is root's. */
static int tp_hold_refused(int err)
{
	return err == EACCES || err == EPERM ? TP_EXIT_PERM : TP_EXIT_FAIL;
}

static int tp_write_flag(const char *path, int value)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", value) < 0 ? -1 : 0;
	return fclose(f) || ret ? -1 : 0;
}

/* @fd moved out of 0-2, which the guardian points at /dev/null. */
static int tp_above_stdio(int fd)
{
	return fd < 3 ? fcntl(fd, F_DUPFD, 3) : fd;
}

/*
 * The guardian: outside the CLI's process group, deaf to the signals
 * that end the CLI, it waits for the pipe's other end to close -- the
 * run's end, or the CLI's death, however it died -- and puts back the
 * idle states the record names.  It holds the lock (@lock) with the CLI:
 * only once both are gone can another process take it, and then the
 * record says what is left to put back (the whole cgroup killed, say).
 */
static void tp_guardian(int fd, int lock)
{
	int null = open("/dev/null", O_RDWR), lo, hi;
	struct tp_idle_record left;
	char why[600];
	ssize_t got;
	char b;

	/* Out of 0-2, which become /dev/null (a CLI started without them). */
	fd = tp_above_stdio(fd);
	lock = tp_above_stdio(lock);
	setsid();
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	/* Holding the CLI's output open would keep its reader waiting. */
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	lo = fd < lock ? fd : lock;
	hi = fd < lock ? lock : fd;
	close_range(3, (unsigned int)lo - 1, 0);	/* EINVAL when lo is 3 */
	close_range((unsigned int)lo + 1, (unsigned int)hi - 1, 0);
	close_range((unsigned int)hi + 1, ~0U, 0);
	do
		got = read(fd, &b, 1);
	while (got > 0 || (got < 0 && errno == EINTR));
	/* A failure leaves the record for the next command to try again. */
	tp_idle_put_back(&left, why, sizeof(why));
	tp_idle_record_free(&left);
	_exit(0);
}

static int tp_guardian_start(struct tp_hold *h)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -1;
	h->guard = fork();
	if (h->guard < 0) {
		close(p[0]);
		close(p[1]);
		h->guard = 0;
		return -1;
	}
	if (!h->guard) {
		close(p[1]);
		tp_guardian(p[0], h->idle_lock);
	}
	close(p[0]);
	h->guard_fd = p[1];
	return 0;
}

/*
 * @cpu's states deeper than @deepest that are enabled now, appended to
 * the record; -1 when the CPU has no cpuidle directory.
 */
static int tp_idle_collect(unsigned int cpu, int deepest,
			   struct tp_idle_record *r)
{
	char rel[128], line[16];
	int k;

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/cpuidle/state0/disable", cpu);
	if (tp_env_sys_line(rel, line, sizeof(line)))
		return -1;
	for (k = deepest + 1; k < TP_IDLE_STATES; k++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/cpuidle/state%d/disable",
			 cpu, k);
		if (tp_env_sys_line(rel, line, sizeof(line)))
			break;
		if (strcmp(line, "0"))
			continue;	/* disabled already: not ours to enable */
		r->s[r->n++] = (struct tp_idle_state){ cpu, (unsigned int)k, 0 };
	}
	return 0;
}

/*
 * The lock of the idle states into @h, after putting back what a holder
 * that is gone left turned off; another run holding them refuses this one
 * (it would put them back in the middle of this run).
 */
static int tp_hold_idle_lock(struct tp_hold *h)
{
	struct tp_idle_record holder;
	char path[512];
	int fd, ret;

	fd = tp_idle_lock(true, &holder);
	if (fd == -EWOULDBLOCK) {
		if (holder.pid)
			tp_err("--deepest-idle-state: tscprobe pid %d holds the idle states for its run; wait for its end, or measure without --deepest-idle-state",
			       (int)holder.pid);
		else
			tp_err("--deepest-idle-state: another tscprobe holds the idle states for its run; wait for its end, or measure without --deepest-idle-state");
		tp_idle_record_free(&holder);
		return TP_EXIT_BUSY;
	}
	if (fd < 0) {
		tp_err("--deepest-idle-state: %s: %s",
		       tp_env_path(path, sizeof(path), TP_IDLE_LOCK), strerror(-fd));
		return tp_hold_refused(-fd);
	}
	h->idle_lock = fd;
	ret = tp_idle_left_back(false);
	if (ret != TP_EXIT_OK) {
		close(fd);
		h->idle_lock = -1;
	}
	return ret;
}

/* Turn off the states of @r, recorded first and guarded. */
static int tp_hold_idle_states(struct tp_hold *h, struct tp_idle_record *r)
{
	char path[512], rel[96];
	unsigned int i;
	int err;

	r->pid = getpid();
	r->start = tp_idle_start_time(r->pid);
	err = tp_idle_record_write(r);
	if (err) {
		tp_err("--deepest-idle-state: cannot record what it turns off in %s: %s; nothing changed",
		       tp_env_path(path, sizeof(path), TP_IDLE_RECORD), strerror(-err));
		return tp_hold_refused(-err);
	}
	if (tp_guardian_start(h)) {
		struct tp_idle_record unused;

		err = errno;
		/* Nothing is off yet: this only removes the record. */
		tp_idle_put_back(&unused, path, sizeof(path));
		tp_idle_record_free(&unused);
		tp_err("--deepest-idle-state: cannot start the process that restores the idle states: %s",
		       strerror(err));
		return TP_EXIT_FAIL;
	}
	for (i = 0; i < r->n; i++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/cpuidle/state%u/disable",
			 r->s[i].cpu, r->s[i].state);
		if (tp_write_flag(tp_env_path(path, sizeof(path), rel), 1)) {
			err = errno;
			tp_err("--deepest-idle-state: %s: %s", path, strerror(err));
			return tp_hold_refused(err);	/* the guardian undoes the rest */
		}
	}
	return TP_EXIT_OK;
}

/* Disable the idle states deeper than @deepest on @cpus, recorded, guarded. */
static int tp_hold_idle(struct tp_hold *h, int deepest,
			const struct tp_cpuset *cpus)
{
	struct tp_idle_record r = { 0 };
	int cpu = -1, ret;

	ret = tp_hold_idle_lock(h);
	if (ret != TP_EXIT_OK)
		return ret;
	r.s = calloc((size_t)tp_cpuset_count(cpus) * TP_IDLE_STATES + 1,
		     sizeof(*r.s));
	if (!r.s)
		return TP_EXIT_FAIL;
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0)
		if (tp_idle_collect((unsigned int)cpu, deepest, &r)) {
			tp_err("--deepest-idle-state: CPU %d has no idle states to limit (no cpuidle in sysfs)",
			       cpu);
			tp_idle_record_free(&r);
			return TP_EXIT_FAIL;
		}
	ret = r.n ? tp_hold_idle_states(h, &r) : TP_EXIT_OK;
	if (ret == TP_EXIT_OK) {
		h->c.deepest_idle = deepest;
		h->c.idle_cpus = *cpus;
		h->c.idle_disabled = r.n;
	}
	tp_idle_record_free(&r);
	return ret;
}

/*
 * Open /dev/cpu_dma_latency and write @us: the kernel holds the request
 * while the file is open.  Asked for, a failure ends the command; as a
 * default, it is only stated.
 */
static int tp_hold_dma(struct tp_hold *h, long us, bool asked)
{
	int32_t v = (int32_t)us;
	char path[512];
	int err;

	tp_env_path(path, sizeof(path), "/dev/cpu_dma_latency");
	h->dma_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (h->dma_fd >= 0 && write(h->dma_fd, &v, sizeof(v)) == sizeof(v)) {
		h->c.dma_latency_us = us;
		return TP_EXIT_OK;
	}
	err = errno;
	if (h->dma_fd >= 0)
		close(h->dma_fd);
	h->dma_fd = -1;
	if (!asked) {
		snprintf(h->c.dma_why, sizeof(h->c.dma_why), "%s: %s", path,
			 strerror(err));
		return TP_EXIT_OK;
	}
	tp_err("--dma-latency: %s: %s", path, strerror(err));
	return tp_hold_refused(err);
}

/**
 * tp_hold_begin() - hold the conditions asked for, before a run starts
 * @h: filled in; release with tp_hold_end() (also after a failure)
 * @o: what was asked (NULL: nothing)
 * @cpus: the CPUs to be measured
 * @dma_default: the measurement holds cpu_dma_latency at 0 unless told
 *	otherwise (noise with interrupts on)
 *
 * A condition asked for that cannot be held ends the command before
 * anything is measured, with one line; the default request is only
 * stated in the report when it cannot be held.
 *
 * Return: TP_EXIT_OK, TP_EXIT_PERM or TP_EXIT_FAIL.
 */
int tp_hold_begin(struct tp_hold *h, const struct tp_hold_opts *o,
		  const struct tp_cpuset *cpus, bool dma_default)
{
	int ret = TP_EXIT_OK;

	memset(h, 0, sizeof(*h));
	h->dma_fd = -1;
	h->guard_fd = -1;
	h->idle_lock = -1;
	h->c.stated = true;
	h->c.dma_latency_us = -1;
	h->c.deepest_idle = -1;
	/* The guardian first: it must not inherit the QoS request's file. */
	if (o && o->idle_given)
		ret = tp_hold_idle(h, o->deepest_idle, cpus);
	else
		tp_idle_recover(false);	/* the audit must not see a dead run's */
	if (ret != TP_EXIT_OK)
		return ret;
	if (o && o->dma_given && o->dma_latency_us != TP_DMA_OFF)
		return tp_hold_dma(h, o->dma_latency_us, true);
	if ((!o || !o->dma_given) && dma_default)
		return tp_hold_dma(h, 0, false);
	return TP_EXIT_OK;
}

/**
 * tp_hold_end() - give back what tp_hold_begin() held
 * @h: the conditions; what it says was held stays for the report
 *
 * The idle states are back when this returns: the guardian is reaped.
 */
void tp_hold_end(struct tp_hold *h)
{
	if (h->dma_fd >= 0)
		close(h->dma_fd);
	h->dma_fd = -1;
	if (h->guard_fd >= 0)
		close(h->guard_fd);
	h->guard_fd = -1;
	if (h->guard > 0)
		waitpid(h->guard, NULL, 0);
	h->guard = 0;
	if (h->idle_lock >= 0) {
		struct tp_idle_record left;
		char why[600];

		/* Nothing left, unless the guardian was killed on its own. */
		tp_idle_put_back(&left, why, sizeof(why));
		tp_idle_record_free(&left);
		close(h->idle_lock);
	}
	h->idle_lock = -1;
}

/**
 * tp_conditions_text() - "held: ..." and "not held: ..." lines, if any
 * @c: what was held
 * @f: where to
 */
void tp_conditions_text(const struct tp_conditions *c, FILE *f)
{
	char who[224];

	if (!c->stated)
		return;
	if (c->dma_latency_us >= 0)
		fprintf(f, "held: /dev/cpu_dma_latency at %ld us\n", c->dma_latency_us);
	if (c->deepest_idle >= 0) {
		tp_cpuset_who(&c->idle_cpus, who, sizeof(who));
		fprintf(f, "held: idle states deeper than state%d off on %s (%u turned off)\n",
			c->deepest_idle, who, c->idle_disabled);
	}
	if (c->dma_why[0])
		fprintf(f, "not held: %s (the default for this measurement; --dma-latency off says no)\n",
			c->dma_why);
}

/**
 * tp_conditions_json() - the report's "conditions" object (null: unknown)
 * @c: what was held
 * @j: the writer, inside the report's top-level object
 */
void tp_conditions_json(const struct tp_conditions *c, struct jw *j)
{
	if (!c->stated) {
		jw_null(j, "conditions");
		return;
	}
	jw_obj(j, "conditions");
	jw_known(j, "dma_latency_us", c->dma_latency_us);
	if (c->dma_why[0])
		jw_str(j, "dma_latency_not_held", c->dma_why);
	else
		jw_null(j, "dma_latency_not_held");
	jw_known(j, "deepest_idle_state", c->deepest_idle);
	jw_cpuset(j, "idle_limited_cpus", &c->idle_cpus);	/* empty: none */
	jw_u64(j, "idle_states_disabled", c->idle_disabled);
	jw_obj_end(j);
}
