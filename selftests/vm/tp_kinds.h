/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurements as the hardening tests see them: one entry per kind in
 * tp_kinds[].  The fuzzer, the privilege, concurrency and fault tests and
 * the soak all loop over this table, and skip a kind the loaded module does
 * not report in TSCPROBE_A_KINDS.  Adding a measurement to the hardening
 * suite is adding its entry here:
 *
 *  - @params: every START attribute the kind takes beyond KIND and CPUS,
 *    with the policy's range and the largest value a fuzzed START may
 *    carry (@safe_max), so that a START the fuzzer gets accepted never
 *    holds the machine for long (the fuzzer also stops every run it
 *    started, at once);
 *  - @quick and @lasting: START attributes of a run that ends by itself
 *    within about a second under TCG, and of one that goes on for at least
 *    30 s unless stopped but ends within a fraction of a second of a STOP;
 *  - the same two runs as CLI arguments, for the tests that go through the
 *    CLI (kill -9, privilege), and a CLI run of about 3 s that ends by
 *    itself (kill -9 of the CLI, then the run's natural end);
 *  - @poison: an attribute that passes the START policy but that the
 *    kind's own parser refuses (one it does not take): the fuzzer adds it
 *    to most STARTs, so that they reach the parser without starting runs
 *    (a run costs ~80 ms under TCG);
 *  - @invariants: jq filters that every -j result of the kind satisfies,
 *    whatever happened to the run (stopped, CPUs offlined);
 *  - @soak: the CLI runs "make soak" repeats on every CPU, each with the
 *    longest interrupts-off stretch it causes (the soak's timer bound).
 */
#ifndef TSCPROBE_SELFTEST_KINDS_H
#define TSCPROBE_SELFTEST_KINDS_H

#include <stdint.h>

#include <linux/tscprobe.h>

/* Netlink types of START attributes, as the tests put them. */
enum tp_nla {
	TP_NLA_U32,
	TP_NLA_U64,
	TP_NLA_FLAG,
};

/**
 * struct tp_param - one START parameter of a kind
 * @type: TSCPROBE_A_*
 * @nla: enum tp_nla
 * @min: smallest value the policy accepts
 * @max: largest value the policy accepts
 * @safe_max: largest valid value a fuzzed START uses (<= @max)
 */
struct tp_param {
	uint16_t type;
	uint8_t nla;
	uint64_t min;
	uint64_t max;
	uint64_t safe_max;
};

/**
 * struct tp_attr_val - one attribute of a prepared START
 * @type: TSCPROBE_A_*, 0 ends a list
 * @nla: enum tp_nla
 * @v: the value
 */
struct tp_attr_val {
	uint16_t type;
	uint8_t nla;
	uint64_t v;
};

/**
 * struct tp_soak_run - one kind of soak segment
 * @cli: CLI arguments, with one %u for the seconds (without -j)
 * @width_ns: the longest stretch a CPU spends with interrupts off (or in a
 *	window it does not leave) in such a run; NULL @cli ends a list
 */
struct tp_soak_run {
	const char *cli;
	uint64_t width_ns;
};

/**
 * struct tp_kind_desc - a measurement, for the hardening tests
 * @name: the CLI's subcommand and the JSON "kind"
 * @kind: enum tscprobe_kind
 * @params: its START parameters (KIND and CPUS are common to all)
 * @nparams: entries in @params
 * @quick: a run that ends by itself within about a second (TCG)
 * @lasting: a run of at least 30 s that ends soon after a STOP
 * @cli_quick: CLI arguments of a quick run (without -j)
 * @cli_lasting: CLI arguments of a lasting run (without -j)
 * @cli_medium: CLI arguments of a run of a few seconds under TCG (without -j)
 * @poison: a START attribute within the policy that the kind refuses
 * @invariants: jq filters true of every -j result; NULL ends the list
 * @starved: a jq filter true of a @lasting run that a fault ended before
 *	its STOP could: how such a run may end by itself; NULL when it may
 *	not (see tp_stop_after_fault() in test_faults.c)
 * @soak: the soak's segments of this kind
 */
struct tp_kind_desc {
	const char *name;
	uint32_t kind;
	const struct tp_param *params;
	unsigned int nparams;
	const struct tp_attr_val *quick;
	const struct tp_attr_val *lasting;
	const char *cli_quick;
	const char *cli_lasting;
	const char *cli_medium;
	struct tp_attr_val poison;
	const char *const *invariants;
	const char *starved;
	const struct tp_soak_run *soak;
};

/* ---- noise --------------------------------------------------------------- */

static const struct tp_param tp_noise_params[] = {
	{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, TSCPROBE_MIN_DURATION_NS,
	  TSCPROBE_MAX_DURATION_NS, 50000000ULL },
	/* STOP waits for the window and the gap in progress: keep both short. */
	{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, TSCPROBE_MIN_WIDTH_NS,
	  TSCPROBE_MAX_WIDTH_NS, 5000000ULL },
	{ TSCPROBE_A_GAP_NS, TP_NLA_U64, TSCPROBE_MIN_GAP_NS,
	  TSCPROBE_MAX_GAP_NS, 1000000ULL },
	{ TSCPROBE_A_THRESHOLD_NS, TP_NLA_U64, TSCPROBE_MIN_THRESHOLD_NS,
	  TSCPROBE_MAX_THRESHOLD_NS, TSCPROBE_MAX_THRESHOLD_NS },
	{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, TSCPROBE_MIN_THRESHOLD_CYCLES,
	  TSCPROBE_MAX_THRESHOLD_CYCLES, TSCPROBE_MAX_THRESHOLD_CYCLES },
	{ TSCPROBE_A_IRQS, TP_NLA_U32, 0, TSCPROBE_IRQS_MAX, TSCPROBE_IRQS_MAX },
	{ TSCPROBE_A_CLOCK, TP_NLA_U32, 0, TSCPROBE_CLOCK_MAX,
	  TSCPROBE_CLOCK_MAX },
	/*
	 * Stop-at shares the threshold's ranges; below the threshold the
	 * kind's parser refuses it, and TRACE_STOP alone.
	 */
	{ TSCPROBE_A_STOP_AT_NS, TP_NLA_U64, TSCPROBE_MIN_THRESHOLD_NS,
	  TSCPROBE_MAX_THRESHOLD_NS, TSCPROBE_MAX_THRESHOLD_NS },
	{ TSCPROBE_A_STOP_AT_CYCLES, TP_NLA_U64, TSCPROBE_MIN_THRESHOLD_CYCLES,
	  TSCPROBE_MAX_THRESHOLD_CYCLES, TSCPROBE_MAX_THRESHOLD_CYCLES },
	{ TSCPROBE_A_TRACE_STOP, TP_NLA_FLAG, 0, 1, 1 },
	/* A warm-up is measured before the duration: keep it short too. */
	{ TSCPROBE_A_WARM_UP_NS, TP_NLA_U64, 0, TSCPROBE_MAX_WARM_UP_NS,
	  20000000ULL },
};

static const struct tp_attr_val tp_noise_quick[] = {
	{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 200000000ULL },
	{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
	{ 0 },
};

static const struct tp_attr_val tp_noise_lasting[] = {
	{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 60000000000ULL },
	{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 10000000ULL },
	{ 0 },
};

static const char *const tp_noise_invariants[] = {
	".kind == \"noise\" and (.state == \"done\" or .state == \"stopped\")",
	"all(.cpus[]; (.histogram | map(.calls) | add // 0) == .samples)",
	"all(.cpus[]; (.histogram | map(.cycles) | add // 0) == .measured_cycles)",
	"all(.cpus[]; .measured_cycles <= .wall_cycles)",
	"all(.cpus[]; .events_total == (.events | length) + .events_dropped)",
	"all(.cpus[].histogram[]; .lo_cycles <= .hi_cycles and .calls > 0"
	" and .cycles >= .calls * .lo_cycles and .cycles <= .calls * .hi_cycles)",
	NULL,
};

/*
 * The widest windows the module allows, the default ones, and the same
 * with interrupts on (the loop does not yield inside a window either way).
 */
static const struct tp_soak_run tp_noise_soak[] = {
	{ "noise -d %us --width 1s -q", 1000000000ULL },
	{ "noise -d %us -q", 100000000ULL },
	{ "noise --irqs on -d %us -q", 100000000ULL },
	{ NULL, 0 },
};

/* ---- cache --------------------------------------------------------------- */

static const struct tp_param tp_cache_params[] = {
	{ TSCPROBE_A_ROUNDS, TP_NLA_U64, TSCPROBE_MIN_ROUNDS,
	  TSCPROBE_MAX_ROUNDS, 20000 },
	{ TSCPROBE_A_BATCH, TP_NLA_U32, TSCPROBE_MIN_BATCH, TSCPROBE_MAX_BATCH,
	  1000 },
	{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, TSCPROBE_MIN_WIDTH_NS,
	  TSCPROBE_MAX_WIDTH_NS, 5000000ULL },
	{ TSCPROBE_A_GAP_NS, TP_NLA_U64, TSCPROBE_MIN_GAP_NS,
	  TSCPROBE_MAX_GAP_NS, 1000000ULL },
	/* Levels and nodes end at a STOP between two steps of their build. */
	{ TSCPROBE_A_LEVELS, TP_NLA_FLAG, 0, 1, 1 },
	{ TSCPROBE_A_NODES, TP_NLA_FLAG, 0, 1, 1 },
};

/* About 4 M rounds per second under TCG (the emulator has no cache). */
static const struct tp_attr_val tp_cache_quick[] = {
	{ TSCPROBE_A_ROUNDS, TP_NLA_U64, 20000 },
	{ 0 },
};

static const struct tp_attr_val tp_cache_lasting[] = {
	{ TSCPROBE_A_ROUNDS, TP_NLA_U64, TSCPROBE_MAX_ROUNDS },
	{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 10000000ULL },
	{ 0 },
};

static const char *const tp_cache_invariants[] = {
	".kind == \"cache\" and (.state == \"done\" or .state == \"stopped\")",
	". as $r | all(.cpus[]; .rounds <= $r.rounds)",
	"all(.cpus[] | select(.rounds > 0) | .overhead, .cached, .uncached;"
	" .min <= .p50 and .p50 <= .p99 and .p99 <= .max and .sd >= 0)",
	NULL,
};

static const struct tp_soak_run tp_cache_soak[] = {
	{ "cache -n %u000000 -q", 100000000ULL },
	{ "cache -n %u00000 --batch 1000000 -q", 100000000ULL },
	{ NULL, 0 },
};

/* ---- skew ---------------------------------------------------------------- */

static const struct tp_param tp_skew_params[] = {
	{ TSCPROBE_A_SAMPLES, TP_NLA_U32, TSCPROBE_MIN_SAMPLES,
	  TSCPROBE_MAX_SAMPLES, 64 },
	{ TSCPROBE_A_REPEATS, TP_NLA_U32, TSCPROBE_MIN_REPEATS,
	  TSCPROBE_MAX_REPEATS, 2 },
};

/* A pair and repeat of 4096 samples takes about 40 ms under TCG. */
static const struct tp_attr_val tp_skew_quick[] = {
	{ TSCPROBE_A_SAMPLES, TP_NLA_U32, 16 },
	{ 0 },
};

static const struct tp_attr_val tp_skew_lasting[] = {
	{ TSCPROBE_A_SAMPLES, TP_NLA_U32, TSCPROBE_MAX_SAMPLES },
	{ TSCPROBE_A_REPEATS, TP_NLA_U32, TSCPROBE_MAX_REPEATS },
	{ 0 },
};

static const char *const tp_skew_invariants[] = {
	".kind == \"skew\" and (.state == \"done\" or .state == \"stopped\")",
	"all(.pairs[] | select(.status == \"ok\"); .nr > 0 and"
	" .latij.min <= .latij.avg and .latij.avg <= .latij.max and"
	" .latji.min <= .latji.avg and .latji.avg <= .latji.max)",
	"all(.pairs[] | select(.status != \"ok\"); .latij == null and .skew == null)",
	"(.pairs | length) == .pairs_total",
	NULL,
};

/*
 * A lasting skew run ends early, by itself, only when no pair is left that
 * can be measured: every pair had a CPU that went away, or timed out.  The
 * second happens under TCG when more vCPUs are busy than the host has
 * cores (a CPU coming online makes work for several): a hand-off needs
 * both its vCPUs to run at once, and crawls at the host's time slice until
 * the pair's 1 s cap.  A pair cannot have completed its 1000 repeats.
 */
#define TP_SKEW_STARVED \
	".stop_reason != \"stop requested\" and all(.pairs[];" \
	" .status == \"offline\" or .status == \"timeout\")"

/* Interrupts stay off for a pair's log: at most 1 s (the cap). */
static const struct tp_soak_run tp_skew_soak[] = {
	{ "skew -n 4096 -r %u -q", 1000000000ULL },
	{ NULL, 0 },
};

/* ---- the table ------------------------------------------------------------ */

#define TP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* See the "Hardening" section of Documentation/tscprobe.rst. */
static const struct tp_kind_desc tp_kinds[] = {
	{
		.name = "noise",
		.kind = TSCPROBE_KIND_NOISE,
		.params = tp_noise_params,
		.nparams = TP_ARRAY_SIZE(tp_noise_params),
		.quick = tp_noise_quick,
		.lasting = tp_noise_lasting,
		.cli_quick = "noise -d 200ms --width 20ms -q",
		.cli_lasting = "noise -c 1-2 -d 60s --width 10ms -q",
		.cli_medium = "noise -c 1-2 -d 3s --width 10ms -q",
		.poison = { TSCPROBE_A_ROUNDS, TP_NLA_U64, 1000 },
		.invariants = tp_noise_invariants,
		.soak = tp_noise_soak,
	},
	{
		.name = "cache",
		.kind = TSCPROBE_KIND_CACHE,
		.params = tp_cache_params,
		.nparams = TP_ARRAY_SIZE(tp_cache_params),
		.quick = tp_cache_quick,
		.lasting = tp_cache_lasting,
		.cli_quick = "cache -n 2e4 -q",
		.cli_lasting = "cache -c 1-2 -n 1e9 -q",
		.cli_medium = "cache -c 1-2 -n 4e6 -q",
		.poison = { TSCPROBE_A_SAMPLES, TP_NLA_U32, 64 },
		.invariants = tp_cache_invariants,
		.soak = tp_cache_soak,
	},
	{
		.name = "skew",
		.kind = TSCPROBE_KIND_SKEW,
		.params = tp_skew_params,
		.nparams = TP_ARRAY_SIZE(tp_skew_params),
		.quick = tp_skew_quick,
		.lasting = tp_skew_lasting,
		.cli_quick = "skew -n 16 -q",
		.cli_lasting = "skew -c 1-2 -n 4096 -r 1000 -q",
		.cli_medium = "skew -c 1-2 -n 4096 -r 150 -q",
		.poison = { TSCPROBE_A_ROUNDS, TP_NLA_U64, 1000 },
		.invariants = tp_skew_invariants,
		.starved = TP_SKEW_STARVED,
		.soak = tp_skew_soak,
	},
};

#define TP_NR_KINDS	TP_ARRAY_SIZE(tp_kinds)

#endif /* TSCPROBE_SELFTEST_KINDS_H */
