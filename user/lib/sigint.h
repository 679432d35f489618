/* SPDX-License-Identifier: GPL-2.0 */
/* Ctrl-C ends a measurement, not the CLI (sigint.c). */
#ifndef TSCPROBE_USER_SIGINT_H
#define TSCPROBE_USER_SIGINT_H

#include <stdbool.h>

void tp_catch_interrupt(void);
bool tp_interrupted(void);

#endif /* TSCPROBE_USER_SIGINT_H */
