// SPDX-License-Identifier: GPL-2.0
/*
 * The environment audit, for "tscprobe env" and every report.  Everything is read from /proc and
 * /sys under $TSCPROBE_SYSROOT (default: the real ones), so that tests can
 * point it at a synthetic tree; nothing needs the module or root.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/clock.h"
#include "user/lib/env.h"
#include "user/lib/json_write.h"

/* Latency above which an enabled idle state is worth a warning. */
#define TP_CSTATE_WARN_US	10

/* A path under the system root. */
static const char *tp_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = getenv("TSCPROBE_SYSROOT");
	va_list ap;
	int n;

	n = snprintf(buf, len, "%s", root ? root : "");
	va_start(ap, fmt);
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return buf;
}

/* The first line of a file, without its newline; -1 if unreadable. */
static int tp_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = -1;

	buf[0] = '\0';
	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

static long tp_read_long(const char *path)
{
	char line[64];
	char *end;
	long v;

	if (tp_read_line(path, line, sizeof(line)))
		return -1;
	v = strtol(line, &end, 10);
	return end == line ? -1 : v;
}

/* A CPU list file; an empty file is an empty set. */
static int tp_read_cpuset(const char *path, struct tp_cpuset *set)
{
	char line[4096];
	const char *why;

	memset(set, 0, sizeof(*set));
	if (tp_read_line(path, line, sizeof(line)))
		return -1;
	if (!line[0])
		return 0;
	return tp_parse_cpus(line, set, &why);
}

/**
 * tp_env_online() - the online CPUs, read under the system root
 * @set: filled in
 * @path: set to the file read, for an error message
 * @len: size of @path
 *
 * Return: 0, or -1 when the list cannot be read.
 */
int tp_env_online(struct tp_cpuset *set, char *path, size_t len)
{
	return tp_read_cpuset(tp_path(path, len,
				      "/sys/devices/system/cpu/online"), set);
}

/**
 * tp_env_present() - the CPUs present (online or not), under the root
 * @set: filled in
 *
 * Return: 0, or -1 when the list cannot be read.
 */
int tp_env_present(struct tp_cpuset *set)
{
	char path[512];

	return tp_read_cpuset(tp_path(path, sizeof(path),
				      "/sys/devices/system/cpu/present"), set);
}

/**
 * tp_env_cpu_long() - a number from a CPU's sysfs directory, under the root
 * @cpu: the CPU
 * @rel: the file under /sys/devices/system/cpu/cpuN/
 *
 * Return: the number, or -1 when the file cannot be read.
 */
long tp_env_cpu_long(unsigned int cpu, const char *rel)
{
	char path[512];

	return tp_read_long(tp_path(path, sizeof(path),
				    "/sys/devices/system/cpu/cpu%u/%s", cpu, rel));
}

/**
 * tp_env_cpu_list() - a CPU list from a CPU's sysfs directory
 * @cpu: the CPU
 * @rel: the file under /sys/devices/system/cpu/cpuN/
 * @set: filled in
 *
 * Return: 0, or -1 when the file cannot be read or parsed.
 */
int tp_env_cpu_list(unsigned int cpu, const char *rel, struct tp_cpuset *set)
{
	char path[512];

	return tp_read_cpuset(tp_path(path, sizeof(path),
				      "/sys/devices/system/cpu/cpu%u/%s", cpu,
				      rel), set) ? -1 : 0;
}

/* Keep the TSC-related words of a /proc/cpuinfo "flags" line. */
static void tp_env_flags(struct tp_env *e, char *flags)
{
	static const char *const tsc_flags[] = {
		"tsc", "constant_tsc", "nonstop_tsc", "tsc_known_freq",
		"tsc_reliable", "rdtscp", "tsc_deadline_timer",
	};
	bool constant = false, nonstop = false;
	char *word, *save = NULL;
	size_t i, n;

	for (word = strtok_r(flags, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save)) {
		constant |= !strcmp(word, "constant_tsc");
		nonstop |= !strcmp(word, "nonstop_tsc");
		e->hypervisor |= !strcmp(word, "hypervisor");
		for (i = 0; i < sizeof(tsc_flags) / sizeof(tsc_flags[0]); i++) {
			if (strcmp(word, tsc_flags[i]))
				continue;
			n = strlen(e->tsc_flags);
			snprintf(e->tsc_flags + n, sizeof(e->tsc_flags) - n, "%s%s",
				 n ? " " : "", word);
		}
	}
	e->invariant_tsc = constant && nonstop;
}

/*
 * An arm64 CPU's identity, as its /proc/cpuinfo gives it (numbers, which
 * lscpu names from tables).  Its counter is the generic timer's, which
 * the architecture makes a constant rate on every CPU: invariant.
 */
static void tp_env_arm64_id(struct tp_env *e, char *buf, size_t len,
			    const char *what, const char *v)
{
	snprintf(buf, len, "%s %s", what, v);
	e->generic_timer = true;
	e->invariant_tsc = true;
}

/* Model, vendor, microcode and flags of the first processor. */
static void tp_env_cpuinfo(struct tp_env *e)
{
	char path[512], *line = NULL, *v;
	size_t cap = 0;
	FILE *f = fopen(tp_path(path, sizeof(path), "/proc/cpuinfo"), "r");

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0 && line[0] != '\n') {
		line[strcspn(line, "\n")] = '\0';
		v = strchr(line, ':');
		if (!v)
			continue;
		for (*v++ = '\0'; *v == ' '; v++)
			;
		if (!strncmp(line, "model name", 10))
			snprintf(e->model, sizeof(e->model), "%s", v);
		else if (!strncmp(line, "vendor_id", 9))
			snprintf(e->vendor, sizeof(e->vendor), "%s", v);
		else if (!strncmp(line, "microcode", 9))
			snprintf(e->microcode, sizeof(e->microcode), "%s", v);
		else if (!strncmp(line, "flags", 5))
			tp_env_flags(e, v);
		else if (!strncmp(line, "CPU implementer", 15))
			tp_env_arm64_id(e, e->vendor, sizeof(e->vendor),
					"implementer", v);
		else if (!strncmp(line, "CPU part", 8))
			tp_env_arm64_id(e, e->model, sizeof(e->model), "part",
					v);
	}
	free(line);
	fclose(f);
}

/* rcu_nocbs= on the kernel command line ("all" means every CPU). */
static void tp_env_cmdline(struct tp_env *e)
{
	char path[512], line[4096], *p, *end;
	const char *why;

	if (tp_read_line(tp_path(path, sizeof(path), "/proc/cmdline"), line,
			 sizeof(line)))
		return;
	for (p = line; (p = strstr(p, "rcu_nocbs=")); p++) {
		if (p != line && p[-1] != ' ')
			continue;
		p += strlen("rcu_nocbs=");
		end = p + strcspn(p, " ");
		*end = '\0';
		if (!strcmp(p, "all"))
			tp_parse_cpus("0-8191", &e->rcu_nocbs, &why);
		else
			tp_parse_cpus(p, &e->rcu_nocbs, &why);
		return;
	}
}

/* Turbo/boost: cpufreq's boost switch, or intel_pstate's no_turbo. */
static int tp_env_boost(void)
{
	char path[512];
	long v;

	v = tp_read_long(tp_path(path, sizeof(path),
				 "/sys/devices/system/cpu/cpufreq/boost"));
	if (v >= 0)
		return v != 0;
	v = tp_read_long(tp_path(path, sizeof(path),
				 "/sys/devices/system/cpu/intel_pstate/no_turbo"));
	return v >= 0 ? v == 0 : -1;
}

/* How many interrupts may be delivered to each CPU. */
static void tp_env_irq_affinity(unsigned int *count)
{
	char path[512], file[800];
	struct tp_cpuset set;
	struct dirent *d;
	DIR *dir;
	int cpu;

	dir = opendir(tp_path(path, sizeof(path), "/proc/irq"));
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(file, sizeof(file), "%s/%s/smp_affinity_list", path,
			 d->d_name);
		if (tp_read_cpuset(file, &set))
			continue;
		for (cpu = -1; (cpu = tp_cpuset_next(&set, cpu)) >= 0;)
			count[cpu]++;
	}
	closedir(dir);
}

/*
 * A hex CPU mask as sysfs writes it: 32-bit groups separated by commas,
 * the highest CPUs first ("ffffffff,0000000f").
 */
static int tp_parse_mask(const char *text, struct tp_cpuset *set)
{
	size_t i = strlen(text);
	unsigned int bit = 0;
	int digit, k;
	char c;

	memset(set, 0, sizeof(*set));
	if (!i)
		return -1;
	while (i--) {
		c = text[i];
		if (c == ',')
			continue;
		if (!isxdigit((unsigned char)c))
			return -1;
		digit = isdigit((unsigned char)c) ? c - '0' :
			tolower((unsigned char)c) - 'a' + 10;
		for (k = 0; k < 4; k++, bit++) {
			if (!(digit & 1 << k))
				continue;
			if (bit >= TP_MAX_CPUS)
				return -1;
			tp_cpuset_add(set, bit);
		}
	}
	return 0;
}

/* Whether a process whose comm is @comm runs (-1: /proc unreadable). */
static int tp_env_process_runs(const char *comm)
{
	char path[512], file[800], line[64];
	struct dirent *d;
	int found = 0;
	DIR *dir;

	dir = opendir(tp_path(path, sizeof(path), "/proc"));
	if (!dir)
		return -1;
	while (!found && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(file, sizeof(file), "%s/%s/comm", path, d->d_name);
		found = !tp_read_line(file, line, sizeof(line)) &&
			!strcmp(line, comm);
	}
	closedir(dir);
	return found;
}

/* A 0/1 switch under the root: 1, 0, or -1 when unreadable. */
static int tp_read_switch(const char *rel)
{
	char path[512];
	long v = tp_read_long(tp_path(path, sizeof(path), "%s", rel));

	return v < 0 ? -1 : v != 0;
}

/* The bracketed choice of a sysfs selector ("always [madvise] never"). */
static void tp_read_choice(const char *rel, char *buf, size_t len)
{
	char path[512], line[128], *open, *close;

	buf[0] = '\0';
	if (tp_read_line(tp_path(path, sizeof(path), "%s", rel), line,
			 sizeof(line)))
		return;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close) {
		*close = '\0';
		snprintf(buf, len, "%s", open + 1);
	}
}

/* What tuned's cpu-partitioning profile sets besides isolation. */
static void tp_env_ready(struct tp_env_ready *r)
{
	char path[512], line[4096];

	r->nmi_watchdog = tp_read_switch("/proc/sys/kernel/nmi_watchdog");
	r->timer_migration = tp_read_switch("/proc/sys/kernel/timer_migration");
	r->stat_interval_s = tp_read_long(tp_path(path, sizeof(path),
						  "/proc/sys/vm/stat_interval"));
	r->wq_known = !tp_read_line(tp_path(path, sizeof(path),
					    "/sys/devices/virtual/workqueue/cpumask"),
				    line, sizeof(line)) &&
		      !tp_parse_mask(line, &r->wq_cpumask);
	r->irqbalance = tp_env_process_runs("irqbalance");
	tp_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", r->thp,
		       sizeof(r->thp));
	r->ksm = tp_read_switch("/sys/kernel/mm/ksm/run");
}

static void tp_env_bios(struct tp_env_bios *b)
{
	tp_env_sys_line("/sys/class/dmi/id/bios_vendor", b->vendor,
			sizeof(b->vendor));
	tp_env_sys_line("/sys/class/dmi/id/bios_version", b->version,
			sizeof(b->version));
	tp_env_sys_line("/sys/class/dmi/id/bios_date", b->date, sizeof(b->date));
}

/**
 * tp_env_node() - a CPU's NUMA node: the nodeN entry of its sysfs directory
 * @cpu: the CPU
 *
 * Return: the node, or -1 when the directory has none (no NUMA).
 */
int tp_env_node(unsigned int cpu)
{
	char path[512];
	struct dirent *d;
	DIR *dir;
	int node = -1;

	dir = opendir(tp_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%u",
			      cpu));
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) && isdigit((unsigned char)d->d_name[4]))
			node = atoi(d->d_name + 4);
	closedir(dir);
	return node;
}

static void tp_env_cstates(struct tp_env_cpu *c)
{
	static const char *const dir =
		"/sys/devices/system/cpu/cpu%u/cpuidle/state%u/%s";
	char path[512];
	unsigned int k;

	for (k = 0; k < TP_ENV_CSTATES; k++) {
		struct tp_env_cstate *s = &c->cstate[k];

		if (tp_read_line(tp_path(path, sizeof(path), dir, c->cpu, k, "name"),
				 s->name, sizeof(s->name)))
			break;
		s->enabled = tp_read_long(tp_path(path, sizeof(path), dir, c->cpu,
						  k, "disable")) != 1;
		s->latency_us = tp_read_long(tp_path(path, sizeof(path), dir,
						     c->cpu, k, "latency"));
		c->ncstates = k + 1;
	}
}

static void tp_env_cpufreq(struct tp_env_cpu *c)
{
	static const char *const dir = "/sys/devices/system/cpu/cpu%u/cpufreq/%s";
	char path[512];

	tp_read_line(tp_path(path, sizeof(path), dir, c->cpu, "scaling_driver"),
		     c->driver, sizeof(c->driver));
	tp_read_line(tp_path(path, sizeof(path), dir, c->cpu, "scaling_governor"),
		     c->governor, sizeof(c->governor));
	c->min_khz = tp_read_long(tp_path(path, sizeof(path), dir, c->cpu,
					  "scaling_min_freq"));
	c->max_khz = tp_read_long(tp_path(path, sizeof(path), dir, c->cpu,
					  "scaling_max_freq"));
	c->cur_khz = tp_read_long(tp_path(path, sizeof(path), dir, c->cpu,
					  "scaling_cur_freq"));
}

static void tp_env_cpu(struct tp_env *e, struct tp_env_cpu *c,
		       const struct tp_cpuset *online, const unsigned int *irqs)
{
	char path[512];

	c->online = tp_cpuset_has(online, c->cpu);
	c->node = tp_env_node(c->cpu);
	if (tp_read_cpuset(tp_path(path, sizeof(path),
				   "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list",
				   c->cpu), &c->siblings))
		tp_cpuset_add(&c->siblings, c->cpu);
	tp_env_cpufreq(c);
	c->isolated = tp_cpuset_has(&e->isolated, c->cpu);
	c->nohz_full = tp_cpuset_has(&e->nohz_full, c->cpu);
	c->rcu_nocbs = tp_cpuset_has(&e->rcu_nocbs, c->cpu);
	c->irqs_affine = irqs[c->cpu];
	tp_env_cstates(c);
}

/* A machine-wide warning: no CPU list, never merged. */
static void tp_warn(struct tp_env *e, const char *kind, const char *fmt, ...)
{
	struct tp_env_warning *w;
	va_list ap;

	if (e->nwarn == TP_ENV_WARNINGS)
		return;
	w = &e->warn[e->nwarn++];
	memset(w, 0, sizeof(*w));
	snprintf(w->kind, sizeof(w->kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof(w->message), fmt, ap);
	va_end(ap);
}

/*
 * A warning about @cpu: merged into the one of the same @kind and @param
 * when there is one, so that 64 CPUs give one line, not 64.
 */
static struct tp_env_warning *tp_warn_cpu(struct tp_env *e, const char *kind,
					  const char *param, unsigned int cpu)
{
	struct tp_env_warning *w;
	unsigned int i;

	for (i = 0; i < e->nwarn; i++) {
		w = &e->warn[i];
		if (!strcmp(w->kind, kind) && !strcmp(w->param, param)) {
			tp_cpuset_add(&w->cpus, cpu);
			return w;
		}
	}
	if (e->nwarn == TP_ENV_WARNINGS)
		return NULL;
	w = &e->warn[e->nwarn++];
	memset(w, 0, sizeof(*w));
	snprintf(w->kind, sizeof(w->kind), "%s", kind);
	snprintf(w->param, sizeof(w->param), "%s", param);
	tp_cpuset_add(&w->cpus, cpu);
	w->lo = ULONG_MAX;
	return w;
}

/* tuned's network-latency values (cpu-partitioning includes them). */
#define TP_STAT_INTERVAL_S	10

static void tp_env_warn_ready(struct tp_env *e, const struct tp_env_ready *r)
{
	if (r->nmi_watchdog == 1)
		tp_warn(e, "nmi_watchdog", "the NMI watchdog is on: its perf NMI interrupts every CPU, interrupts off or not (kernel.nmi_watchdog=0)");
	if (r->timer_migration == 1)
		tp_warn(e, "timer_migration", "timer_migration is on: timers may be moved to the measured CPUs (kernel.timer_migration=0)");
	if (r->stat_interval_s >= 0 && r->stat_interval_s < TP_STAT_INTERVAL_S)
		tp_warn(e, "stat_interval", "vm.stat_interval is %ld s: the vmstat work runs that often on every CPU (tuned sets %d)",
			r->stat_interval_s, TP_STAT_INTERVAL_S);
	if (r->irqbalance == 1)
		tp_warn(e, "irqbalance", "irqbalance is running: it may move interrupts onto the measured CPUs unless they are banned");
	if (!strcmp(r->thp, "always"))
		tp_warn(e, "thp", "transparent hugepages are always on: khugepaged and compaction may run on any CPU (tuned sets never)");
	if (r->ksm == 1)
		tp_warn(e, "ksm", "KSM is running: ksmd scans memory and may run on any CPU");
}

/* The kernel's clocksource on the counter tscprobe reads. */
static const char *tp_env_counter_clocksource(const struct tp_env *e)
{
	return e->generic_timer ? "arch_sys_counter" : "tsc";
}

static void tp_env_warn_machine(struct tp_env *e)
{
	if (!e->invariant_tsc)
		tp_warn(e, "tsc_not_invariant", "the TSC is not invariant (no constant_tsc and nonstop_tsc): cycles are not a fixed unit of time");
	if (e->hypervisor)
		tp_warn(e, "virtual_machine", "this is a virtual machine: the hypervisor's noise is in every figure");
	if (e->clocksource[0] && strcmp(e->clocksource, tp_env_counter_clocksource(e)))
		tp_warn(e, "clocksource", "the clocksource is %s, not %s",
			e->clocksource, tp_env_counter_clocksource(e));
	if (e->boost == 1)
		tp_warn(e, "boost", "turbo/boost is on: the clock is not held");
	if (!e->nohz_known)
		tp_warn(e, "no_nohz_full", "this kernel has no nohz_full: the tick interrupts every CPU");
	tp_env_warn_ready(e, &e->ready);
}

static void tp_env_warn_cpu(struct tp_env *e, const struct tp_env_cpu *c)
{
	struct tp_env_warning *w;
	char param[48];
	unsigned int k;
	int sib = -1;

	if (!c->online) {
		tp_warn_cpu(e, "offline", "", c->cpu);
		return;
	}
	if (!c->isolated)
		tp_warn_cpu(e, "not_isolated", "", c->cpu);
	if (e->nohz_known && !c->nohz_full)
		tp_warn_cpu(e, "not_nohz_full", "", c->cpu);
	if (!c->rcu_nocbs)
		tp_warn_cpu(e, "not_rcu_nocbs", "", c->cpu);
	if (e->ready.wq_known && tp_cpuset_has(&e->ready.wq_cpumask, c->cpu))
		tp_warn_cpu(e, "workqueue", "", c->cpu);
	if (c->governor[0] && strcmp(c->governor, "performance"))
		tp_warn_cpu(e, "governor", c->governor, c->cpu);
	while ((sib = tp_cpuset_next(&c->siblings, sib)) >= 0) {
		if ((unsigned int)sib == c->cpu)
			continue;
		w = tp_warn_cpu(e, "smt_sibling", "", c->cpu);
		if (w)
			tp_cpuset_add(&w->others, (unsigned int)sib);
	}
	if (c->irqs_affine) {
		w = tp_warn_cpu(e, "irqs_affine", "", c->cpu);
		if (w && c->irqs_affine < w->lo)
			w->lo = c->irqs_affine;
		if (w && c->irqs_affine > w->hi)
			w->hi = c->irqs_affine;
	}
	for (k = 0; k < c->ncstates; k++) {
		if (!c->cstate[k].enabled ||
		    c->cstate[k].latency_us <= TP_CSTATE_WARN_US)
			continue;
		snprintf(param, sizeof(param), "%s %ld", c->cstate[k].name,
			 c->cstate[k].latency_us);
		tp_warn_cpu(e, "cstate", param, c->cpu);
	}
}

/* The sentence of a merged warning, singular or plural as it names. */
static void tp_warn_message(struct tp_env_warning *w)
{
	bool many = tp_cpuset_count(&w->cpus) > 1;
	const char *is = many ? "are" : "is", *it = many ? "them" : "it";
	char who[224], others[224], name[32], param[sizeof(w->param)];
	long lat = 0;

	if (!w->cpus.nbytes)
		return;		/* machine-wide: written when found */
	tp_cpuset_who(&w->cpus, who, sizeof(who));
	memcpy(param, w->param, sizeof(param));	/* not an argument into itself */
	if (!strcmp(w->kind, "offline"))
		snprintf(w->message, sizeof(w->message), "%s %s offline", who, is);
	else if (!strcmp(w->kind, "not_isolated"))
		snprintf(w->message, sizeof(w->message), "%s %s not isolated (isolcpus): the scheduler puts other work on %s",
			 who, is, it);
	else if (!strcmp(w->kind, "not_nohz_full"))
		snprintf(w->message, sizeof(w->message), "%s %s not nohz_full: the tick interrupts %s",
			 who, is, it);
	else if (!strcmp(w->kind, "workqueue"))
		snprintf(w->message, sizeof(w->message), "%s %s in the workqueue cpumask: unbound kernel work may run on %s",
			 who, is, it);
	else if (!strcmp(w->kind, "not_rcu_nocbs"))
		snprintf(w->message, sizeof(w->message), "%s %s not in rcu_nocbs: RCU callbacks may run on %s",
			 who, is, it);
	else if (!strcmp(w->kind, "governor"))
		snprintf(w->message, sizeof(w->message), "%s run%s the %s governor, not performance: the clock is not held",
			 who, many ? "" : "s", param);
	else if (!strcmp(w->kind, "smt_sibling")) {
		tp_cpuset_who(&w->others, others, sizeof(others));
		snprintf(w->message, sizeof(w->message), "%s share%s %s core%s with %s: a busy sibling shows up as noise",
			 who, many ? "" : "s", many ? "their" : "its",
			 many ? "s" : "", others);
	} else if (!strcmp(w->kind, "irqs_affine") && w->lo == w->hi)
		snprintf(w->message, sizeof(w->message), "%lu interrupts may be delivered to %s%s",
			 w->lo, many ? "each of " : "", who);
	else if (!strcmp(w->kind, "irqs_affine"))
		snprintf(w->message, sizeof(w->message), "%lu to %lu interrupts may be delivered to each of %s",
			 w->lo, w->hi, who);
	else if (!strcmp(w->kind, "cstate") &&
		 sscanf(param, "%31s %ld", name, &lat) == 2)
		snprintf(w->message, sizeof(w->message), "%s may enter %s (exit latency %ld us)",
			 who, name, lat);
}

/**
 * tp_env_read() - audit the machine and the chosen CPUs
 * @e: filled in; free with tp_env_free()
 * @cpus: the CPUs to audit
 * @tsc_khz: the TSC rate if known (the module's), else 0 to calibrate
 *
 * Return: 0, or -1 when the online CPUs cannot be read.
 */
int tp_env_read(struct tp_env *e, const struct tp_cpuset *cpus,
		uint32_t tsc_khz)
{
	unsigned int *irqs = calloc(TP_MAX_CPUS, sizeof(*irqs));
	struct tp_cpuset online;
	char path[512];
	int cpu = -1;

	memset(e, 0, sizeof(*e));
	if (!irqs || tp_env_online(&online, path, sizeof(path))) {
		free(irqs);
		return -1;
	}
	tp_env_cpuinfo(e);
	e->tsc_khz = tsc_khz ? tsc_khz : tp_user_tsc_khz();
	tp_read_line(tp_path(path, sizeof(path),
			     "/sys/devices/system/clocksource/clocksource0/current_clocksource"),
		     e->clocksource, sizeof(e->clocksource));
	e->boost = tp_env_boost();
	tp_read_cpuset(tp_path(path, sizeof(path), "/sys/devices/system/cpu/isolated"),
		       &e->isolated);
	e->nohz_known = !tp_read_cpuset(tp_path(path, sizeof(path),
						"/sys/devices/system/cpu/nohz_full"),
					&e->nohz_full);
	tp_env_cmdline(e);
	tp_env_ready(&e->ready);
	tp_env_bios(&e->bios);
	tp_env_irq_affinity(irqs);
	e->cpu = calloc(tp_cpuset_count(cpus) + 1, sizeof(*e->cpu));
	if (!e->cpu) {
		free(irqs);
		return -1;
	}
	tp_env_warn_machine(e);
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		struct tp_env_cpu *c = &e->cpu[e->ncpus++];

		c->cpu = (unsigned int)cpu;
		tp_env_cpu(e, c, &online, irqs);
		tp_env_warn_cpu(e, c);
	}
	for (cpu = 0; (unsigned int)cpu < e->nwarn; cpu++)
		tp_warn_message(&e->warn[cpu]);
	free(irqs);
	return 0;
}

void tp_env_free(struct tp_env *e)
{
	free(e->cpu);
	e->cpu = NULL;
}

static void tp_khz_text(long khz, char *buf, size_t len)
{
	if (khz < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%ld", khz / 1000);
}

static void tp_env_cpu_text(const struct tp_env_cpu *c, FILE *f)
{
	char sib[64], mn[24], mx[24], cur[24], cs[160] = "";
	unsigned int k;
	size_t n = 0;

	tp_cpuset_format(&c->siblings, sib, sizeof(sib));
	tp_khz_text(c->min_khz, mn, sizeof(mn));
	tp_khz_text(c->max_khz, mx, sizeof(mx));
	tp_khz_text(c->cur_khz, cur, sizeof(cur));
	for (k = 0; k < c->ncstates && n < sizeof(cs); k++)
		n += (size_t)snprintf(cs + n, sizeof(cs) - n, "%s%s%s",
				      n ? " " : "", c->cstate[k].name,
				      c->cstate[k].enabled ? "" : "(off)");
	fprintf(f, "%4u %5d %-9s %-14s %-12s %5s/%5s/%5s  %-4s %-4s %-4s %5u  %s\n",
		c->cpu, c->node, sib, c->driver[0] ? c->driver : "-",
		c->governor[0] ? c->governor : "-", mn, mx, cur,
		c->isolated ? "yes" : "no", c->nohz_full ? "yes" : "no",
		c->rcu_nocbs ? "yes" : "no", c->irqs_affine, cs[0] ? cs : "-");
}

/* "on", "off" or "?" for a switch read as 1, 0 or -1. */
static const char *tp_switch_text(int v)
{
	return v < 0 ? "?" : v ? "on" : "off";
}

static void tp_env_ready_text(const struct tp_env_ready *r, FILE *f)
{
	char set[256], interval[24] = "?";

	if (r->stat_interval_s >= 0)
		snprintf(interval, sizeof(interval), "%ld s", r->stat_interval_s);
	fprintf(f, "settings:    nmi_watchdog %s, timer_migration %s, vm.stat_interval %s, THP %s, KSM %s, irqbalance %s\n",
		tp_switch_text(r->nmi_watchdog), tp_switch_text(r->timer_migration),
		interval, r->thp[0] ? r->thp : "?", tp_switch_text(r->ksm),
		r->irqbalance < 0 ? "?" : r->irqbalance ? "running" : "not running");
	tp_cpuset_format(&r->wq_cpumask, set, sizeof(set));
	fprintf(f, "workqueues:  %s\n", !r->wq_known ? "?" : set[0] ? set : "none");
}

/**
 * tp_env_text() - the audit for people
 * @e: the audit
 * @f: where to
 */
void tp_env_text(const struct tp_env *e, FILE *f)
{
	char set[256];
	unsigned int i;

	fprintf(f, "cpu:         %s (%s)%s%s\n", e->model[0] ? e->model : "?",
		e->vendor[0] ? e->vendor : "?",
		e->microcode[0] ? ", microcode " : "", e->microcode);
	if (e->generic_timer)
		fprintf(f, "counter:     %u kHz, the generic timer's (a constant rate)\n",
			e->tsc_khz);
	else
		fprintf(f, "tsc:         %u kHz, %s (%s)\n", e->tsc_khz,
			e->invariant_tsc ? "invariant" : "not invariant",
			e->tsc_flags);
	fprintf(f, "clocksource: %s\n", e->clocksource[0] ? e->clocksource : "?");
	fprintf(f, "turbo/boost: %s\n", e->boost < 0 ? "unknown" :
		e->boost ? "on" : "off");
	tp_cpuset_format(&e->isolated, set, sizeof(set));
	fprintf(f, "isolated:    %s\n", set[0] ? set : "none");
	tp_cpuset_format(&e->nohz_full, set, sizeof(set));
	fprintf(f, "nohz_full:   %s\n", !e->nohz_known ? "not in this kernel" :
		set[0] ? set : "none");
	tp_cpuset_format(&e->rcu_nocbs, set, sizeof(set));
	fprintf(f, "rcu_nocbs:   %s\n", set[0] ? set : "none");
	tp_env_ready_text(&e->ready, f);
	if (e->bios.vendor[0] || e->bios.version[0] || e->bios.date[0])
		fprintf(f, "firmware:    %s %s (%s)\n", e->bios.vendor,
			e->bios.version, e->bios.date);
	else
		fprintf(f, "firmware:    unknown\n");
	fprintf(f, "\n cpu  node siblings  driver         governor     min/  max/  cur MHz isol nohz rcu   irqs  c-states\n");
	for (i = 0; i < e->ncpus; i++)
		tp_env_cpu_text(&e->cpu[i], f);
	if (e->nwarn)
		fprintf(f, "\nwarnings:\n");
	tp_env_warnings_text(e, f);
}

/**
 * tp_env_warnings_text() - the warnings, a line each ("  - ...")
 * @e: the audit
 * @f: where to
 */
void tp_env_warnings_text(const struct tp_env *e, FILE *f)
{
	unsigned int i;

	for (i = 0; i < e->nwarn; i++)
		fprintf(f, "  - %s\n", e->warn[i].message);
}

static void tp_env_cpu_json(const struct tp_env_cpu *c, struct jw *j)
{
	unsigned int k;

	jw_obj(j, NULL);
	jw_u64(j, "cpu", c->cpu);
	jw_bool(j, "online", c->online);
	jw_known(j, "node", c->node);
	jw_cpuset(j, "siblings", &c->siblings);
	jw_str(j, "driver", c->driver);
	jw_str(j, "governor", c->governor);
	jw_known(j, "min_khz", c->min_khz);
	jw_known(j, "max_khz", c->max_khz);
	jw_known(j, "cur_khz", c->cur_khz);
	jw_bool(j, "isolated", c->isolated);
	jw_bool(j, "nohz_full", c->nohz_full);
	jw_bool(j, "rcu_nocbs", c->rcu_nocbs);
	jw_u64(j, "irqs_affine", c->irqs_affine);
	jw_arr(j, "cstates");
	for (k = 0; k < c->ncstates; k++) {
		jw_obj(j, NULL);
		jw_str(j, "name", c->cstate[k].name);
		jw_bool(j, "enabled", c->cstate[k].enabled);
		jw_known(j, "latency_us", c->cstate[k].latency_us);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

/* A switch read as 1, 0 or -1: true, false or null. */
static void tp_env_json_switch(struct jw *j, const char *key, int v)
{
	if (v < 0)
		jw_null(j, key);
	else
		jw_bool(j, key, v);
}

static void tp_env_ready_json(const struct tp_env_ready *r, struct jw *j)
{
	tp_env_json_switch(j, "nmi_watchdog", r->nmi_watchdog);
	tp_env_json_switch(j, "timer_migration", r->timer_migration);
	jw_known(j, "stat_interval_s", r->stat_interval_s);
	if (r->wq_known)
		jw_cpuset(j, "workqueue_cpumask", &r->wq_cpumask);
	else
		jw_null(j, "workqueue_cpumask");
	tp_env_json_switch(j, "irqbalance", r->irqbalance);
	jw_str(j, "thp", r->thp);
	tp_env_json_switch(j, "ksm", r->ksm);
}

/**
 * tp_env_json() - the audit as a JSON object
 * @e: the audit
 * @j: the writer
 * @key: the object's key in its parent (NULL at the top level)
 */
void tp_env_json(const struct tp_env *e, struct jw *j, const char *key)
{
	unsigned int i;

	jw_obj(j, key);
	jw_u64(j, "tsc_khz", e->tsc_khz);
	jw_str(j, "cpu_model", e->model);
	jw_str(j, "vendor", e->vendor);
	jw_str(j, "microcode", e->microcode);
	jw_str(j, "tsc_flags", e->tsc_flags);
	jw_bool(j, "invariant_tsc", e->invariant_tsc);
	jw_bool(j, "hypervisor", e->hypervisor);
	jw_str(j, "clocksource", e->clocksource);
	if (e->boost < 0)
		jw_null(j, "boost");
	else
		jw_bool(j, "boost", e->boost);
	jw_cpuset(j, "isolated", &e->isolated);
	if (e->nohz_known)
		jw_cpuset(j, "nohz_full", &e->nohz_full);
	else
		jw_null(j, "nohz_full");
	jw_cpuset(j, "rcu_nocbs", &e->rcu_nocbs);
	tp_env_ready_json(&e->ready, j);
	jw_str(j, "bios_vendor", e->bios.vendor);
	jw_str(j, "bios_version", e->bios.version);
	jw_str(j, "bios_date", e->bios.date);
	jw_arr(j, "cpus");
	for (i = 0; i < e->ncpus; i++)
		tp_env_cpu_json(&e->cpu[i], j);
	jw_arr_end(j);
	jw_arr(j, "warnings");
	for (i = 0; i < e->nwarn; i++) {
		jw_obj(j, NULL);
		jw_str(j, "kind", e->warn[i].kind);
		jw_cpuset(j, "cpus", &e->warn[i].cpus);
		jw_str(j, "message", e->warn[i].message);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

/**
 * tp_env_path() - a path under the system root ($TSCPROBE_SYSROOT)
 * @buf: the path
 * @len: the size of @buf
 * @rel: the path on a real system, e.g. "/dev/cpu_dma_latency"
 *
 * Return: @buf.
 */
const char *tp_env_path(char *buf, size_t len, const char *rel)
{
	return tp_path(buf, len, "%s", rel);
}

/**
 * tp_env_sys_line() - the first line of a file under the system root
 * @rel: its path, e.g. "/proc/sys/kernel/osrelease"
 * @buf: the line, without its newline ("" when unreadable)
 * @len: the size of @buf
 *
 * Return: 0, or -1 when the file cannot be read.
 */
int tp_env_sys_line(const char *rel, char *buf, size_t len)
{
	char path[512];

	return tp_read_line(tp_path(path, sizeof(path), "%s", rel), buf, len);
}
