/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Doubles for machines (JSON, CSV, Prometheus): the shortest decimal
 * text that reads back as the same double (number.c).
 */
#ifndef TSCPROBE_USER_NUMBER_H
#define TSCPROBE_USER_NUMBER_H

#include <stdbool.h>

/* Room for any finite double: "-2.2250738585072014e-308" and its NUL. */
#define TP_NUMBER_LEN	32

bool tp_number(char buf[TP_NUMBER_LEN], double v);

#endif /* TSCPROBE_USER_NUMBER_H */
