// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/interrupts and /proc/softirqs, read between noise windows: the
 * descriptor stays open and each reading is pread() from offset 0 into a
 * buffer allocated once, parsed where it lies, so that a reading allocates
 * nothing (a table that must grow for a line new to the machine aside).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/counter.h"
#include "user/lib/proc_rows.h"

/**
 * tp_proc_file_open() - open a /proc file for repeated readings
 * @f: set up; its descriptor is -1 when the file cannot be opened
 * @path: the file
 *
 * The buffer holds a row of every possible CPU's column (11 characters
 * each) and its description, so that no line is ever cut.
 *
 * Return: 0, or -1 when the file cannot be opened or memory runs out.
 */
int tp_proc_file_open(struct tp_proc_file *f, const char *path)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	f->cap = 16384 + 12 * (size_t)(cpus > 0 ? cpus : 1);
	f->buf = malloc(f->cap);
	f->fd = f->buf ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	return f->fd < 0 ? -1 : 0;
}

/* Hand each complete line of @buf[0, @have) to @fn; what is left over. */
static size_t tp_proc_lines_in(char *buf, size_t have, tp_proc_line_fn fn,
			       void *arg, int *stop)
{
	char *s = buf, *nl;

	while (!*stop && (nl = memchr(s, '\n', have - (size_t)(s - buf)))) {
		*stop = fn(arg, s, nl);
		s = nl + 1;
	}
	have -= (size_t)(s - buf);
	memmove(buf, s, have);
	return have;
}

/**
 * tp_proc_file_lines() - read the file again, from its start, line by line
 * @f: the file
 * @fn: called for each line
 * @arg: its argument
 *
 * Return: 0 when every line was read and @fn returned 0 for each; what
 * @fn returned when it stopped; -1 when the file is not open, a read
 * failed or a line is longer than the buffer.
 */
int tp_proc_file_lines(struct tp_proc_file *f, tp_proc_line_fn fn, void *arg)
{
	size_t have = 0;
	off_t at = 0;
	int stop = 0;
	ssize_t n;

	if (f->fd < 0)
		return -1;
	for (;;) {
		n = pread(f->fd, f->buf + have, f->cap - have, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		at += n;
		have = tp_proc_lines_in(f->buf, have + (size_t)n, fn, arg, &stop);
		if (stop)
			return stop;
		if (n && have == f->cap)
			return -1;
		if (!n)
			break;
	}
	/* The last line may lack its newline. */
	return have ? fn(arg, f->buf, f->buf + have) : 0;
}

void tp_proc_file_close(struct tp_proc_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->buf);
	f->fd = -1;
	f->buf = NULL;
}

static const char *tp_skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/**
 * tp_proc_header_next() - the next column of a header line ("CPU0 CPU1
 *	CPU4 ...": the online CPUs)
 * @p: where to start; moved past the column
 * @e: the line's end
 * @cpu: the column's CPU
 *
 * Return: 1, 0 at the end of the line, -1 for a token that is no "CPUn".
 */
int tp_proc_header_next(const char **p, const char *e, unsigned int *cpu)
{
	const char *s = tp_skip_blanks(*p, e);
	unsigned long v = 0;

	if (s == e)
		return 0;
	if (e - s < 4 || memcmp(s, "CPU", 3))
		return -1;
	for (s += 3; s < e && *s >= '0' && *s <= '9' && v < 1000000; s++)
		v = v * 10 + (unsigned long)(*s - '0');
	if (s < e && *s != ' ' && *s != '\t')
		return -1;
	*cpu = (unsigned int)v;
	*p = s;
	return 1;
}

/**
 * tp_proc_row_split() - the label of a row ("LOC:", "  24:", "TIMER:")
 * @s: the line
 * @e: its end
 * @r: set to the label and the first count
 *
 * Return: false for a line that is no row.
 */
bool tp_proc_row_split(const char *s, const char *e, struct tp_proc_row *r)
{
	const char *colon;

	s = tp_skip_blanks(s, e);
	colon = memchr(s, ':', (size_t)(e - s));
	if (!colon || colon == s || memchr(s, ' ', (size_t)(colon - s)))
		return false;
	r->label = s;
	r->label_len = (size_t)(colon - s);
	r->p = colon + 1;
	r->e = e;
	return true;
}

/**
 * tp_proc_row_count() - the row's next count (the next CPU's column)
 * @r: the row; moved past the count
 * @v: the count
 *
 * Return: false where the row has no more counts.
 */
bool tp_proc_row_count(struct tp_proc_row *r, uint64_t *v)
{
	const char *p = tp_skip_blanks(r->p, r->e), *s = p;

	*v = 0;
	for (; p < r->e && *p >= '0' && *p <= '9'; p++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s || (p < r->e && *p != ' ' && *p != '\t'))
		return false;
	r->p = p;
	return true;
}

/* "5-edge", "9-fasteoi": the hwirq and flow columns, not an action. */
static bool tp_is_hwirq_flow(const char *s, const char *e)
{
	const char *dash = memchr(s, '-', (size_t)(e - s)), *p;

	if (!dash || dash == s)
		return false;
	for (p = s; p < dash; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* Back from @e to the start of a list of tokens joined by ", ". */
static const char *tp_actions_start(const char *from, const char *e)
{
	const char *s = e, *b;

	for (;;) {
		while (s > from && s[-1] != ' ' && s[-1] != '\t')
			s--;
		for (b = s; b > from && (b[-1] == ' ' || b[-1] == '\t'); b--)
			;
		if (b == from || b[-1] != ',')
			return s;
		s = b;
	}
}

/**
 * tp_proc_row_action() - a numbered interrupt's actions, the row's last
 *	column: "virtio0-input.0", "ahci[0000:00:1f.2], i801_smbus"
 * @r: the row, past its counts
 * @name: the actions, cut to fit; "" where the row has none
 * @len: the size of @name
 *
 * The columns before them (chip, hwirq and flow) vary between kernels;
 * the actions are last, joined by ", ".
 */
void tp_proc_row_action(const struct tp_proc_row *r, char *name, size_t len)
{
	const char *e = r->e, *s;
	size_t n;

	while (e > r->p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	s = tp_actions_start(r->p, e);
	n = (size_t)(e - s);
	if (tp_is_hwirq_flow(s, e) && !memchr(s, ',', n))
		n = 0;
	if (n >= len)
		n = len - 1;
	memcpy(name, s, n);
	name[n] = '\0';
}

/**
 * tp_row_delta() - what a row counted between two readings
 * @was: the earlier count
 * @now: the later one
 *
 * The kernel's per-CPU counts are 32 bits wide, and a step is taken
 * modulo 2^32 as core's counters take it, so that a wrap adds what it
 * counted; but a count that fell by less than half that range did not
 * wrap: its line was freed and requested again, and counts from 0 since.
 *
 * Return: the difference; never a figure larger than the counts allow.
 */
uint64_t tp_row_delta(uint64_t was, uint64_t now)
{
	struct tp_counter k;

	if (now < was && (uint32_t)(now - was) >= 1U << 31)
		return now;
	tp_counter_begin(&k, true, was);
	tp_counter_step(&k, true, now, 32);
	return k.delta;
}

static struct tp_row_count *tp_rows_find(struct tp_proc_rows *t,
					 const char *label)
{
	unsigned int k, i;

	for (k = 0; k < t->n; k++) {
		i = (t->next + k) % t->n;
		if (!strcmp(t->row[i].label, label)) {
			t->next = i + 1 < t->n ? i + 1 : 0;
			return &t->row[i];
		}
	}
	return NULL;
}

/* A row new to the table; it grows only for a line new to the machine. */
static struct tp_row_count *tp_rows_append(struct tp_proc_rows *t,
					   const char *label)
{
	struct tp_row_count *row;

	if (t->n == t->cap) {
		unsigned int cap = t->cap ? 2 * t->cap : 64;

		row = realloc(t->row, cap * sizeof(*row));
		if (!row)
			return NULL;
		t->row = row;
		t->cap = cap;
	}
	row = &t->row[t->n++];
	memset(row, 0, sizeof(*row));
	strcpy(row->label, label);
	return row;
}

static bool tp_label_is_number(const char *label, uint32_t *id)
{
	char *end;
	unsigned long v = strtoul(label, &end, 10);

	*id = (uint32_t)v;
	return label[0] >= '0' && label[0] <= '9' && !*end && v <= UINT32_MAX;
}

/* Name the row: a vector, an IRQ number and its actions, or its label. */
static void tp_rows_name(const struct tp_proc_rows *t, struct tp_row_count *row,
			 const struct tp_proc_row *r, uint32_t index)
{
	if (t->softirqs) {
		/* The kernel prints the softirqs in vector order. */
		row->numbered = true;
		row->id = index;
	} else {
		row->numbered = tp_label_is_number(row->label, &row->id);
	}
	if (row->numbered && !t->softirqs)
		tp_proc_row_action(r, row->name, sizeof(row->name));
	else
		snprintf(row->name, sizeof(row->name), "%s", row->label);
}

/*
 * Count one row.  The first reading only sets the baseline.  A row the
 * previous reading lacked counted 0 then: /proc/interrupts leaves out only
 * lines that counted nothing on any online CPU.
 */
static int tp_rows_count(struct tp_proc_rows *t, const char *label,
			 const struct tp_proc_row *r, uint32_t index,
			 uint64_t v)
{
	struct tp_row_count *row = tp_rows_find(t, label);
	uint32_t reading = t->readings + 1;
	uint64_t d;

	if (!row && !(row = tp_rows_append(t, label)))
		return -1;
	if (row->seen == reading)
		return 0;	/* a label twice: the first one counts */
	tp_rows_name(t, row, r, index);
	d = !t->readings ? 0 : row->seen == t->readings ?
	    tp_row_delta(row->last, v) : v;
	row->last = v;
	row->seen = reading;
	row->total += d;
	t->window += d;
	return 0;
}

/* The header: which column is the CPU's (-1 stops: it is offline). */
static int tp_rows_header(struct tp_proc_rows *t, const char *s, const char *e)
{
	unsigned int cpu;
	int i = 0, got;

	while ((got = tp_proc_header_next(&s, e, &cpu)) == 1) {
		if (cpu == t->cpu) {
			t->col = i;
			return 0;
		}
		i++;
	}
	return -1;
}

static int tp_rows_line(void *arg, const char *s, const char *e)
{
	struct tp_proc_rows *t = arg;
	char label[TP_ROW_LABEL];
	struct tp_proc_row r;
	uint32_t index;
	uint64_t v = 0;
	int i;

	if (t->col < 0)
		return tp_rows_header(t, s, e);
	if (!tp_proc_row_split(s, e, &r) || r.label_len >= sizeof(label))
		return 0;
	index = t->index++;
	memcpy(label, r.label, r.label_len);
	label[r.label_len] = '\0';
	if (t->keep && !t->keep(label))
		return 0;
	/* A row without the CPU's column (ERR, MIS) is not the CPU's. */
	for (i = 0; i <= t->col; i++)
		if (!tp_proc_row_count(&r, &v))
			return 0;
	return tp_rows_count(t, label, &r, index, v);
}

/**
 * tp_proc_rows_read() - read the file and count what each row counted
 *	since the previous reading
 * @t: the rows
 *
 * A reading that fails (the file gone, a line that does not fit, the CPU
 * offline, no memory for a new line) may have counted part of the rows:
 * from then on the counts are unknown, never a figure made of halves.
 *
 * Return: whether the reading was whole (@t->window is then its count).
 */
bool tp_proc_rows_read(struct tp_proc_rows *t)
{
	if (!t->ok)
		return false;
	t->col = -1;
	t->index = 0;
	t->window = 0;
	if (tp_proc_file_lines(&t->file, tp_rows_line, t) || t->col < 0) {
		t->ok = false;
		return false;
	}
	t->readings++;
	return true;
}

/**
 * tp_proc_rows_open() - open a file and take the first reading
 * @t: the rows
 * @path: /proc/interrupts or /proc/softirqs (settable for tests)
 * @cpu: the CPU whose column is counted
 * @softirqs: the file is /proc/softirqs
 * @keep: which rows count (NULL: all)
 *
 * Return: 0, or -1 when the file cannot be read (@t->ok is false then).
 */
int tp_proc_rows_open(struct tp_proc_rows *t, const char *path,
		      unsigned int cpu, bool softirqs,
		      bool (*keep)(const char *label))
{
	memset(t, 0, sizeof(*t));
	t->cpu = cpu;
	t->softirqs = softirqs;
	t->keep = keep;
	t->ok = !tp_proc_file_open(&t->file, path);
	if (!tp_proc_rows_read(t))
		return -1;
	/* Room for lines new to the machine during the run. */
	if (t->cap < t->n + 32) {
		struct tp_row_count *row = realloc(t->row, (t->n + 64) * sizeof(*row));

		if (row) {
			t->row = row;
			t->cap = t->n + 64;
		}
	}
	return 0;
}

/* What every row counted since the first reading (0 when unknown). */
uint64_t tp_proc_rows_total(const struct tp_proc_rows *t)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; t->ok && i < t->n; i++)
		sum += t->row[i].total;
	return sum;
}

void tp_proc_rows_close(struct tp_proc_rows *t)
{
	tp_proc_file_close(&t->file);
	free(t->row);
	t->row = NULL;
	t->n = t->cap = 0;
}

/**
 * tp_proc_stat_fields() - the fields of /proc/PID/stat after the name
 * @pid: the process
 * @buf: where the file is read
 * @len: its size
 *
 * The name (the second field) may hold spaces and parentheses: the fields
 * after it start two bytes past its last ')'.
 *
 * Return: the third field (the state) on, in @buf; NULL where there is no
 * such process.
 */
char *tp_proc_stat_fields(pid_t pid, char *buf, size_t len)
{
	char path[64], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p + 2 : NULL;
}
