// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe info: what the loaded module says about the machine.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "user/commands.h"
#include "user/lib/json_write.h"
#include "core/names.h"
#include "user/lib/nl.h"
#include "user/lib/options.h"
#include "user/lib/result.h"

static const char tp_info_usage[] =
	"usage: tscprobe info [-j]\n"
	"\n"
	"Show the module's version, the TSC rate and features, the online CPUs,\n"
	"the measurements it supports and the current run state.\n"
	"\n"
	"  -j, --json   print JSON\n"
	"  -h, --help   show this help\n";

/**
 * struct tp_info - GET_INFO's reply
 * @version: module version
 * @tsc_khz: TSC rate
 * @nr_cpu_ids: possible CPU ids
 * @online: online CPUs
 * @features: TSCPROBE_FEAT_* bits
 * @kinds: supported measurements, bit (1 << kind)
 * @state: enum tscprobe_state
 * @run_id: the current or last run
 */
struct tp_info {
	char version[64];
	uint32_t tsc_khz;
	uint32_t nr_cpu_ids;
	struct tp_cpuset online;
	uint32_t features;
	uint32_t kinds;
	uint32_t state;
	uint64_t run_id;
};

static int tp_info_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];
	struct tp_info *info = data;
	const struct nlattr *a;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	a = tb[TSCPROBE_A_VERSION];
	if (a)
		snprintf(info->version, sizeof(info->version), "%.*s",
			 (int)strnlen(mnl_attr_get_payload(a),
				      mnl_attr_get_payload_len(a)),
			 (const char *)mnl_attr_get_payload(a));
	info->tsc_khz = tp_nl_u32(tb[TSCPROBE_A_TSC_KHZ], 0);
	info->nr_cpu_ids = tp_nl_u32(tb[TSCPROBE_A_NR_CPU_IDS], 0);
	a = tb[TSCPROBE_A_CPUS_ONLINE];
	if (a)
		tp_cpuset_from_bytes(&info->online, mnl_attr_get_payload(a),
				     mnl_attr_get_payload_len(a));
	info->features = tp_nl_u32(tb[TSCPROBE_A_FEATURES], 0);
	info->kinds = tp_nl_u32(tb[TSCPROBE_A_KINDS], 0);
	info->state = tp_nl_u32(tb[TSCPROBE_A_STATE], 0);
	info->run_id = tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0);
	return MNL_CB_OK;
}

/* Why the module reads no SMI count, from its features. */
static enum tp_smi_why tp_info_smi_why(const struct tp_info *info)
{
	if (tp_features_smi_source(info->features) != TSCPROBE_SMI_SOURCE_NONE)
		return TP_SMI_READABLE;
	return info->features & TSCPROBE_FEAT_HYPERVISOR ? TP_SMI_VM :
		TP_SMI_NO_MSR;
}

/* "readable (FROM)", or why not. */
static const char *tp_info_smi_text(const struct tp_info *info)
{
	static char why[512];

	switch (tp_features_smi_source(info->features)) {
	case TSCPROBE_SMI_SOURCE_MSR:
		return "readable (MSR_SMI_COUNT)";
	case TSCPROBE_SMI_SOURCE_PERF:
		return "readable (perf: the PMU's SMIs received, LS_SMI_RX, on each CPU where a counter is free)";
	}
	snprintf(why, sizeof(why), "unreadable: %s",
		 tp_smi_why_text(tp_info_smi_why(info)));
	return why;
}

static void tp_info_text(const struct tp_info *info)
{
	char cpus[1024];
	unsigned int i;

	tp_cpuset_format(&info->online, cpus, sizeof(cpus));
	printf("tscprobe module %s\n", info->version);
	printf("tsc:           %u kHz%s\n", info->tsc_khz,
	       info->features & TSCPROBE_FEAT_INVARIANT_TSC ? " (invariant)" :
	       " (not invariant)");
	printf("cpus online:   %s (%u of %u possible ids)\n", cpus,
	       tp_cpuset_count(&info->online), info->nr_cpu_ids);
	printf("features:     ");
	for (i = 0; i < TP_FEATURE_BITS; i++)
		if (info->features & (1u << i))
			printf(" %s", tp_feature_name(i));
	printf("\nsmi count:     %s\n", tp_info_smi_text(info));
	printf("measurements: ");
	for (i = 1; i <= TSCPROBE_KIND_MAX; i++)
		if (info->kinds & (1u << i))
			printf(" %s", tp_kind_name(i));
	printf("\nstate:         %s", tp_state_name(info->state));
	if (info->run_id)
		printf(" (run %llu)", (unsigned long long)info->run_id);
	printf("\n");
}

static void tp_info_json(const struct tp_info *info)
{
	char cpus[1024];
	struct jw j;
	unsigned int i;

	tp_cpuset_format(&info->online, cpus, sizeof(cpus));
	jw_init(&j, stdout);
	jw_obj(&j, NULL);
	jw_str(&j, "version", info->version);
	jw_u64(&j, "tsc_khz", info->tsc_khz);
	jw_u64(&j, "nr_cpu_ids", info->nr_cpu_ids);
	jw_cpuset(&j, "cpus_online", &info->online);
	jw_str(&j, "cpus_online_list", cpus);
	jw_arr(&j, "features");
	for (i = 0; i < TP_FEATURE_BITS; i++)
		if (info->features & (1u << i))
			jw_str(&j, NULL, tp_feature_name(i));
	jw_arr_end(&j);
	if (tp_info_smi_why(info) == TP_SMI_READABLE)
		jw_null(&j, "smi_count_unreadable");
	else
		jw_str(&j, "smi_count_unreadable",
		       tp_smi_why_key(tp_info_smi_why(info)));
	jw_str(&j, "smi_source",
	       tp_smi_source_name(tp_features_smi_source(info->features)));
	jw_arr(&j, "measurements");
	for (i = 1; i <= TSCPROBE_KIND_MAX; i++)
		if (info->kinds & (1u << i))
			jw_str(&j, NULL, tp_kind_name(i));
	jw_arr_end(&j);
	jw_str(&j, "state", tp_state_name(info->state));
	jw_u64(&j, "run_id", info->run_id);
	jw_obj_end(&j);
	jw_finish(&j);
}

/**
 * tp_cmd_info() - the "info" subcommand
 * @argc: argument count (argv[0] is "info")
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_info(int argc, char **argv)
{
	struct tp_info info = { 0 };
	struct tp_nl_error error;
	bool json = false;
	struct tp_nl nl;
	int ret;

	ret = tp_simple_opts("info", tp_info_usage, argc, argv, &json);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	ret = tp_nl_open(&nl);
	if (ret)
		return ret;
	if (tp_nl_talk(&nl, tp_nl_request(&nl, TSCPROBE_CMD_GET_INFO, false),
		       tp_info_cb, &info, &error))
		ret = tp_nl_report("info", &error);
	tp_nl_close(&nl);
	if (ret)
		return ret;
	if (json)
		tp_info_json(&info);
	else
		tp_info_text(&info);
	return TP_EXIT_OK;
}
