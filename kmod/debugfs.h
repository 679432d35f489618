/* SPDX-License-Identifier: GPL-2.0 */
/* debugfs.c: /sys/kernel/debug/tscprobe/, and the kinds' debugfs helper */
#ifndef TSCPROBE_KMOD_DEBUGFS_H
#define TSCPROBE_KMOD_DEBUGFS_H

struct seq_file;
struct tp_cpu;
struct tp_run;

void tp_debugfs_init(void);
void tp_debugfs_exit(void);
void tp_show_cpus(struct seq_file *m, struct tp_run *run,
		  void (*show_cpu)(struct seq_file *m, const struct tp_cpu *c,
				   void *snap));

#endif /* TSCPROBE_KMOD_DEBUGFS_H */
