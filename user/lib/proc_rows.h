/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/interrupts and /proc/softirqs: one format (a header of "CPUn"
 * columns, then "LABEL: count count ... [description]" rows), read through
 * a descriptor kept open and parsed in place, and one CPU's rows counted
 * reading after reading.  And a process's /proc/PID/stat fields.
 */
#ifndef TSCPROBE_USER_PROC_ROWS_H
#define TSCPROBE_USER_PROC_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/tscprobe.h>

/**
 * struct tp_proc_file - a /proc file read again and again
 * @fd: kept open (-1: it could not be opened)
 * @buf: room for at least one whole line
 * @cap: its size
 */
struct tp_proc_file {
	int fd;
	char *buf;
	size_t cap;
};

/* Called for each line, [@s, @e) without its newline; non-zero stops. */
typedef int (*tp_proc_line_fn)(void *arg, const char *s, const char *e);

int tp_proc_file_open(struct tp_proc_file *f, const char *path);
int tp_proc_file_lines(struct tp_proc_file *f, tp_proc_line_fn fn, void *arg);
void tp_proc_file_close(struct tp_proc_file *f);

/**
 * struct tp_proc_row - a row being parsed
 * @label: "24", "LOC", "TIMER" (not NUL-terminated)
 * @label_len: its length
 * @p: the next count
 * @e: the line's end
 */
struct tp_proc_row {
	const char *label;
	size_t label_len;
	const char *p;
	const char *e;
};

int tp_proc_header_next(const char **p, const char *e, unsigned int *cpu);
bool tp_proc_row_split(const char *s, const char *e, struct tp_proc_row *r);
bool tp_proc_row_count(struct tp_proc_row *r, uint64_t *v);
void tp_proc_row_action(const struct tp_proc_row *r, char *name, size_t len);

#define TP_ROW_LABEL	16

/**
 * struct tp_row_count - one row of one CPU's column over a run
 * @label: the row's label
 * @name: a numbered interrupt's actions ("virtio0-input.0"), else the label
 * @numbered: @id is known: an IRQ number, a softirq's vector
 * @id: that number
 * @last: the count at the last reading that had the row
 * @seen: that reading's number
 * @total: what it counted since the first reading
 */
struct tp_row_count {
	char label[TP_ROW_LABEL];
	char name[TSCPROBE_SOURCE_NAME_LEN];
	bool numbered;
	uint32_t id;
	uint64_t last;
	uint32_t seen;
	uint64_t total;
};

/**
 * struct tp_proc_rows - one CPU's rows of one file, counted between readings
 * @file: the file
 * @cpu: the CPU whose column is read
 * @keep: which rows are counted (NULL: all)
 * @softirqs: the file is /proc/softirqs: a row's vector is its index
 * @ok: every reading so far was whole; once false the counts are unknown
 * @readings: readings so far
 * @window: what the rows counted between the last two readings
 * @n: rows in @row
 * @cap: room in @row
 * @next: where the next row is expected (rows keep their order)
 * @col: while reading: the CPU's column
 * @index: while reading: the row's index in the file
 * @row: the rows
 */
struct tp_proc_rows {
	struct tp_proc_file file;
	unsigned int cpu;
	bool (*keep)(const char *label);
	bool softirqs;
	bool ok;
	uint32_t readings;
	uint64_t window;
	unsigned int n;
	unsigned int cap;
	unsigned int next;
	int col;
	uint32_t index;
	struct tp_row_count *row;
};

uint64_t tp_row_delta(uint64_t was, uint64_t now);
int tp_proc_rows_open(struct tp_proc_rows *t, const char *path,
		      unsigned int cpu, bool softirqs,
		      bool (*keep)(const char *label));
bool tp_proc_rows_read(struct tp_proc_rows *t);
uint64_t tp_proc_rows_total(const struct tp_proc_rows *t);
void tp_proc_rows_close(struct tp_proc_rows *t);

char *tp_proc_stat_fields(pid_t pid, char *buf, size_t len);

#endif /* TSCPROBE_USER_PROC_ROWS_H */
