// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe - how quiet is a CPU really?
 *
 * Measurement threads run the loops of core/ with interrupts disabled, in
 * bounded windows, on the CPUs a user picks; results are read through the
 * "tscprobe" generic netlink family and /sys/kernel/debug/tscprobe/.
 *
 * Bring-up order matters: the run machinery (CPU hotplug state) must exist
 * before netlink can start a run.  On unload the current run is ended while
 * netlink is still there (so listeners hear why it ended), new runs are
 * refused, and only then is the family unregistered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>

#include <linux/tscprobe.h>
#include "debugfs.h"
#include "info.h"
#include "netlink.h"
#include "run.h"
#include "src_probes.h"

static int __init tp_init(void)
{
	int err;

	tp_debugfs_init();
	err = tp_run_init();
	if (err)
		goto err_debugfs;
	err = tp_netlink_init();
	if (err)
		goto err_run;
	pr_info("version %s loaded\n", TSCPROBE_VERSION);
	return 0;

err_run:
	tp_run_exit();
err_debugfs:
	tp_debugfs_exit();
	return err;
}

static void __exit tp_exit(void)
{
	tp_run_shutdown();
	tp_netlink_exit();
	tp_run_exit();
	tp_info_exit();
	tp_debugfs_exit();
	pr_info("unloaded\n");
	tp_src_probes_exit();
}

module_init(tp_init);
module_exit(tp_exit);

MODULE_DESCRIPTION("tscprobe: TSC noise, cache timing and TSC skew with interrupts off");
MODULE_AUTHOR("The tscprobe authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(TSCPROBE_VERSION);
MODULE_ALIAS_GENL_FAMILY(TSCPROBE_GENL_NAME);
