// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/tscprobe/: read-only text views for a human with cat.
 * "info" and "status" describe the module and the current run; one file per
 * measurement shows the current results in the original programs' formats.
 * The files are root-only (0400): debugfs is a debugging interface.
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <linux/tscprobe.h>
#include "debugfs.h"
#include "info.h"
#include "kinds.h"
#include "run.h"
#include "core/names.h"

static struct dentry *tp_debugfs_dir;

/*
 * After the module's description, two counts for tests and the curious:
 * the source probes' attach operations since load (each patched kernel
 * text), and the runs in memory (the current one, and any a reader or a
 * finisher uses at this moment).
 */
static int info_show(struct seq_file *m, void *unused)
{
	tp_info_show(m);
	seq_printf(m, "attaches:     %lu\n", tp_run_probe_attaches());
	seq_printf(m, "runs_alive:   %d\n", tp_run_count_alive());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(info);

static int status_show(struct seq_file *m, void *unused)
{
	struct tp_run *run = tp_run_get_current();
	unsigned int i;

	seq_printf(m, "state: %s\n", tp_state_name(tp_run_state(run)));
	if (run) {
		seq_printf(m, "run_id: %llu\nkind: %s\nelapsed_ns: %llu\nend: %s\ncpus: %*pbl\n",
			   run->id, tp_kind_name(run->kind->id),
			   tp_run_elapsed_ns(run),
			   tp_stop_reason_name(READ_ONCE(run->reason)),
			   cpumask_pr_args(run->cpus));
		for (i = 0; i < run->nr_cpus; i++) {
			unsigned long f = READ_ONCE(run->slots[i].flags);

			seq_printf(m, "cpu %u: %s%s\n", run->slots[i].cpu,
				   test_bit(TP_CPU_DONE, &f) ? "done" : "running",
				   !test_bit(TP_CPU_INCOMPLETE, &f) ? "" :
				   test_bit(TP_CPU_HELD, &f) ?
				   ", incomplete (held: its CPU ran nothing, not even the thread)" :
				   test_bit(TP_CPU_STARVED, &f) ?
				   ", incomplete (starved: its thread could not get the CPU)" :
				   test_bit(TP_CPU_OFFLINE, &f) ?
				   ", incomplete (went offline)" :
				   ", incomplete (measured nothing)");
		}
	}
	tp_run_put(run);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

/*
 * @show_cpu gets a private copy of the snapshot, its own to sort: the
 * thread goes on.
 */
void tp_show_cpus(struct seq_file *m, struct tp_run *run,
		  void (*show_cpu)(struct seq_file *m, const struct tp_cpu *c,
				   void *snap))
{
	size_t size = run->kind->measure->snap_size;
	unsigned int i;
	void *copy;

	copy = kvmalloc(size, GFP_KERNEL);
	if (!copy)
		return;
	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_cpu *c = &run->slots[i];

		tp_cpu_copy_snap(c, copy);
		show_cpu(m, c, copy);
	}
	kvfree(copy);
}

/* One file per measurement; the file's private data is the kind. */
static int tp_kind_show(struct seq_file *m, void *unused)
{
	unsigned int kind = (unsigned long)m->private;
	struct tp_run *run = tp_run_get_current();

	if (run && run->kind->id == kind)
		run->kind->report->show(m, run);
	else
		seq_printf(m, "no %s results\n", tp_kind_name(kind));
	tp_run_put(run);
	return 0;
}

static int tp_kind_open(struct inode *inode, struct file *file)
{
	return single_open(file, tp_kind_show, inode->i_private);
}

static const struct file_operations tp_kind_fops = {
	.owner = THIS_MODULE,
	.open = tp_kind_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* As everywhere in the kernel, a debugfs failure is not an error. */
void tp_debugfs_init(void)
{
	unsigned long kind;

	tp_debugfs_dir = debugfs_create_dir(TSCPROBE_GENL_NAME, NULL);
	debugfs_create_file("info", 0400, tp_debugfs_dir, NULL, &info_fops);
	debugfs_create_file("status", 0400, tp_debugfs_dir, NULL,
			    &status_fops);
	for (kind = TSCPROBE_KIND_NOISE; kind <= TSCPROBE_KIND_MAX; kind++)
		if (tp_info_kinds() & BIT(kind))
			debugfs_create_file(tp_kind_name(kind), 0400,
					    tp_debugfs_dir, (void *)kind,
					    &tp_kind_fops);
}

/* Waits for readers to finish. */
void tp_debugfs_exit(void)
{
	debugfs_remove_recursive(tp_debugfs_dir);
}
