/* SPDX-License-Identifier: GPL-2.0 */
/* Time and the TSC rate for the userspace engines (clock.c). */
#ifndef TSCPROBE_USER_CLOCK_H
#define TSCPROBE_USER_CLOCK_H

#include <stdint.h>

uint64_t tp_mono_raw_ns(void);
void tp_pause_ms(unsigned int ms);
uint32_t tp_user_tsc_khz(void);
uint32_t tp_engine_tsc_khz(void);
uint64_t tp_ns_cycles(uint64_t ns, uint32_t khz);

#endif /* TSCPROBE_USER_CLOCK_H */
