// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of what the userspace noise engine counts from /proc between
 * its windows: the rows of one CPU's column of /proc/interrupts and
 * /proc/softirqs, parsed from synthetic files rewritten between readings
 * (the CPU's column among others, actions, a line appearing mid-run or
 * gone, a count that wrapped or started again, a file missing or one
 * longer than a read), and the sources they make, whose counts add up.
 * Then the engine itself, live on this machine: the local timer is named
 * on the measured CPU and the figures agree with each other.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_path.h"
#include "jq.h"
#include "kselftest_harness.h"
#include "user/lib/context.h"
#include "user/lib/cpu_counters.h"
#include "user/lib/proc_rows.h"
#include "user/lib/result.h"

/* A file the test rewrites in place: the reader's descriptor stays valid. */
struct proc_text {
	char path[32];
};

static void proc_text_init(struct proc_text *p)
{
	int fd;

	strcpy(p->path, "/tmp/tp-rows-XXXXXX");
	fd = mkstemp(p->path);
	if (fd >= 0)
		close(fd);
}

static int proc_text_set(struct proc_text *p, const char *text)
{
	FILE *f = fopen(p->path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(text, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

/*
 * Open @t on @p holding @before (the first reading), then read again with
 * @p holding @after: 0 when both readings were whole.
 */
static int read_twice(struct tp_proc_rows *t, struct proc_text *p,
		      const char *before, const char *after, unsigned int cpu,
		      bool softirqs, bool (*keep)(const char *label))
{
	proc_text_init(p);
	if (proc_text_set(p, before) ||
	    tp_proc_rows_open(t, p->path, cpu, softirqs, keep) || t->window ||
	    proc_text_set(p, after))
		return -1;
	return tp_proc_rows_read(t) ? 0 : -1;
}

static const struct tp_row_count *row_of(const struct tp_proc_rows *t,
					 const char *label)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->row[i].label, label))
			return &t->row[i];
	return NULL;
}

/* A row's count over the run; -1 when the table has no such row. */
static long long total_of(const struct tp_proc_rows *t, const char *label)
{
	const struct tp_row_count *r = row_of(t, label);

	return r ? (long long)r->total : -1;
}

TEST(delta_wraps_at_32_bits_or_starts_again)
{
	EXPECT_EQ(5, tp_row_delta(10, 15));
	EXPECT_EQ(0, tp_row_delta(7, 7));
	/* 32-bit counts that wrapped between two readings */
	EXPECT_EQ(10, tp_row_delta(4294967290ULL, 4));
	EXPECT_EQ(1, tp_row_delta(UINT32_MAX, 0));
	/* a line freed and requested again: it counts from 0 */
	EXPECT_EQ(10, tp_row_delta(1000, 10));
	EXPECT_EQ(0, tp_row_delta(1000, 0));
	/* a count beyond 32 bits never wraps there */
	EXPECT_EQ(5, tp_row_delta(1ULL << 33, 5));
}

/*
 * The CPU's own column among others (CPU 2 is the second column), the
 * rows that count interrupts it took only (not NMI, PMI, which are NMIs,
 * TLB, ERR and the rows that are no interrupts), numbered rows named by
 * their actions.
 */
TEST(interrupts_of_one_cpu_column)
{
	static const char before[] =
		"           CPU0       CPU2       CPU5\n"
		"  0:         10        100       1000   IO-APIC   2-edge      timer\n"
		"  9:          0          3          0   IO-APIC   9-fasteoi\n"
		" 16:          1          2          3   IO-APIC  16-fasteoi   ahci[0000:00:1f.2], i801_smbus\n"
		" 38:          0         50          0 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0\n"
		"NMI:          4          5          6   Non-maskable interrupts\n"
		"LOC:        100        200        300   Local timer interrupts\n"
		"PMI:          4          5          6   Performance monitoring interrupts\n"
		"TLB:          1          1          1   TLB shootdowns\n"
		"RTR:          0          9          0   APIC ICR read retries\n"
		"ERR:          9\n"
		"MIS:          0\n";
	static const char after[] =
		"           CPU0       CPU2       CPU5\n"
		"  0:         10        101       1000   IO-APIC   2-edge      timer\n"
		"  9:          0          3          0   IO-APIC   9-fasteoi\n"
		" 16:          1          4          3   IO-APIC  16-fasteoi   ahci[0000:00:1f.2], i801_smbus\n"
		" 38:          0         57          0 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0\n"
		"NMI:          4         15          6   Non-maskable interrupts\n"
		"LOC:        100        230        300   Local timer interrupts\n"
		"PMI:          4         13          6   Performance monitoring interrupts\n"
		"TLB:          1          9          1   TLB shootdowns\n"
		"RTR:          0         99          0   APIC ICR read retries\n"
		"ERR:         19\n"
		"MIS:          0\n";
	struct tp_proc_rows t;
	struct proc_text p;

	ASSERT_EQ(0, read_twice(&t, &p, before, after, 2, false,
				tp_irq_row_taken));
	EXPECT_EQ(1, total_of(&t, "0"));
	EXPECT_EQ(0, total_of(&t, "9"));
	EXPECT_EQ(2, total_of(&t, "16"));
	EXPECT_EQ(7, total_of(&t, "38"));
	EXPECT_EQ(30, total_of(&t, "LOC"));
	EXPECT_EQ(-1, total_of(&t, "NMI"));
	EXPECT_EQ(-1, total_of(&t, "PMI"));
	EXPECT_EQ(-1, total_of(&t, "TLB"));
	EXPECT_EQ(-1, total_of(&t, "RTR"));
	EXPECT_EQ(-1, total_of(&t, "ERR"));
	EXPECT_EQ(1 + 2 + 7 + 30, t.window);
	EXPECT_EQ(t.window, tp_proc_rows_total(&t));
	EXPECT_STREQ("timer", row_of(&t, "0")->name);
	EXPECT_STREQ("", row_of(&t, "9")->name);
	/* every action, cut to the contract's TSCPROBE_SOURCE_NAME_LEN */
	EXPECT_STREQ("ahci[0000:00:1f.2], i80", row_of(&t, "16")->name);
	EXPECT_STREQ("virtio2-input.0", row_of(&t, "38")->name);
	EXPECT_TRUE(row_of(&t, "38")->numbered);
	EXPECT_EQ(38, row_of(&t, "38")->id);
	EXPECT_STREQ("LOC", row_of(&t, "LOC")->name);
	EXPECT_FALSE(row_of(&t, "LOC")->numbered);
	tp_proc_rows_close(&t);
	unlink(p.path);
}

/*
 * A line that appears during the run counted nothing before it did (the
 * kernel leaves such lines out); one that goes keeps what it counted and
 * counts again from 0 when it is back; a wrapped count adds what it
 * counted and a count that started again adds what it has.
 */
TEST(lines_come_go_wrap_and_start_again)
{
	static const char *const readings[] = {
		"   CPU0\n"
		" 1:  4294967290  IO-APIC 1-edge i8042\n"
		" 5:        1000  IO-APIC 5-edge snd\n"
		" 7:          40  IO-APIC 7-edge gone\n"
		"LOC:        100  Local timer interrupts\n",
		"   CPU0\n"
		" 1:           4  IO-APIC 1-edge i8042\n"
		" 5:          10  IO-APIC 5-edge snd\n"
		" 6:           7  PCI-MSI 6-edge nvme0q1\n"
		"LOC:        110  Local timer interrupts\n",
		"   CPU0\n"
		" 1:           5  IO-APIC 1-edge i8042\n"
		" 5:          12  IO-APIC 5-edge snd\n"
		" 6:           9  PCI-MSI 6-edge nvme0q1\n"
		" 7:           3  IO-APIC 7-edge back\n"
		"LOC:        120  Local timer interrupts\n",
	};
	struct tp_proc_rows t;
	struct proc_text p;
	unsigned int i;
	uint64_t windows = 0;

	proc_text_init(&p);
	ASSERT_EQ(0, proc_text_set(&p, readings[0]));
	ASSERT_EQ(0, tp_proc_rows_open(&t, p.path, 0, false, tp_irq_row_taken));
	for (i = 1; i < TP_ARRAY_SIZE(readings); i++) {
		ASSERT_EQ(0, proc_text_set(&p, readings[i]));
		ASSERT_TRUE(tp_proc_rows_read(&t));
		windows += t.window;
	}
	EXPECT_EQ(10 + 1, total_of(&t, "1"));	/* wrapped, then 1 */
	EXPECT_EQ(10 + 2, total_of(&t, "5"));	/* started again at 10 */
	EXPECT_EQ(7 + 2, total_of(&t, "6"));	/* new: 7 since it came */
	EXPECT_EQ(0 + 3, total_of(&t, "7"));	/* gone, back at 3 */
	EXPECT_STREQ("back", row_of(&t, "7")->name);
	EXPECT_EQ(20, total_of(&t, "LOC"));
	EXPECT_EQ(windows, tp_proc_rows_total(&t));
	EXPECT_EQ(11 + 12 + 9 + 3 + 20, windows);
	tp_proc_rows_close(&t);
	unlink(p.path);
}

/* /proc/softirqs: the rows in vector order, each named by its label. */
TEST(softirqs_by_vector)
{
	static const char before[] =
		"                    CPU0       CPU1\n"
		"          HI:          0          0\n"
		"       TIMER:         10         20\n"
		"      NET_TX:          0          0\n"
		"      NET_RX:          5          5\n"
		"       BLOCK:          0          0\n"
		"    IRQ_POLL:          0          0\n"
		"     TASKLET:          0          0\n"
		"       SCHED:          3          4\n"
		"     HRTIMER:          0          0\n"
		"         RCU:          7          9\n";
	static const char after[] =
		"                    CPU0       CPU1\n"
		"          HI:          0          0\n"
		"       TIMER:         10         25\n"
		"      NET_TX:          0          0\n"
		"      NET_RX:          5          6\n"
		"       BLOCK:          0          0\n"
		"    IRQ_POLL:          0          0\n"
		"     TASKLET:          0          0\n"
		"       SCHED:          3          4\n"
		"     HRTIMER:          0          0\n"
		"         RCU:          7         19\n";
	struct tp_proc_rows t;
	struct proc_text p;

	ASSERT_EQ(0, read_twice(&t, &p, before, after, 1, true, NULL));
	EXPECT_EQ(10, t.n);
	EXPECT_EQ(5, total_of(&t, "TIMER"));
	EXPECT_EQ(1, row_of(&t, "TIMER")->id);
	EXPECT_EQ(3, row_of(&t, "NET_RX")->id);
	EXPECT_EQ(9, row_of(&t, "RCU")->id);
	EXPECT_EQ(10, total_of(&t, "RCU"));
	EXPECT_STREQ("RCU", row_of(&t, "RCU")->name);
	EXPECT_EQ(16, tp_proc_rows_total(&t));
	tp_proc_rows_close(&t);
	unlink(p.path);
}

/*
 * A file that cannot be read, or a CPU that has no column (offline): the
 * counts are unknown from then on, never 0 and never made of halves.
 */
TEST(unreadable_file_or_column_is_unknown)
{
	struct tp_proc_rows t;
	struct proc_text p;

	EXPECT_EQ(-1, tp_proc_rows_open(&t, "/nonexistent/interrupts", 0,
					false, NULL));
	EXPECT_FALSE(t.ok);
	EXPECT_FALSE(tp_proc_rows_read(&t));
	EXPECT_EQ(0, tp_proc_rows_total(&t));
	tp_proc_rows_close(&t);

	proc_text_init(&p);
	ASSERT_EQ(0, proc_text_set(&p, "   CPU0   CPU1\nLOC:  1  2  Local timer interrupts\n"));
	ASSERT_EQ(0, tp_proc_rows_open(&t, p.path, 1, false, NULL));
	ASSERT_EQ(0, proc_text_set(&p, "   CPU0\nLOC:  5  Local timer interrupts\n"));
	EXPECT_FALSE(tp_proc_rows_read(&t));
	ASSERT_EQ(0, proc_text_set(&p, "   CPU0   CPU1\nLOC:  9  9  Local timer interrupts\n"));
	EXPECT_FALSE(tp_proc_rows_read(&t));
	EXPECT_FALSE(t.ok);
	tp_proc_rows_close(&t);
	EXPECT_EQ(-1, tp_proc_rows_open(&t, p.path, 7, false, NULL));
	tp_proc_rows_close(&t);
	unlink(p.path);
}

/* A file many times larger than one read: lines cut between reads. */
TEST(file_larger_than_a_read)
{
	struct tp_proc_rows t;
	struct proc_text p;
	char *text[2];
	size_t len[2] = { 0, 0 };
	unsigned int irq, i;
	FILE *f;

	for (i = 0; i < 2; i++) {
		f = open_memstream(&text[i], &len[i]);
		ASSERT_NE(NULL, f);
		fprintf(f, "            CPU0       CPU1\n");
		for (irq = 0; irq < 4000; irq++)
			fprintf(f, "%5u: %10u %10u   PCI-MSI %u-edge      dev%u-queue%u\n",
				irq, irq, irq + i * (irq % 3), irq, irq / 8, irq % 8);
		fprintf(f, "LOC: %10u %10u   Local timer interrupts\n", 5, 5 + i);
		fclose(f);
	}
	proc_text_init(&p);
	ASSERT_EQ(0, proc_text_set(&p, text[0]));
	ASSERT_EQ(0, tp_proc_rows_open(&t, p.path, 1, false, tp_irq_row_taken));
	ASSERT_GT(len[0], 4 * t.file.cap);
	ASSERT_EQ(0, proc_text_set(&p, text[1]));
	ASSERT_TRUE(tp_proc_rows_read(&t));
	EXPECT_EQ(4001, t.n);
	EXPECT_EQ(2, total_of(&t, "3998"));
	EXPECT_EQ(0, total_of(&t, "3999"));
	EXPECT_STREQ("dev499-queue7", row_of(&t, "3999")->name);
	EXPECT_EQ(1, total_of(&t, "LOC"));
	/* rows with irq % 3 == 1 counted 1, == 2 counted 2 */
	EXPECT_EQ(1333 + 2 * 1333 + 1, tp_proc_rows_total(&t));
	tp_proc_rows_close(&t);
	unlink(p.path);
	free(text[0]);
	free(text[1]);
}

/* Counters on synthetic files: @irqs rows "N:" with N = 1..@irqs. */
static void write_interrupts(struct proc_text *p, unsigned int irqs,
			     unsigned int step)
{
	char *text;
	size_t len;
	unsigned int i;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, "   CPU0\n");
	for (i = 1; i <= irqs; i++)
		fprintf(f, "%u: %u  PCI-MSI %u-edge  q%u\n", i, i * step, i, i);
	fprintf(f, "LOC: %u  Local timer interrupts\n", 1000 * step);
	fprintf(f, "NMI: %u  Non-maskable interrupts\n", 3 * step);
	fclose(f);
	proc_text_set(p, text);
	free(text);
}

/*
 * The sources the counters make: at most TSCPROBE_MAX_SOURCES named,
 * largest first, the rest as other; every count adds up to its kind's
 * total and to the windows' sums; the thread kind is the thread's
 * preemptions; no time anywhere; NMIs unknown; /proc/softirqs unreadable
 * leaves its kind unknown and nothing fails.
 */
TEST(sources_add_up_without_softirqs)
{
	const struct tp_proc_paths paths = {
		.interrupts = NULL, .softirqs = "/nonexistent/softirqs",
		.stat = "/nonexistent/stat",
	};
	struct tp_proc_paths with = paths;
	struct tp_cpu_counters c;
	struct tp_cpu_window w;
	struct tp_cpu_res *res = calloc(1, sizeof(*res));
	struct proc_text p;
	uint64_t named = 0, windows = 0;
	unsigned int i;

	ASSERT_NE(NULL, res);
	proc_text_init(&p);
	write_interrupts(&p, 40, 1);
	with.interrupts = p.path;
	tp_cpu_counters_open(&c, 0, &with);
	for (i = 2; i <= 3; i++) {
		write_interrupts(&p, 40, i);
		tp_cpu_counters_read(&c, &w);
		ASSERT_TRUE(w.irq_ok);
		EXPECT_FALSE(w.steal_ok);
		windows += w.irq;
	}
	res->ctx_invol.ok = true;
	res->ctx_invol.v = 4;
	tp_cpu_counters_sources(&c, res);
	EXPECT_TRUE(res->sources_untimed);
	EXPECT_EQ((1U << TSCPROBE_SOURCE_THREAD) | (1U << TSCPROBE_SOURCE_IRQ),
		  res->kinds_known);
	EXPECT_EQ(4, res->kinds[TSCPROBE_SOURCE_THREAD].count);
	/* rows 1..40 counted 2 * i each, LOC 2000; not the NMIs */
	EXPECT_EQ(2 * 820 + 2000, res->kinds[TSCPROBE_SOURCE_IRQ].count);
	EXPECT_EQ(windows, res->kinds[TSCPROBE_SOURCE_IRQ].count);
	ASSERT_EQ(TSCPROBE_MAX_SOURCES + 1, res->nsources);
	EXPECT_STREQ("LOC", res->sources[0].name);
	EXPECT_TRUE(res->sources[0].no_id);
	EXPECT_EQ(40, res->sources[1].id);
	EXPECT_STREQ("q40", res->sources[1].name);
	EXPECT_FALSE(res->sources[1].no_id);
	EXPECT_EQ(TSCPROBE_SOURCE_OTHER, res->sources[TSCPROBE_MAX_SOURCES].kind);
	/* the 9 smallest rows, 1..9, as other */
	EXPECT_EQ(2 * 45, res->sources[TSCPROBE_MAX_SOURCES].count);
	for (i = 0; i < res->nsources; i++) {
		named += res->sources[i].count;
		EXPECT_EQ(0, res->sources[i].cycles);
		if (i && i < TSCPROBE_MAX_SOURCES)
			EXPECT_GE(res->sources[i - 1].count, res->sources[i].count);
	}
	EXPECT_EQ(res->kinds[TSCPROBE_SOURCE_IRQ].count, named);
	tp_cpu_counters_close(&c);
	free(res);
	unlink(p.path);
}

/*
 * Steal time from /proc/stat, the eighth value of the CPU's line (not the
 * machine's "cpu" line, nor "cpu10" for CPU 1), in clock ticks; with
 * neither /proc/interrupts nor /proc/softirqs readable, their counts are
 * unknown and nothing fails.
 */
TEST(steal_time_and_no_interrupts)
{
	const long hz = sysconf(_SC_CLK_TCK);
	struct tp_proc_paths paths = {
		.interrupts = "/nonexistent/interrupts",
		.softirqs = "/nonexistent/softirqs",
	};
	struct tp_cpu_res *res = calloc(1, sizeof(*res));
	struct tp_cpu_counters c;
	struct tp_cpu_window w;
	struct proc_text p;

	ASSERT_NE(NULL, res);
	ASSERT_GT(hz, 0);
	proc_text_init(&p);
	paths.stat = p.path;
	ASSERT_EQ(0, proc_text_set(&p, "cpu  9 9 9 9 9 9 9 999 0 0\n"
				   "cpu1 1 2 3 4 5 6 7 100 0 0\n"
				   "cpu10 1 2 3 4 5 6 7 500 0 0\nintr 5\n"));
	tp_cpu_counters_open(&c, 1, &paths);
	ASSERT_EQ(0, proc_text_set(&p, "cpu  9 9 9 9 9 9 9 999 0 0\n"
				   "cpu1 1 2 3 4 5 6 7 150 0 0\n"
				   "cpu10 1 2 3 4 5 6 7 900 0 0\nintr 5\n"));
	tp_cpu_counters_read(&c, &w);
	EXPECT_TRUE(w.steal_ok);
	EXPECT_EQ(50 * (1000000000ULL / (uint64_t)hz), w.steal_ns);
	EXPECT_FALSE(w.irq_ok);
	tp_cpu_counters_sources(&c, res);
	EXPECT_EQ(0, res->kinds_known);
	EXPECT_EQ(0, res->nsources);
	tp_cpu_counters_close(&c);
	free(res);
	unlink(p.path);
}

/* The CLI's standard output for @args, NUL-terminated (NULL: it failed). */
static char *cli_output(const char *args)
{
	char cli[PATH_MAX], cmd[PATH_MAX + 256], *out = NULL;
	size_t len = 0, n;
	char buf[4096];
	FILE *p, *m;

	if (tp_test_cli_path(cli, sizeof(cli)))
		return NULL;
	snprintf(cmd, sizeof(cmd), "%s %s", cli, args);
	p = popen(cmd, "r");
	m = open_memstream(&out, &len);
	if (!p || !m)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, m);
	fclose(m);
	if (pclose(p)) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Live: the engine on CPU 0 of this machine for 300 ms.  The local timer
 * is named with a count; every named count adds up to its kind's, and
 * both kinds' to the named ones; the interrupts counted between the first
 * and last windows are no more than those of the whole run; the thread
 * kind is the thread's preemptions; no time, no NMI, no event's sources.
 */
TEST(live_user_engine_names_the_timer)
{
	static const char filter[] =
		".cpus[0] as $c | $c.sources as $s | $s.named as $n |"
		" $s.timed == false and $s.lost == null and $s.kinds.nmi == null and"
		" any($n[]; .kind == \"irq\" and .name == \"LOC\" and .id == null and .count > 0) and"
		" all($n[]; .count > 0 and .cycles == null and .ns == null) and"
		" all($s.kinds[] | select(. != null); .count >= 0 and .cycles == null) and"
		" ([$n[].count] | add) == $s.kinds.irq.count + $s.kinds.softirq.count and"
		" (any($n[]; .kind == \"other\") or"
		"  (([$n[] | select(.kind == \"irq\") | .count] | add) == $s.kinds.irq.count and"
		"   ([$n[] | select(.kind == \"softirq\") | .count] | add // 0) == $s.kinds.softirq.count)) and"
		" $s.kinds.irq.count <= $c.irq_count and"
		" ([$n[] | select(.name == \"LOC\" and .id == null) | .count] | add) <= $c.interrupts.LOC and"
		" $s.kinds.thread.count == $c.scheduler.involuntary_switches and"
		" all($c.events[]; .sources == null)";
	char *out = cli_output("noise --user -c 0 -d 300ms -q -j");

	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", filter)) TH_LOG("%s", out);
	free(out);
	out = cli_output("noise --user -c 0 -d 200ms -q -v");
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\n  ran on the CPU over the run, counted from /proc: "))
		TH_LOG("%s", out);
	/* Among the largest, not always first: a busy host sends IPIs. */
	EXPECT_NE(NULL, strstr(out, "\n    irq LOC: ")) TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
