// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line values: CPU lists ("0-3,8"), durations ("500us", "1.5s"),
 * thresholds ("10us" or "2000c"), bounded integers; and the one-line error
 * messages of the CLI.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tscprobe.h>
#include "cli.h"
#include "core/report.h"

/*
 * Print "tscprobe: MESSAGE" and a newline on stderr, in one line whatever
 * the message quotes from the command line: control characters (a newline,
 * an escape sequence) are written as \xNN, and a message longer than a
 * screenful is cut with "...".
 */
static void tp_verr(const char *fmt, va_list ap, const char *tail)
{
	char msg[1024];
	const unsigned char *p;
	int n;

	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n >= (int)sizeof(msg))
		memcpy(msg + sizeof(msg) - 4, "...", 4);
	fputs("tscprobe: ", stderr);
	for (p = (const unsigned char *)msg; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputs(tail, stderr);
}

/**
 * tp_err() - print "tscprobe: MESSAGE" on stderr, in one line
 * @fmt: printf-style format
 */
void tp_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_verr(fmt, ap, "\n");
	va_end(ap);
}

/**
 * tp_usage_err() - report a bad command line in one line
 * @cmd: the subcommand, for the hint
 * @fmt: printf-style format of what is wrong
 *
 * Return: TP_EXIT_USAGE.
 */
int tp_usage_err(const char *cmd, const char *fmt, ...)
{
	char tail[64];
	va_list ap;

	snprintf(tail, sizeof(tail), " (see 'tscprobe %s --help')\n",
		 cmd ? cmd : "");
	va_start(ap, fmt);
	tp_verr(fmt, ap, tail);
	va_end(ap);
	return TP_EXIT_USAGE;
}

/**
 * tp_bad_option() - report what getopt_long() did not accept
 * @cmd: the subcommand
 * @c: what getopt_long() returned: '?' (unknown) or ':' (missing value)
 * @argv: the arguments, for the option's text
 *
 * The option strings start with ":" so that getopt reports missing values
 * as ':' and stays quiet: every message is the CLI's own, in one line.
 *
 * Return: TP_EXIT_USAGE.
 */
int tp_bad_option(const char *cmd, int c, char **argv)
{
	const char *opt = argv[optind - 1];

	if (c == ':')
		return tp_usage_err(cmd, "option '%s' needs a value", opt);
	if (optopt && strncmp(opt, "--", 2))
		return tp_usage_err(cmd, "unknown option '-%c'", optopt);
	return tp_usage_err(cmd, "unknown option '%s'", opt);
}

bool tp_cpuset_has(const struct tp_cpuset *set, unsigned int cpu)
{
	return cpu < TP_MAX_CPUS && (set->bits[cpu / 8] >> (cpu % 8)) & 1;
}

void tp_cpuset_add(struct tp_cpuset *set, unsigned int cpu)
{
	if (cpu >= TP_MAX_CPUS)
		return;
	set->bits[cpu / 8] |= 1u << (cpu % 8);
	if (cpu / 8 + 1 > set->nbytes)
		set->nbytes = cpu / 8 + 1;
}

unsigned int tp_cpuset_count(const struct tp_cpuset *set)
{
	unsigned int i, n = 0;

	for (i = 0; i < set->nbytes; i++)
		n += (unsigned int)__builtin_popcount(set->bits[i]);
	return n;
}

/**
 * tp_cpuset_next() - the next CPU of a set
 * @set: the set
 * @prev: the previous CPU, or -1 to start
 *
 * Return: the next CPU after @prev, or -1 when there is none.
 */
int tp_cpuset_next(const struct tp_cpuset *set, int prev)
{
	unsigned int cpu;

	for (cpu = (unsigned int)(prev + 1); cpu < set->nbytes * 8; cpu++)
		if (tp_cpuset_has(set, cpu))
			return (int)cpu;
	return -1;
}

void tp_cpuset_from_bytes(struct tp_cpuset *set, const void *bytes,
			  size_t len)
{
	memset(set, 0, sizeof(*set));
	if (len > sizeof(set->bits))
		len = sizeof(set->bits);
	memcpy(set->bits, bytes, len);
	set->nbytes = (unsigned int)len;
}

/**
 * tp_cpuset_format() - write a set as a list like "0-3,8"
 * @set: the set
 * @buf: the output
 * @len: its size ("..." ends a list that does not fit)
 */
void tp_cpuset_format(const struct tp_cpuset *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu = tp_cpuset_next(set, -1);

	buf[0] = '\0';
	while (cpu >= 0) {
		int last = cpu, next;
		int n;

		while ((next = tp_cpuset_next(set, last)) == last + 1)
			last = next;
		n = last == cpu ?
			snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu) :
			snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "",
				 cpu, last);
		if (n < 0 || (size_t)n >= len - used) {
			if (len >= 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		used += (size_t)n;
		cpu = next;
	}
}

/**
 * tp_cpuset_who() - a set named for a sentence: "CPU 3", "CPUs 0-63"
 * @set: the set
 * @buf: the output
 * @len: its size
 */
void tp_cpuset_who(const struct tp_cpuset *set, char *buf, size_t len)
{
	char list[200];

	tp_cpuset_format(set, list, sizeof(list));
	snprintf(buf, len, "CPU%s %s", tp_cpuset_count(set) > 1 ? "s" : "",
		 list);
}

static int tp_parse_cpu_number(const char **s, unsigned int *cpu)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v >= TP_MAX_CPUS)
		return -1;
	*cpu = (unsigned int)v;
	*s = end;
	return 0;
}

/**
 * tp_parse_cpus() - parse a CPU list such as "1,3,5-7"
 * @s: the text
 * @set: the result
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_cpus(const char *s, struct tp_cpuset *set, const char **why)
{
	unsigned int a, b, cpu;

	memset(set, 0, sizeof(*set));
	if (!*s) {
		*why = "empty CPU list";
		return -1;
	}
	for (;;) {
		if (tp_parse_cpu_number(&s, &a)) {
			*why = "expected a CPU number below 8192";
			return -1;
		}
		b = a;
		if (*s == '-') {
			s++;
			if (tp_parse_cpu_number(&s, &b) || b < a) {
				*why = "bad range (write it as LOW-HIGH)";
				return -1;
			}
		}
		for (cpu = a; cpu <= b; cpu++)
			tp_cpuset_add(set, cpu);
		if (!*s)
			return 0;
		if (*s++ != ',') {
			*why = "CPUs are separated by commas";
			return -1;
		}
	}
}

/* Parse "12", "1.5" into value * 10^9 (nanounits); returns end or NULL. */
static const char *tp_parse_decimal(const char *s, uint64_t scale,
				    uint64_t *out)
{
	uint64_t whole = 0, frac = 0, div = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p)) {
		if (whole > (UINT64_MAX - 9) / 10)
			return NULL;
		whole = whole * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p)) {
			if (div < 1000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				div *= 10;
			}
			p++;
		}
	}
	if (scale && whole > UINT64_MAX / scale)
		return NULL;
	*out = whole * scale + frac * scale / div;
	return p;
}

static const struct { const char *unit; uint64_t ns; } tp_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000ULL },
	{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
};

/**
 * tp_parse_duration() - parse a duration such as "500us", "10s", "2m"
 * @s: the text; a bare number means seconds
 * @ns: the result in nanoseconds
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_duration(const char *s, uint64_t *ns, const char **why)
{
	const char *unit;
	size_t i;

	for (i = 0; i < sizeof(tp_units) / sizeof(tp_units[0]); i++) {
		unit = s + strspn(s, "0123456789.");
		if (strcmp(unit, tp_units[i].unit) && !(!*unit && i == 3))
			continue;
		if (tp_parse_decimal(s, tp_units[i].ns, ns) != unit) {
			*why = "expected a number with a unit: ns, us, ms, s, m, h";
			return -1;
		}
		return 0;
	}
	*why = "expected a number with a unit: ns, us, ms, s, m, h";
	return -1;
}

/**
 * tp_parse_threshold() - a duration, or TSC cycles with a "c" suffix
 * @s: the text, e.g. "10us" or "25000c"
 * @value: nanoseconds, or cycles when *@cycles
 * @cycles: set when the value is in cycles
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_threshold(const char *s, uint64_t *value, bool *cycles,
		       const char **why)
{
	const char *suffix = s + strspn(s, "0123456789");
	char *end;

	*cycles = !strcmp(suffix, "c") || !strcmp(suffix, "cycles");
	if (!*cycles)
		return tp_parse_duration(s, value, why);
	errno = 0;
	*value = strtoull(s, &end, 10);
	if (suffix == s || end != suffix || errno || !*value) {
		*why = "expected a positive number of cycles, like 2000c";
		return -1;
	}
	return 0;
}

/**
 * tp_parse_u64() - parse a decimal integer in [min, max]
 * @s: the text (digits only; "1e6" style exponents are accepted)
 * @min: smallest allowed
 * @max: largest allowed
 * @v: the result
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v,
		 const char **why)
{
	uint64_t x = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p)) {
		*why = "expected a whole number";
		return -1;
	}
	while (isdigit((unsigned char)*p)) {
		if (x > (UINT64_MAX - 9) / 10)
			goto range;
		x = x * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p == 'e' && isdigit((unsigned char)p[1]) && !p[2]) {
		int e = p[1] - '0';

		while (e--) {
			if (x > UINT64_MAX / 10)
				goto range;
			x *= 10;
		}
		p += 2;
	}
	if (*p) {
		*why = "expected a whole number";
		return -1;
	}
	if (x < min || x > max)
		goto range;
	*v = x;
	return 0;
range:
	*why = "out of range";
	return -1;
}

/**
 * tp_format_ns() - a duration for humans: "850ns", "12.5us", "1.20s"
 * @ns: nanoseconds
 * @buf: the output
 * @len: its size
 */
void tp_format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

/**
 * tp_format_cycles() - a TSC interval for humans, as tp_format_ns() writes
 *	its duration at @tsc_khz, or "N cycles" where the rate is unknown
 * @cycles: TSC cycles
 * @tsc_khz: the TSC's frequency (0: unknown)
 * @buf: the output
 * @len: its size
 */
void tp_format_cycles(uint64_t cycles, uint32_t tsc_khz, char *buf, size_t len)
{
	if (!tsc_khz)
		snprintf(buf, len, "%llu cycles", (unsigned long long)cycles);
	else
		tp_format_ns(tp_cycles_to_ns_round(cycles, tsc_khz), buf, len);
}

/**
 * tp_read_list() - a list like "0-3,8" from a file (sysfs)
 * @path: the file
 * @set: the result
 *
 * Return: 0, or -1 when the file cannot be read or parsed.
 */
int tp_read_list(const char *path, struct tp_cpuset *set)
{
	char line[4096];
	const char *why;
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ret = tp_parse_cpus(line, set, &why);
	}
	fclose(f);
	return ret;
}

/**
 * tp_online_cpus() - the online CPUs, from sysfs
 * @set: the result
 *
 * Return: 0, or -1 when sysfs cannot be read.
 */
int tp_online_cpus(struct tp_cpuset *set)
{
	return tp_read_list("/sys/devices/system/cpu/online", set);
}

/**
 * tp_check_cpus() - settle a subcommand's CPU set before anything starts
 * @cmd: the subcommand, for messages
 * @cpus: the CPUs from -c, or set to every online CPU
 * @given: -c was given
 *
 * Everything the module would refuse about the set is refused here first.
 *
 * Return: TP_EXIT_OK, TP_EXIT_USAGE (one line printed), or TP_EXIT_FAIL
 * when sysfs cannot be read.
 */
int tp_check_cpus(const char *cmd, struct tp_cpuset *cpus, bool given)
{
	struct tp_cpuset online;
	int cpu = -1;

	if (tp_online_cpus(&online)) {
		tp_err("cannot read the online CPUs from /sys");
		return TP_EXIT_FAIL;
	}
	if (!given)
		*cpus = online;
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0)
		if (!tp_cpuset_has(&online, (unsigned int)cpu))
			return tp_usage_err(cmd, "-c: CPU %d is not online", cpu);
	if (tp_cpuset_count(cpus) > TSCPROBE_MAX_RUN_CPUS)
		return tp_usage_err(cmd, "-c: at most %d CPUs per run",
				    TSCPROBE_MAX_RUN_CPUS);
	return TP_EXIT_OK;
}
