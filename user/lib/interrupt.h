/* SPDX-License-Identifier: GPL-2.0 */
/* Ctrl-C ends a measurement, not the CLI (interrupt.c). */
#ifndef TSCPROBE_USER_INTERRUPT_H
#define TSCPROBE_USER_INTERRUPT_H

#include <stdbool.h>

void tp_catch_interrupt(void);
bool tp_interrupted(void);

#endif /* TSCPROBE_USER_INTERRUPT_H */
