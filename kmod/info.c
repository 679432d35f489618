// SPDX-License-Identifier: GPL-2.0
/*
 * What the module knows about the machine: the TSC's rate and features, the
 * CPUs, and which measurements it can run.  Answers GET_INFO and the debugfs
 * "info" view from one place.
 */
#include <linux/bitmap.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "attrs.h"
#include "info.h"
#include "run.h"
#include "smi.h"
#include "src_probes.h"
#include "core/names.h"

/* Every measurement converts between nanoseconds and cycles. */
int tp_info_need_tsc_khz(struct netlink_ext_ack *extack)
{
	if (!tsc_khz) {
		NL_SET_ERR_MSG(extack, "the TSC rate is unknown");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Whether TSCs of different CPUs compare: the kernel's verdict (its sync
 * checks and clocksource watchdog); the module knows no better.
 */
u32 tp_info_tsc_sync(void)
{
	return check_tsc_unstable() ? TSCPROBE_TSC_UNSTABLE :
				      TSCPROBE_TSC_STABLE;
}

/* What the last completed skew run says of the TSCs. */
struct tp_tsc_offsets {
	u64 run_id;
	unsigned int ref;		/* the lowest CPU measured */
	unsigned long *known;	/* nr_cpu_ids bits */
	s64 cycles[];		/* by CPU: its TSC minus ref's */
};

/* The offsets runs are told of; replaced whole, freed on unload. */
static DEFINE_MUTEX(tp_offsets_lock);
static struct tp_tsc_offsets *tp_offsets;	/* under tp_offsets_lock */

static void tp_tsc_offsets_free(struct tp_tsc_offsets *o)
{
	if (o) {
		bitmap_free(o->known);
		kvfree(o);
	}
}

/* Filled by tp_tsc_offsets_set(), then tp_info_publish_tsc_offsets(). */
struct tp_tsc_offsets *tp_tsc_offsets_alloc(u64 run_id, unsigned int ref)
{
	struct tp_tsc_offsets *o;

	o = kvzalloc(struct_size(o, cycles, nr_cpu_ids), GFP_KERNEL);
	if (!o)
		return NULL;
	o->known = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!o->known) {
		kvfree(o);
		return NULL;
	}
	o->run_id = run_id;
	o->ref = ref;
	set_bit(ref, o->known);
	return o;
}

void tp_tsc_offsets_set(struct tp_tsc_offsets *o, unsigned int cpu,
			s64 cycles)
{
	o->cycles[cpu] = cycles;
	set_bit(cpu, o->known);
}

/* The module owns @o from now on; NULL forgets the offsets. */
void tp_info_publish_tsc_offsets(struct tp_tsc_offsets *o)
{
	struct tp_tsc_offsets *old;

	mutex_lock(&tp_offsets_lock);
	old = tp_offsets;
	tp_offsets = o;
	mutex_unlock(&tp_offsets_lock);
	tp_tsc_offsets_free(old);
}

/* False unless a skew run measured @cpu; @run_id may be NULL. */
bool tp_info_tsc_offset(unsigned int cpu, s64 *cycles, u64 *run_id)
{
	bool known = false;

	mutex_lock(&tp_offsets_lock);
	if (tp_offsets && cpu < nr_cpu_ids && test_bit(cpu, tp_offsets->known)) {
		*cycles = tp_offsets->cycles[cpu];
		if (run_id)
			*run_id = tp_offsets->run_id;
		known = true;
	}
	mutex_unlock(&tp_offsets_lock);
	return known;
}

void tp_info_exit(void)
{
	tp_info_publish_tsc_offsets(NULL);
}

u32 tp_info_features(void)
{
	static const struct { u16 cpu_feature; u32 bit; } map[] = {
		{ X86_FEATURE_CONSTANT_TSC, TSCPROBE_FEAT_CONSTANT_TSC },
		{ X86_FEATURE_NONSTOP_TSC, TSCPROBE_FEAT_NONSTOP_TSC },
		{ X86_FEATURE_TSC_KNOWN_FREQ, TSCPROBE_FEAT_TSC_KNOWN_FREQ },
		{ X86_FEATURE_TSC_RELIABLE, TSCPROBE_FEAT_TSC_RELIABLE },
		{ X86_FEATURE_RDTSCP, TSCPROBE_FEAT_RDTSCP },
		{ X86_FEATURE_CLFLUSH, TSCPROBE_FEAT_CLFLUSH },
		{ X86_FEATURE_CLFLUSHOPT, TSCPROBE_FEAT_CLFLUSHOPT },
		{ X86_FEATURE_APERFMPERF, TSCPROBE_FEAT_APERFMPERF },
		{ X86_FEATURE_HYPERVISOR, TSCPROBE_FEAT_HYPERVISOR },
	};
	u32 bits = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (boot_cpu_has(map[i].cpu_feature))
			bits |= map[i].bit;
	if ((bits & TSCPROBE_FEAT_CONSTANT_TSC) &&
	    (bits & TSCPROBE_FEAT_NONSTOP_TSC))
		bits |= TSCPROBE_FEAT_INVARIANT_TSC;
	if (tp_smi_msr_readable())
		bits |= TSCPROBE_FEAT_SMI_COUNT;
	else if (tp_smi_pmu_capable())
		bits |= TSCPROBE_FEAT_SMI_PMU;
	return bits;
}

u32 tp_info_kinds(void)
{
	return BIT(TSCPROBE_KIND_NOISE) | BIT(TSCPROBE_KIND_CACHE) |
	       BIT(TSCPROBE_KIND_SKEW);
}

int tp_info_fill(struct sk_buff *skb)
{
	struct tp_run *run = tp_run_get_current();
	unsigned int state = tp_run_state(run);
	u64 run_id = run ? run->id : 0;

	tp_run_put(run);
	if (nla_put_string(skb, TSCPROBE_A_VERSION, TSCPROBE_VERSION) ||
	    nla_put_u32(skb, TSCPROBE_A_TSC_KHZ, tsc_khz) ||
	    nla_put_u32(skb, TSCPROBE_A_NR_CPU_IDS, nr_cpu_ids) ||
	    tp_nla_put_cpumask(skb, TSCPROBE_A_CPUS_ONLINE, cpu_online_mask) ||
	    nla_put_u32(skb, TSCPROBE_A_FEATURES, tp_info_features()) ||
	    nla_put_u32(skb, TSCPROBE_A_KINDS, tp_info_kinds()) ||
	    nla_put_u32(skb, TSCPROBE_A_STATE, state) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_RUN_ID, run_id) ||
	    nla_put_u32(skb, TSCPROBE_A_TSC_SYNC, tp_info_tsc_sync()))
		return -EMSGSIZE;
	return 0;
}

void tp_info_show(struct seq_file *m)
{
	struct tp_run *run = tp_run_get_current();
	u32 features = tp_info_features();
	u32 kinds = tp_info_kinds();
	unsigned int i;

	seq_printf(m, "version:      %s\n", TSCPROBE_VERSION);
	seq_printf(m, "tsc_khz:      %u\n", tsc_khz);
	seq_printf(m, "nr_cpu_ids:   %u\n", nr_cpu_ids);
	seq_printf(m, "cpus_online:  %*pbl\n", cpumask_pr_args(cpu_online_mask));
	seq_puts(m, "features:    ");
	for (i = 0; i < TP_FEATURE_BITS; i++)
		if (features & BIT(i))
			seq_printf(m, " %s", tp_feature_name(i));
	seq_puts(m, "\nmeasurements:");
	for (i = 1; i <= TSCPROBE_KIND_MAX; i++)
		if (kinds & BIT(i))
			seq_printf(m, " %s", tp_kind_name(i));
	seq_printf(m, "\nstate:        %s\n", tp_state_name(tp_run_state(run)));
	seq_printf(m, "run_id:       %llu\n", run ? run->id : 0ULL);
	seq_printf(m, "tsc_sync:     %s\n", tp_tsc_sync_name(tp_info_tsc_sync()));
	tp_src_probes_show(m);
	tp_run_put(run);
}
