// SPDX-License-Identifier: GPL-2.0
/*
 * Where a noise run's SMI count comes from, in the guest: unknown (null,
 * never the hypervisor's 0) in a virtual machine; in a guest that does not
 * say it is one (run.sh --cpu EPYC,-hypervisor: an AMD Zen), QEMU's
 * MSR_SMI_COUNT first, then, with the module's test hook taking the MSR as
 * unreadable as on AMD hardware, the PMU counter perf cannot give under
 * TCG.  A program of its own so that make test can run it in that guest
 * alone.
 */
#include "kselftest_harness.h"
#include "tp_test.h"

TP_RUN_FIXTURE(smi)

#define TP_SMI_RUN "tscprobe noise -c 0-1 -d 400ms --threshold 60c -q -j"

/*
 * Where the guest does not say it is a VM (run.sh --cpu EPYC,-hypervisor:
 * an AMD Zen with no PMU, as TCG emulates none), QEMU's MSR_SMI_COUNT
 * reads: every CPU's count says it came from there, and so does info.
 */
static void tp_check_smi_msr(struct __test_metadata *_metadata)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh(TP_SMI_RUN, &out));
	EXPECT_JQS(out, ".smi_count_unreadable == null",
		   "all(.cpus[]; .smi_source == \"msr\" and .smi_count >= 0)",
		   /* But where another event followed at once: none. */
		   "all(.cpus[].events[]; .smi >= 0 or"
		   " (.smi == null and .nmi == null and .irq == null))");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe info -j", &out));
	EXPECT_JQ(out, ".smi_source == \"msr\"");
	free(out);
	ASSERT_EQ(0, tp_sh("grep '^cpu ' /sys/kernel/debug/tscprobe/noise", &out));
	EXPECT_NE(NULL, strstr(out, " smi_source=msr")) TH_LOG("%s", out);
	free(out);
}

/*
 * The SMI count is unknown in a virtual machine, and where neither the
 * MSR nor a PMU counter can be read: null in every CPU, event and cause,
 * its source "none", with the reason, never the hypervisor's count of 0;
 * and no event is explained as if SMIs had been ruled out (the SMI cause
 * is null, not 0 events).  Where the guest does not say it is a VM, the
 * test hook takes the MSR as unreadable, as on AMD hardware: the module
 * then asks perf for a counter of the PMU's SMIs received, which a kernel
 * without a PMU refuses, and the kernel log stays clean (run.sh checks).
 */
TEST_F_TIMEOUT(smi, smi_unknown_where_unreadable, 120)
{
	bool vm = tp_guest_is_vm();
	const char *why = vm ? "virtual-machine" : "no-msr";
	char want[128];
	char *out = NULL;

	if (!vm) {
		tp_check_smi_msr(_metadata);
		ASSERT_EQ(0, tp_param_set("test_no_smi_msr", 1));
	}
	snprintf(want, sizeof(want), ".smi_count_unreadable == \"%s\"", why);
	ASSERT_EQ(0, tp_sh(TP_SMI_RUN, &out));
	EXPECT_JQS(out, want,
		   "all(.cpus[]; .smi_count == null and .causes.smi == null)",
		   "all(.cpus[]; .smi_source == \"none\")",
		   "all(.cpus[].events[]; .smi == null and .cause != \"smi\")",
		   "any(.cpus[]; (.events | length) > 0)",
		   "all(.cpus[]; ([.causes[] | select(. != null) | .events] | add) == .events_total)");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show noise -v", &out));
	EXPECT_NE(NULL, strstr(out, vm ? "smi n/a: a virtual machine" :
			       "smi n/a: neither MSR_SMI_COUNT")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ", smi n/a, nmi ")) TH_LOG("%s", out);
	free(out);
	ASSERT_EQ(0, tp_sh("cat /sys/kernel/debug/tscprobe/noise", &out));
	EXPECT_NE(NULL, strstr(out, "  causes: smi=- ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " smi_source=none")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, " smi=0")) TH_LOG("%s", out);
	free(out);
	snprintf(want, sizeof(want),
		 ".smi_source == \"none\" and .smi_count_unreadable == \"%s\""
		 " and (.features | index(\"smi_pmu\") == null)", why);
	ASSERT_EQ(0, tp_sh("tscprobe info -j", &out));
	EXPECT_JQ(out, want);
	free(out);
	if (!vm)
		EXPECT_EQ(0, tp_param_set("test_no_smi_msr", 0));
}

TP_HARNESS_MAIN
