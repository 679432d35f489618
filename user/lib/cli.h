/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's common words: exit codes, CPU sets, and the parsing and error
 * helpers every command shares (parse.c).
 */
#ifndef TSCPROBE_USER_CLI_H
#define TSCPROBE_USER_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes scripts can rely on (documented in the man page). */
enum tp_exit {
	TP_EXIT_OK = 0,		/* done */
	TP_EXIT_FAIL = 1,	/* the kernel or the system refused */
	TP_EXIT_USAGE = 2,	/* bad command line; nothing was started */
	TP_EXIT_NOMODULE = 3,	/* the module is not loaded */
	TP_EXIT_BUSY = 4,	/* another run is in progress */
	TP_EXIT_PERM = 5,	/* not permitted: needs CAP_NET_ADMIN */
	TP_EXIT_NORESULT = 6,	/* no results, or no run to stop */
	TP_EXIT_OVER_LIMIT = 7,	/* measured; a limit failed (--fail-above) */
	TP_EXIT_INTERRUPTED = 130, /* stopped by Ctrl-C; results printed */
};

/* Bitmap CPU set, as in the contract: CPU n is bit n % 8 of byte n / 8. */
#define TP_MAX_CPUS	8192
struct tp_cpuset {
	uint8_t bits[TP_MAX_CPUS / 8];
	unsigned int nbytes;	/* bytes in use: highest set CPU / 8 + 1 */
};

/* parse.c */
void tp_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tp_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int tp_bad_option(const char *cmd, int c, char **argv);
int tp_parse_cpus(const char *s, struct tp_cpuset *set, const char **why);
bool tp_cpuset_has(const struct tp_cpuset *set, unsigned int cpu);
void tp_cpuset_add(struct tp_cpuset *set, unsigned int cpu);
unsigned int tp_cpuset_count(const struct tp_cpuset *set);
int tp_cpuset_next(const struct tp_cpuset *set, int prev);
void tp_cpuset_format(const struct tp_cpuset *set, char *buf, size_t len);
void tp_cpuset_who(const struct tp_cpuset *set, char *buf, size_t len);
void tp_cpuset_from_bytes(struct tp_cpuset *set, const void *bytes,
			  size_t len);
int tp_parse_duration(const char *s, uint64_t *ns, const char **why);
int tp_parse_threshold(const char *s, uint64_t *value, bool *cycles,
		       const char **why);
int tp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v,
		 const char **why);
void tp_format_ns(uint64_t ns, char *buf, size_t len);
void tp_format_cycles(uint64_t cycles, uint32_t tsc_khz, char *buf, size_t len);
int tp_online_cpus(struct tp_cpuset *set);
int tp_read_list(const char *path, struct tp_cpuset *set);
int tp_check_cpus(const char *cmd, struct tp_cpuset *cpus, bool given);

#endif /* TSCPROBE_USER_CLI_H */
