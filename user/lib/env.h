/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment audit: what an engineer must check before trusting a
 * latency figure (frequency driver, governor, turbo, isolation, tick, RCU,
 * interrupt affinity, C-states, the TSC), read from /proc and /sys only,
 * with warnings in plain words.
 */
#ifndef TSCPROBE_USER_ENV_H
#define TSCPROBE_USER_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "user/lib/cpuset.h"

struct jw;

#define TP_ENV_CSTATES	12

/**
 * struct tp_env_cstate - one idle state of a CPU
 * @name: its name (C1, C6, ...)
 * @enabled: not disabled in sysfs
 * @latency_us: exit latency, -1 unknown
 */
struct tp_env_cstate {
	char name[24];
	bool enabled;
	long latency_us;
};

/**
 * struct tp_env_cpu - what matters about one CPU
 * @cpu: the CPU
 * @online: it is online
 * @node: NUMA node, -1 unknown
 * @siblings: SMT siblings (itself included)
 * @driver: cpufreq driver ("" unknown)
 * @governor: cpufreq governor ("" unknown)
 * @min_khz: scaling_min_freq, -1 unknown
 * @max_khz: scaling_max_freq, -1 unknown
 * @cur_khz: scaling_cur_freq, -1 unknown
 * @isolated: in the isolated set (isolcpus)
 * @nohz_full: in nohz_full
 * @rcu_nocbs: in rcu_nocbs
 * @irqs_affine: interrupts whose affinity includes it
 * @ncstates: entries in @cstate
 * @cstate: its idle states
 */
struct tp_env_cpu {
	unsigned int cpu;
	bool online;
	int node;
	struct tp_cpuset siblings;
	char driver[32];
	char governor[32];
	long min_khz;
	long max_khz;
	long cur_khz;
	bool isolated;
	bool nohz_full;
	bool rcu_nocbs;
	unsigned int irqs_affine;
	unsigned int ncstates;
	struct tp_env_cstate cstate[TP_ENV_CSTATES];
};

/**
 * struct tp_env_ready - the machine's settings a quiet CPU also needs
 * @nmi_watchdog: kernel.nmi_watchdog: 1 on, 0 off, -1 unknown
 * @timer_migration: kernel.timer_migration, likewise
 * @stat_interval_s: vm.stat_interval in seconds, -1 unknown
 * @wq_known: @wq_cpumask was read
 * @wq_cpumask: the CPUs unbound workqueues may run on
 * @irqbalance: 1 an irqbalance process runs, 0 none, -1 unknown
 * @thp: transparent hugepages: "always", "madvise", "never" ("" unknown)
 * @ksm: KSM's scanner: 1 running, 0 not, -1 unknown
 */
struct tp_env_ready {
	int nmi_watchdog;
	int timer_migration;
	long stat_interval_s;
	bool wq_known;
	struct tp_cpuset wq_cpumask;
	int irqbalance;
	char thp[16];
	int ksm;
};

/**
 * struct tp_env_bios - the firmware (an update alone can move latencies)
 * @vendor: /sys/class/dmi/id/bios_vendor ("" unknown)
 * @version: bios_version
 * @date: bios_date
 */
struct tp_env_bios {
	char vendor[64];
	char version[64];
	char date[32];
};

#define TP_ENV_WARNINGS	64

/**
 * struct tp_env_warning - one warning, merged over the CPUs it is about
 * @kind: what it is about, a stable word for scripts ("not_isolated", ...)
 * @cpus: the CPUs it names (empty: the whole machine)
 * @others: smt: the siblings of @cpus
 * @param: what two CPUs' warnings must share to merge (a governor, an
 *	idle state and its latency); "" for most kinds
 * @lo: irqs: the smallest count of one CPU
 * @hi: irqs: the largest
 * @message: the sentence, made once every CPU was audited
 */
struct tp_env_warning {
	char kind[24];
	struct tp_cpuset cpus;
	struct tp_cpuset others;
	char param[48];
	unsigned long lo;
	unsigned long hi;
	char message[512];
};

/**
 * struct tp_env - the machine and the chosen CPUs
 * @model: CPU model name
 * @vendor: CPU vendor
 * @microcode: microcode revision ("" unknown)
 * @tsc_khz: TSC rate (the module's, else calibrated)
 * @clocksource: the current clocksource
 * @tsc_flags: the TSC-related /proc/cpuinfo flags present, space-separated
 * @invariant_tsc: constant_tsc and nonstop_tsc
 * @hypervisor: running in a virtual machine
 * @boost: 1 turbo/boost on, 0 off, -1 unknown
 * @isolated: the isolated CPUs
 * @nohz_full: the nohz_full CPUs
 * @rcu_nocbs: the rcu_nocbs CPUs (from the kernel command line)
 * @nohz_known: the kernel says which CPUs are nohz_full
 * @ready: what tuned's cpu-partitioning profile sets besides isolation
 * @bios: the firmware, from DMI
 * @ncpus: entries in @cpu
 * @cpu: the chosen CPUs
 * @nwarn: entries in @warn
 * @warn: the warnings, each kind once over the CPUs it concerns
 */
struct tp_env {
	char model[128];
	char vendor[32];
	char microcode[32];
	uint32_t tsc_khz;
	char clocksource[32];
	char tsc_flags[128];
	bool invariant_tsc;
	bool generic_timer;	/* arm64's counter, not a TSC */
	bool hypervisor;
	int boost;
	struct tp_cpuset isolated;
	struct tp_cpuset nohz_full;
	struct tp_cpuset rcu_nocbs;
	bool nohz_known;
	struct tp_env_ready ready;
	struct tp_env_bios bios;
	unsigned int ncpus;
	struct tp_env_cpu *cpu;
	unsigned int nwarn;
	struct tp_env_warning warn[TP_ENV_WARNINGS];
};

int tp_env_read(struct tp_env *e, const struct tp_cpuset *cpus,
		uint32_t tsc_khz);
void tp_env_free(struct tp_env *e);
int tp_env_online(struct tp_cpuset *set, char *path, size_t len);
int tp_env_present(struct tp_cpuset *set);
int tp_env_node(unsigned int cpu);
long tp_env_cpu_long(unsigned int cpu, const char *rel);
int tp_env_cpu_list(unsigned int cpu, const char *rel, struct tp_cpuset *set);
void tp_env_text(const struct tp_env *e, FILE *f);
void tp_env_warnings_text(const struct tp_env *e, FILE *f);
void tp_env_json(const struct tp_env *e, struct jw *j, const char *key);
int tp_env_sys_line(const char *rel, char *buf, size_t len);
const char *tp_env_path(char *buf, size_t len, const char *rel);

#endif /* TSCPROBE_USER_ENV_H */
