/* SPDX-License-Identifier: GPL-2.0 */
/* irqs.c: the interrupts and NMIs a CPU has taken */
#ifndef TSCPROBE_KMOD_IRQS_H
#define TSCPROBE_KMOD_IRQS_H

#include <linux/types.h>

u32 tp_irq_count(unsigned int cpu);
u32 tp_nmi_count(unsigned int cpu);

#endif /* TSCPROBE_KMOD_IRQS_H */
