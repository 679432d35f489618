// SPDX-License-Identifier: GPL-2.0
/*
 * The record of the idle states a run turned off (idle_record.h).  Its
 * paths are under $TSCPROBE_SYSROOT, as the states' own are, so that tests
 * hold them in a synthetic tree; the holder's PID is this machine's.
 *
 * The record:
 *   # Idle states tscprobe turned off for a run (tscprobe(8): restore).
 *   holder 1234 98765
 *   cpu2 state3 0
 * one line per state: its CPU, its index and the value its "disable"
 * file had.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "user/lib/cli.h"
#include "user/lib/env.h"
#include "user/lib/cpuset.h"
#include "user/lib/idle_record.h"
#include "user/lib/proc_rows.h"

#define TP_IDLE_DIR	"/run/tscprobe"

/* Room for one line of the record, and for its longest sensible size. */
#define TP_IDLE_LINE	128
#define TP_IDLE_MAX	(TP_MAX_CPUS * TP_IDLE_STATES)

/* The "disable" file of @s, under the system root. */
static const char *tp_idle_file(char *buf, size_t len,
				const struct tp_idle_state *s)
{
	char rel[96];

	snprintf(rel, sizeof(rel),
		 "/sys/devices/system/cpu/cpu%u/cpuidle/state%u/disable",
		 s->cpu, s->state);
	return tp_env_path(buf, len, rel);
}

/**
 * tp_idle_start_time() - when a process started, to tell it from a later
 *	one with its PID
 * @pid: the process
 *
 * Return: its start time in clock ticks after boot (the 22nd field of
 * /proc/PID/stat: this machine's, whatever the system root), or 0 when
 * there is no such process.
 */
unsigned long long tp_idle_start_time(pid_t pid)
{
	char buf[1024], *p = tp_proc_stat_fields(pid, buf, sizeof(buf));
	int i;

	/* From the third field to the space before the 22nd. */
	for (i = 0; p && i < 19; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* One line of the record into @r; false when it is not one of ours. */
static bool tp_idle_parse_line(const char *line, struct tp_idle_record *r)
{
	struct tp_idle_state s;
	unsigned long long start;
	int pid, n = 0;

	if (line[0] == '#' || line[0] == '\n')
		return true;
	if (sscanf(line, "holder %d %llu %n", &pid, &start, &n) == 2 && n &&
	    !line[n] && pid > 0) {
		r->pid = pid;
		r->start = start;
		return true;
	}
	if (sscanf(line, "cpu%u state%u %d %n", &s.cpu, &s.state, &s.old, &n) != 3 ||
	    !n || line[n] || s.cpu >= TP_MAX_CPUS || s.state >= TP_IDLE_STATES ||
	    (s.old != 0 && s.old != 1) || r->n >= TP_IDLE_MAX)
		return false;
	if (!(r->n & (r->n - 1))) {
		struct tp_idle_state *more = realloc(r->s, (r->n ? 2 * r->n : 1) *
						     sizeof(*more));

		if (!more)
			return false;
		r->s = more;
	}
	r->s[r->n++] = s;
	return true;
}

/*
 * The record into @r (empty when there is none: -ENOENT).  A file that is
 * not what tscprobe writes is -EINVAL: nothing of it is acted on.
 */
static int tp_idle_record_read(struct tp_idle_record *r)
{
	char path[512], line[TP_IDLE_LINE];
	int err = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = fopen(tp_env_path(path, sizeof(path), TP_IDLE_RECORD), "re");
	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f))
		if (!strchr(line, '\n') || !tp_idle_parse_line(line, r))
			err = -EINVAL;
	if (!err && (ferror(f) || !r->pid))
		err = ferror(f) ? -EIO : -EINVAL;
	fclose(f);
	if (err)
		tp_idle_record_free(r);
	return err;
}

void tp_idle_record_free(struct tp_idle_record *r)
{
	free(r->s);
	r->s = NULL;
	r->n = 0;
}

/* The record's text into @f; false when it could not all be written. */
static bool tp_idle_record_print(const struct tp_idle_record *r, FILE *f)
{
	unsigned int i;

	fprintf(f, "# Idle states tscprobe turned off for a run (tscprobe(8): restore).\n");
	fprintf(f, "holder %d %llu\n", (int)r->pid, r->start);
	for (i = 0; i < r->n; i++)
		fprintf(f, "cpu%u state%u %d\n", r->s[i].cpu, r->s[i].state,
			r->s[i].old);
	return !ferror(f) && !fflush(f) && !fsync(fileno(f));
}

/**
 * tp_idle_record_write() - write the record, whole or not at all
 * @r: what is about to be turned off, and by whom
 *
 * Into a file of its own beside it first, renamed over it once complete:
 * whoever reads the record, whenever the writer dies, reads all of it or
 * none.  Call with the lock held (tp_idle_lock()).
 *
 * Return: 0, or a negative errno.
 */
int tp_idle_record_write(const struct tp_idle_record *r)
{
	char path[512], tmp[544];
	int fd, err = 0;
	FILE *f;

	tp_env_path(path, sizeof(path), TP_IDLE_RECORD);
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
	} else {
		errno = 0;
		if (!tp_idle_record_print(r, f))
			err = errno ? -errno : -EIO;
		if (fclose(f) && !err)
			err = -errno;
	}
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/**
 * tp_idle_lock() - take the lock of the idle states, without waiting
 * @create: make /run/tscprobe if it is not there (to hold states)
 * @holder: when another process holds the lock, its record if it has
 *	written one yet (pid 0 if not); NULL: not wanted
 *
 * The lock file is root's alone (0600): no other user can take the lock
 * and so keep root from holding or restoring the states.  Its descriptor
 * is closed on exec, so that only the holder and its guardian keep it.
 *
 * Return: the locked descriptor, -EWOULDBLOCK when a live process holds
 * it, or another negative errno (-ENOENT: nothing was ever held here).
 */
int tp_idle_lock(bool create, struct tp_idle_record *holder)
{
	char path[512];
	int fd, err;

	if (holder)
		memset(holder, 0, sizeof(*holder));
	if (create && mkdir(tp_env_path(path, sizeof(path), TP_IDLE_DIR), 0755) &&
	    errno != EEXIST)
		return -errno;
	fd = open(tp_env_path(path, sizeof(path), TP_IDLE_LOCK),
		  O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	err = errno == EAGAIN ? -EWOULDBLOCK : -errno;
	close(fd);
	if (err == -EWOULDBLOCK && holder && tp_idle_record_read(holder))
		memset(holder, 0, sizeof(*holder));
	return err;
}

/* Write @v into @path: 0, or a negative errno. */
static int tp_idle_write(const char *path, int v)
{
	FILE *f = fopen(path, "we");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%d\n", v) < 0)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/**
 * tp_idle_put_back() - put back every state the record names, then
 *	remove it
 * @left: the record as it was (empty: there was none); free it with
 *	tp_idle_record_free()
 * @why: on failure, what failed
 * @len: the size of @why
 *
 * A state whose file is gone went with its CPU (unplugged): there is
 * nothing to put back.  When any other could not be written, the record
 * stays, whole, for a later try: writing a value back twice does no harm.
 * Call with the lock held.
 *
 * Return: 0, or a negative errno with @why.
 */
int tp_idle_put_back(struct tp_idle_record *left, char *why, size_t len)
{
	char path[512];
	unsigned int i;
	int err, first = 0;

	err = tp_idle_record_read(left);
	if (err == -ENOENT)
		return 0;
	if (err) {
		snprintf(why, len, "%s: %s", tp_env_path(path, sizeof(path), TP_IDLE_RECORD),
			 err == -EINVAL ? "not a record tscprobe wrote; check the idle states and remove it"
					: strerror(-err));
		return err;
	}
	for (i = 0; i < left->n; i++) {
		err = tp_idle_write(tp_idle_file(path, sizeof(path), &left->s[i]),
				    left->s[i].old);
		if (err && err != -ENOENT && !first) {
			first = err;
			snprintf(why, len, "%s: %s", path, strerror(-err));
		}
	}
	if (!first && unlink(tp_env_path(path, sizeof(path), TP_IDLE_RECORD))) {
		first = -errno;
		snprintf(why, len, "%s: %s", path, strerror(errno));
	}
	return first;
}

/* "3 idle states on CPUs 0-1", of @r. */
static void tp_idle_what(const struct tp_idle_record *r, char *buf, size_t len)
{
	struct tp_cpuset cpus;
	char who[224];
	unsigned int i;

	memset(&cpus, 0, sizeof(cpus));
	for (i = 0; i < r->n; i++)
		tp_cpuset_add(&cpus, r->s[i].cpu);
	tp_cpuset_who(&cpus, who, sizeof(who));
	snprintf(buf, len, "%u idle state%s on %s", r->n, r->n == 1 ? "" : "s",
		 who);
}

/**
 * tp_idle_left_back() - put back what a holder that is gone left turned
 *	off, and say so
 * @asked: by "tscprobe restore" (its lines on stdout) rather than at the
 *	start of another command (on stderr)
 *
 * Call with the lock held.
 *
 * Return: an enum tp_exit.
 */
int tp_idle_left_back(bool asked)
{
	struct tp_idle_record left;
	char why[600], what[256];
	int err;

	err = tp_idle_put_back(&left, why, sizeof(why));
	if (err) {
		tp_err("%scannot put back the idle states a tscprobe left turned off: %s",
		       asked ? "restore: " : "", why);
		tp_idle_record_free(&left);
		return err == -EACCES || err == -EPERM ? TP_EXIT_PERM : TP_EXIT_FAIL;
	}
	if (left.n) {
		tp_idle_what(&left, what, sizeof(what));
		fprintf(asked ? stdout : stderr,
			"%srestored %s left turned off by tscprobe pid %d, which ended without restoring them\n",
			asked ? "" : "tscprobe: ", what, (int)left.pid);
	}
	tp_idle_record_free(&left);
	return TP_EXIT_OK;
}

/*
 * Without the right to take the lock (not root), only a warning, and only
 * when the holder is gone: a live one puts them back itself.
 */
static void tp_idle_warn_left(void)
{
	struct tp_idle_record left;
	char what[256];

	if (tp_idle_record_read(&left))
		return;
	if (tp_idle_start_time(left.pid) != left.start) {
		tp_idle_what(&left, what, sizeof(what));
		tp_err("tscprobe pid %d ended without turning back on %s: 'tscprobe restore' as root does",
		       (int)left.pid, what);
	}
	tp_idle_record_free(&left);
}

/**
 * tp_idle_recover() - at the start of a command that holds or audits
 *	idle states, or by "tscprobe restore": put back what a holder that is
 *	gone left turned off
 * @asked: by "tscprobe restore": a live holder and a refusal are said,
 *	and the exit code is the command's
 *
 * Return: an enum tp_exit (TP_EXIT_OK: nothing is left turned off by a
 * holder that is gone).
 */
int tp_idle_recover(bool asked)
{
	struct tp_idle_record holder;
	char path[512];
	int fd, ret;

	/* Nothing recorded, nothing to do (and no lock to take). */
	if (access(tp_env_path(path, sizeof(path), TP_IDLE_RECORD), F_OK))
		return TP_EXIT_OK;
	fd = tp_idle_lock(false, &holder);
	if (fd == -ENOENT)
		return TP_EXIT_OK;
	if (fd == -EWOULDBLOCK) {
		if (asked && holder.pid)
			printf("tscprobe pid %d holds the idle states for its run: it puts them back when it ends\n",
			       (int)holder.pid);
		tp_idle_record_free(&holder);
		return TP_EXIT_OK;
	}
	if (fd < 0 && !asked) {
		tp_idle_warn_left();
		return TP_EXIT_OK;
	}
	if (fd < 0) {
		tp_err("restore: %s: %s", tp_env_path(path, sizeof(path), TP_IDLE_LOCK),
		       strerror(-fd));
		return fd == -EACCES || fd == -EPERM ? TP_EXIT_PERM : TP_EXIT_FAIL;
	}
	ret = tp_idle_left_back(asked);
	close(fd);
	return ret;
}
