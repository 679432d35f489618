// SPDX-License-Identifier: GPL-2.0
/*
 * CPU sets (cpuset.h): the bitmap of the contract, the lists that write it
 * ("0-3,8"), the online CPUs from sysfs, and the check every command makes
 * of the CPUs it is given.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/cpuset.h"

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

/**
 * tp_cpus_option() - take -c CPUS
 * @cmd: the subcommand, for the error
 * @arg: the list, like 0-3,8
 * @cpus: set to it
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE saying what is wrong with @arg.
 */
int tp_cpus_option(const char *cmd, const char *arg, struct tp_cpuset *cpus)
{
	const char *why;

	if (tp_parse_cpus(arg, cpus, &why))
		return tp_usage_err(cmd, "-c '%s': %s", arg, why);
	return TP_EXIT_OK;
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
 * tp_check_cpus_in() - refuse CPUs outside a set, naming the first
 * @cmd: the subcommand, for the message
 * @opt: the option that gave them: "-c", "--load-cpus"
 * @cpus: the CPUs given
 * @set: the CPUs they may be
 * @name: what @set is: "online" (measurements), "present" (env)
 *
 * Every command checks the CPUs it is given here, so that a CPU it cannot
 * take is one refusal, with one exit code, whatever the command.
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE (one line printed, with @set).
 */
int tp_check_cpus_in(const char *cmd, const char *opt,
		     const struct tp_cpuset *cpus, const struct tp_cpuset *set,
		     const char *name)
{
	char list[200];
	int cpu = -1;

	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		if (tp_cpuset_has(set, (unsigned int)cpu))
			continue;
		tp_cpuset_format(set, list, sizeof(list));
		return tp_usage_err(cmd, "%s: CPU %d is not %s (%s: %s)", opt,
				    cpu, name, name, list);
	}
	return TP_EXIT_OK;
}

/**
 * tp_check_cpus() - settle a measurement's CPU set before anything starts
 * @cmd: the subcommand, for messages
 * @cpus: the CPUs from -c, or set to every online CPU
 * @given: -c was given
 * @max: the most CPUs one run of it takes
 *
 * Everything the module would refuse about the set is refused here first.
 *
 * Return: TP_EXIT_OK, TP_EXIT_USAGE (one line printed), or TP_EXIT_FAIL
 * when sysfs cannot be read.
 */
int tp_check_cpus(const char *cmd, struct tp_cpuset *cpus, bool given,
		  unsigned int max)
{
	struct tp_cpuset online;
	unsigned int n;
	int ret;

	if (tp_online_cpus(&online)) {
		tp_err("cannot read the online CPUs from /sys");
		return TP_EXIT_FAIL;
	}
	if (!given)
		*cpus = online;
	ret = tp_check_cpus_in(cmd, "-c", cpus, &online, "online");
	n = tp_cpuset_count(cpus);
	if (!ret && n > max)
		ret = tp_usage_err(cmd, "-c: %u CPUs, at most %u per %s run", n,
				   max, cmd);
	return ret;
}
