// SPDX-License-Identifier: GPL-2.0
/*
 * 6.16 renamed the 64-bit MSR accessors, rdmsrl_safe() among them, to
 * rdmsrq_safe() ("x86/msr: Rename 'rdmsrl_safe()' to 'rdmsrq_safe()'"),
 * and removed the old names.
 */
#include <asm/msr.h>

static __maybe_unused int tp_probe(void)
{
	u64 value;

	return rdmsrq_safe(MSR_SMI_COUNT, &value);
}
