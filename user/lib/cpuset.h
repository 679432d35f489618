/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU sets (cpuset.c): the contract's bitmap, lists like "0-3,8", the
 * online CPUs, and the check of a command's CPUs before anything starts.
 */
#ifndef TSCPROBE_USER_CPUSET_H
#define TSCPROBE_USER_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bitmap CPU set, as in the contract: CPU n is bit n % 8 of byte n / 8. */
#define TP_MAX_CPUS	8192
struct tp_cpuset {
	uint8_t bits[TP_MAX_CPUS / 8];
	unsigned int nbytes;	/* bytes in use: highest set CPU / 8 + 1 */
};

int tp_parse_cpus(const char *s, struct tp_cpuset *set, const char **why);
int tp_cpus_option(const char *cmd, const char *arg, struct tp_cpuset *cpus);
bool tp_cpuset_has(const struct tp_cpuset *set, unsigned int cpu);
void tp_cpuset_add(struct tp_cpuset *set, unsigned int cpu);
unsigned int tp_cpuset_count(const struct tp_cpuset *set);
int tp_cpuset_next(const struct tp_cpuset *set, int prev);
void tp_cpuset_format(const struct tp_cpuset *set, char *buf, size_t len);
void tp_cpuset_who(const struct tp_cpuset *set, char *buf, size_t len);
void tp_cpuset_from_bytes(struct tp_cpuset *set, const void *bytes,
			  size_t len);
int tp_online_cpus(struct tp_cpuset *set);
int tp_read_list(const char *path, struct tp_cpuset *set);
int tp_check_cpus_in(const char *cmd, const char *opt,
		     const struct tp_cpuset *cpus, const struct tp_cpuset *set,
		     const char *name);
int tp_check_cpus(const char *cmd, struct tp_cpuset *cpus, bool given,
		  unsigned int max);

#endif /* TSCPROBE_USER_CPUSET_H */
