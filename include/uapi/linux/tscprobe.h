/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tscprobe - how quiet is a CPU really?
 *
 * This header is the whole contract between the tscprobe kernel module and
 * its clients.  It is used verbatim by the module (kmod/), the CLI (user/)
 * and the selftests, and described for the kernel's ynl tooling by
 * Documentation/netlink/specs/tscprobe.yaml.
 *
 * Transport: a generic netlink family named TSCPROBE_GENL_NAME, version
 * TSCPROBE_GENL_VERSION.  Every request is strictly validated: unknown
 * attributes, wrong types, wrong lengths and out-of-range values are refused
 * with an extended ack that points at the offending attribute.  Commands that
 * start, stop or clear anything need CAP_NET_ADMIN (GENL_ADMIN_PERM).
 *
 * Names: every enumeration ends with __NAME_MAX and NAME_MAX (its largest
 * value), so no member may be called ..._MAX: such attributes are called
 * MINIMUM and MAXIMUM.
 *
 * Conventions used in the attribute comments below:
 *  - "u32", "u64", "s64", "string", "flag", "binary", "nest" name the
 *    netlink attribute type; u64/s64 attributes are 64-bit aligned with
 *    TSCPROBE_A_PAD (or the PAD of their own set).
 *  - Times are in nanoseconds unless the name says _CYCLES (TSC cycles,
 *    convert with TSCPROBE_A_TSC_KHZ).
 *  - A CPU set is a binary attribute holding a little-endian bitmap:
 *    CPU n is bit (n % 8) of byte (n / 8).  At most TSCPROBE_CPUMASK_BYTES.
 *  - A counter the module could not read is left out of the message, never
 *    sent as zero.
 *
 * Measurements (enum tscprobe_kind):
 *  NOISE  spin reading the TSC with interrupts off (or on) and histogram
 *         the gap between consecutive reads.
 *  CACHE  time one load, cached and after clflush, net of the cost of an
 *         empty measurement.
 *  SKEW   for every ordered CPU pair, hand a cache line back and forth and
 *         derive the one-way latency and the TSC offset of the pair.
 */
#ifndef _UAPI_LINUX_TSCPROBE_H
#define _UAPI_LINUX_TSCPROBE_H

#define TSCPROBE_GENL_NAME		"tscprobe"
#define TSCPROBE_GENL_VERSION		1
/*
 * Multicast groups: RUN_FINISHED and EVENT notifications.  "events" is
 * open to every user, and its EVENTs name no thread (see
 * TSCPROBE_SOURCE_A_WITHHELD); "events-named" carries the same
 * notifications with the threads' pids and names, and only a task with
 * CAP_NET_ADMIN may join it.  A module built for a kernel that cannot
 * refuse a group to a joiner (without GENL_MCAST_CAP_NET_ADMIN: before
 * 6.7, and stable lines without its backport) has no "events-named".
 */
#define TSCPROBE_MCGRP_EVENTS		"events"
#define TSCPROBE_MCGRP_EVENTS_NAMED	"events-named"

/* ---- limits ------------------------------------------------------------ */

/* Largest CPU bitmap accepted or sent (bytes): 8192 CPUs. */
#define TSCPROBE_CPUMASK_BYTES		1024
/* Most CPUs one run may measure. */
#define TSCPROBE_MAX_RUN_CPUS		1024
/*
 * A measured CPU whose thread has not got the CPU within this long after
 * START, while other tasks ran there for at least half that time (one of
 * higher priority owns it: a SCHED_FIFO poller with RT throttling off), is
 * not measured: TSCPROBE_CPU_F_STARVED, and the run goes on with the other
 * CPUs.  A CPU that ran nothing else meanwhile (the vCPU of a virtual
 * machine its host does not schedule, or interrupts kept off there) is
 * waited for up to TSCPROBE_START_LIMIT_MS, and then given up with
 * TSCPROBE_CPU_F_HELD too.
 */
#define TSCPROBE_START_TIMEOUT_MS	2000
#define TSCPROBE_START_LIMIT_MS		10000
/*
 * A noise run ends (RUN_FINISHED is sent) within its warm-up, its duration,
 * TSCPROBE_START_LIMIT_MS, two windows, a gap and TSCPROBE_END_MARGIN_MS
 * of START, however its threads are scheduled.  No CPU starts measuring
 * past TSCPROBE_START_LIMIT_MS (its thread checks, whether or not the
 * module has looked), each measures for its warm-up and duration, and a
 * thread still there two windows, a gap and 2 s after the last CPU's
 * start plus those is moved away, starved; the last second of the margin
 * is for it and the run's end to get a CPU.  Only a CPU that stops
 * running for good (a vCPU its host never schedules again) holds the end
 * back.
 */
#define TSCPROBE_END_MARGIN_MS		3000
/* cache and skew: the spin over which a CPU's effective clock is read. */
#define TSCPROBE_CLOCK_READ_NS		1000000

#define TSCPROBE_MIN_DURATION_NS	1000000ULL		/* 1 ms */
#define TSCPROBE_MAX_DURATION_NS	86400000000000ULL	/* 24 h */
#define TSCPROBE_DEFAULT_DURATION_NS	10000000000ULL		/* 10 s */
/* noise: measured first on each CPU and dropped; not in the duration. */
#define TSCPROBE_MAX_WARM_UP_NS		3600000000000ULL	/* 1 h */

/* An IRQs-off window: far below the 10 s hard-lockup threshold. */
#define TSCPROBE_MIN_WIDTH_NS		10000ULL		/* 10 us */
#define TSCPROBE_MAX_WIDTH_NS		1000000000ULL		/* 1 s */
#define TSCPROBE_DEFAULT_WIDTH_NS	100000000ULL		/* 100 ms */

/* The interrupts-on pause between two windows. */
#define TSCPROBE_MIN_GAP_NS		10000ULL		/* 10 us */
#define TSCPROBE_MAX_GAP_NS		1000000000ULL		/* 1 s */
#define TSCPROBE_DEFAULT_GAP_NS		100000ULL		/* 100 us */

/* Gaps at or above the threshold are kept as events. */
#define TSCPROBE_MIN_THRESHOLD_NS	1ULL
#define TSCPROBE_MAX_THRESHOLD_NS	1000000000ULL		/* 1 s */
#define TSCPROBE_DEFAULT_THRESHOLD_NS	10000ULL		/* 10 us */
#define TSCPROBE_MIN_THRESHOLD_CYCLES	1ULL
#define TSCPROBE_MAX_THRESHOLD_CYCLES	10000000000ULL
/* Events kept per CPU; when full the largest are kept. */
#define TSCPROBE_MAX_EVENTS		256
/* Sources a noise CPU names one by one; the rest are summed as OTHER. */
#define TSCPROBE_MAX_SOURCES		32
/* Bytes of a source's name, its terminating NUL included. */
#define TSCPROBE_SOURCE_NAME_LEN	24
/* Sources one noise event names one by one; the rest are summed as OTHER. */
#define TSCPROBE_EVENT_SOURCES		4
/*
 * Most events the EVENT notifications carry per CPU and window; the rest
 * are counted in TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED.
 */
#define TSCPROBE_EVENTS_PER_NOTIFICATION	32

/* cache */
#define TSCPROBE_MIN_ROUNDS		1ULL
#define TSCPROBE_MAX_ROUNDS		1000000000ULL
#define TSCPROBE_DEFAULT_ROUNDS		1000000ULL
#define TSCPROBE_MIN_BATCH		1
#define TSCPROBE_MAX_BATCH		1000000
#define TSCPROBE_DEFAULT_BATCH		1000

/* skew */
#define TSCPROBE_MIN_SAMPLES		16
#define TSCPROBE_MAX_SAMPLES		4096
#define TSCPROBE_DEFAULT_SAMPLES	256
/* Log entries skipped at the start of every pair while caches warm up. */
#define TSCPROBE_SKEW_WARMUP		16
#define TSCPROBE_MIN_REPEATS		1
#define TSCPROBE_MAX_REPEATS		1000
#define TSCPROBE_DEFAULT_REPEATS	1
/*
 * Most CPUs one skew run may measure: n CPUs make n * (n - 1) ordered pairs
 * (65280 for 256), each kept in the module until the next run.
 */
#define TSCPROBE_MAX_SKEW_CPUS		256

/*
 * Histogram layout, shared by every series: values 0..31 have a bucket each;
 * above, every power-of-two octave is split into 16 equal sub-buckets, so a
 * bucket's width is at most 1/16 of its lower bound.  Bucket i >= 32 covers
 * [m << s, ((m + 1) << s) - 1] with s = i / 16 - 1 and m = i - 16 * s.
 */
#define TSCPROBE_HIST_SUB_BITS		4
#define TSCPROBE_HIST_BUCKETS		976

/* ---- commands ---------------------------------------------------------- */

/**
 * enum tscprobe_cmd - generic netlink commands
 * @TSCPROBE_CMD_GET_INFO: do; reply: VERSION, TSC_KHZ, NR_CPU_IDS,
 *	CPUS_ONLINE, FEATURES, KINDS, STATE, RUN_ID, TSC_SYNC.
 * @TSCPROBE_CMD_START: do, admin; KIND plus that kind's parameters; reply:
 *	RUN_ID and the effective parameters.  EBUSY while a run is going on;
 *	EAGAIN while the last run's probes are being detached, or when a
 *	signal ended its wait for another START (try again).
 * @TSCPROBE_CMD_STOP: do, admin; asks the current run to end and returns
 *	at once, without waiting for it.  The run ends within one window and
 *	a gap (a thread still kept off its CPU two windows, a gap and 2 s
 *	after STOP is moved away, TSCPROBE_CPU_F_STARVED), and then
 *	RUN_FINISHED is sent, reason REQUESTED.  To wait for the end, join
 *	the events group before STOP, or poll GET_STATUS.
 *	ENOENT when nothing runs.
 * @TSCPROBE_CMD_GET_STATUS: do and dump.  Do: the run message: STATE,
 *	KIND, RUN_ID, ELAPSED_NS, the parameters (DURATION_NS, ...); only
 *	STATE IDLE when there is no run.  Dump: that message, then one
 *	message per measured CPU with RUN_ID and a CPU nest (ID, FLAGS and
 *	the kind's progress).  Every run message (START's reply, GET_STATUS,
 *	GET_RESULT's first) also carries TSC_SYNC, TSC_OFFSETS_RUN_ID where
 *	offsets are known, and with reason THRESHOLD the STOP_CPU and
 *	STOP_EVENT.
 * @TSCPROBE_CMD_GET_RESULT: dump; first a run message (as GET_STATUS plus
 *	the parameters), then one message per CPU (a CPU whose histograms do
 *	not fit one message continues in the next, with the same CPU_ID),
 *	then one message per skew pair.  ENOENT when there are no results.
 *	A dump (of GET_RESULT or GET_STATUS) reads the run that was current
 *	when it started, and holds nothing of it between two reads: a RESET
 *	or a new START meanwhile ends the dump with ESTALE (its NLMSG_DONE
 *	says "the run was reset or replaced while its results were read").
 *	A CPU whose results take several messages is read from one
 *	publication of its figures; where the running measurement published
 *	new ones between two of them, the message read after it carries
 *	NLM_F_DUMP_INTR, and the reader starts the dump over (the CLI does,
 *	a few times).  Thread names and pids are sent only to a requester
 *	with CAP_NET_ADMIN (see TSCPROBE_SOURCE_A_WITHHELD).
 * @TSCPROBE_CMD_RESET: do, admin; drops the results.  EBUSY while running.
 * @TSCPROBE_CMD_RUN_FINISHED: notification on the events group: RUN_ID,
 *	KIND, STATE (DONE or STOPPED), STOP_REASON; with reason THRESHOLD
 *	also STOP_CPU and STOP_EVENT; for a noise run also one CPU nest per
 *	measured CPU with ID, EVENTS_TOTAL and EVENTS_NOT_NOTIFIED (final).
 * @TSCPROBE_CMD_EVENT: notification on the events groups: RUN_ID and one
 *	CPU nest (ID and EVENT nests, with their sources as in GET_RESULT:
 *	threads named on "events-named" only)
 *	holding noise events found by the last window, at most
 *	TSCPROBE_EVENTS_PER_NOTIFICATION of them per window, in as many
 *	messages as they need (each at most a page).  The
 *	only listener, joined before START with NETLINK_BROADCAST_ERROR
 *	set, receives per CPU EVENTS_TOTAL - EVENTS_NOT_NOTIFIED events.
 *	With listeners on "events-named", an event counts as notified when
 *	they got it, whatever the listeners of "events" (which anyone may
 *	join) read; with listeners on "events" only, when they got it.
 */
enum tscprobe_cmd {
	TSCPROBE_CMD_UNSPEC,
	TSCPROBE_CMD_GET_INFO,
	TSCPROBE_CMD_START,
	TSCPROBE_CMD_STOP,
	TSCPROBE_CMD_GET_STATUS,
	TSCPROBE_CMD_GET_RESULT,
	TSCPROBE_CMD_RESET,
	TSCPROBE_CMD_RUN_FINISHED,
	TSCPROBE_CMD_EVENT,

	__TSCPROBE_CMD_MAX
};
#define TSCPROBE_CMD_MAX (__TSCPROBE_CMD_MAX - 1)

/* ---- enumerations -------------------------------------------------------- */

/** enum tscprobe_kind - the measurements */
enum tscprobe_kind {
	TSCPROBE_KIND_NONE,
	TSCPROBE_KIND_NOISE,
	TSCPROBE_KIND_CACHE,
	TSCPROBE_KIND_SKEW,

	__TSCPROBE_KIND_MAX
};
#define TSCPROBE_KIND_MAX (__TSCPROBE_KIND_MAX - 1)

/**
 * enum tscprobe_state - the module's run state
 * @TSCPROBE_STATE_IDLE: no run and no results
 * @TSCPROBE_STATE_RUNNING: a run is in progress
 * @TSCPROBE_STATE_DONE: the last run completed; its results are held
 * @TSCPROBE_STATE_STOPPED: the last run was ended early (STOP, a CPU going
 *	offline for every measured CPU, unload, stop-at); its partial results
 *	are held
 */
enum tscprobe_state {
	TSCPROBE_STATE_IDLE,
	TSCPROBE_STATE_RUNNING,
	TSCPROBE_STATE_DONE,
	TSCPROBE_STATE_STOPPED,

	__TSCPROBE_STATE_MAX
};
#define TSCPROBE_STATE_MAX (__TSCPROBE_STATE_MAX - 1)

/** enum tscprobe_stop_reason - why a run ended */
enum tscprobe_stop_reason {
	TSCPROBE_STOP_NONE,		/* still running */
	TSCPROBE_STOP_COMPLETED,	/* reached its duration / rounds */
	TSCPROBE_STOP_REQUESTED,	/* TSCPROBE_CMD_STOP */
	TSCPROBE_STOP_HOTPLUG,		/* every measured CPU went offline */
	TSCPROBE_STOP_UNLOAD,		/* the module is being removed */
	TSCPROBE_STOP_THRESHOLD,	/* noise: a gap reached STOP_AT */

	__TSCPROBE_STOP_MAX
};
#define TSCPROBE_STOP_MAX (__TSCPROBE_STOP_MAX - 1)

/**
 * enum tscprobe_clock - how the TSC is read
 * @TSCPROBE_CLOCK_LFENCE: lfence; rdtsc (the default)
 * @TSCPROBE_CLOCK_RDTSCP: rdtscp
 * @TSCPROBE_CLOCK_MFENCE: mfence; rdtsc
 * @TSCPROBE_CLOCK_PLAIN: rdtsc alone (may be reordered)
 */
enum tscprobe_clock {
	TSCPROBE_CLOCK_LFENCE,
	TSCPROBE_CLOCK_RDTSCP,
	TSCPROBE_CLOCK_MFENCE,
	TSCPROBE_CLOCK_PLAIN,

	__TSCPROBE_CLOCK_MAX
};
#define TSCPROBE_CLOCK_MAX (__TSCPROBE_CLOCK_MAX - 1)

/** enum tscprobe_irqs - interrupts during a noise window */
enum tscprobe_irqs {
	TSCPROBE_IRQS_OFF,
	TSCPROBE_IRQS_ON,

	__TSCPROBE_IRQS_MAX
};
#define TSCPROBE_IRQS_MAX (__TSCPROBE_IRQS_MAX - 1)

/**
 * enum tscprobe_series - what a histogram and its statistics describe
 * @TSCPROBE_SERIES_GAP: noise: cycles between consecutive TSC reads
 * @TSCPROBE_SERIES_OVERHEAD: cache: an empty measurement
 * @TSCPROBE_SERIES_CACHED: cache: a load of a cached line (gross)
 * @TSCPROBE_SERIES_UNCACHED: cache: a load after clflush (gross)
 */
enum tscprobe_series {
	TSCPROBE_SERIES_NONE,
	TSCPROBE_SERIES_GAP,
	TSCPROBE_SERIES_OVERHEAD,
	TSCPROBE_SERIES_CACHED,
	TSCPROBE_SERIES_UNCACHED,

	__TSCPROBE_SERIES_MAX
};
#define TSCPROBE_SERIES_MAX (__TSCPROBE_SERIES_MAX - 1)

/** enum tscprobe_relation - where two CPUs of a skew pair sit */
enum tscprobe_relation {
	TSCPROBE_REL_UNKNOWN,
	TSCPROBE_REL_SMT,		/* SMT siblings of one core */
	TSCPROBE_REL_PACKAGE,		/* other core, same package */
	TSCPROBE_REL_OTHER_PACKAGE,	/* other package, same NUMA node */
	TSCPROBE_REL_OTHER_NODE,	/* other NUMA node */

	__TSCPROBE_REL_MAX
};
#define TSCPROBE_REL_MAX (__TSCPROBE_REL_MAX - 1)

/** enum tscprobe_pair_status - how a skew pair ended */
enum tscprobe_pair_status {
	TSCPROBE_PAIR_OK,
	TSCPROBE_PAIR_TIMEOUT,		/* a side waited in vain, or a CPU
					 * was starved; no numbers */
	TSCPROBE_PAIR_OFFLINE,		/* a CPU of the pair went offline */
	TSCPROBE_PAIR_SKIPPED,		/* the run was stopped before it */

	__TSCPROBE_PAIR_MAX
};
#define TSCPROBE_PAIR_MAX (__TSCPROBE_PAIR_MAX - 1)

/**
 * enum tscprobe_cause - what a noise event is attributed to
 * @TSCPROBE_CAUSE_NONE: not classified (never sent by the module; the
 *	userspace engine's value where it cannot tell)
 * @TSCPROBE_CAUSE_SMI: the SMI count moved across the gap
 * @TSCPROBE_CAUSE_NMI: no SMI counted, but the CPU took an NMI
 * @TSCPROBE_CAUSE_IRQ: neither, but the CPU took an interrupt (only with
 *	IRQS on: with interrupts off none can be taken but as an NMI)
 * @TSCPROBE_CAUSE_STEAL: none of these, but the kernel accounted steal
 *	time (the hypervisor ran something else on this CPU)
 * @TSCPROBE_CAUSE_UNEXPLAINED: no counter moved, or none could be read
 * @TSCPROBE_CAUSE_THREAD: the largest source traced inside the gap was a
 *	thread (after the counter causes: the values scripts know stay)
 * @TSCPROBE_CAUSE_SOFTIRQ: the largest source traced inside it was a
 *	softirq
 *
 * Where the module's probes traced the gap (its event has
 * TSCPROBE_EVENT_A_SOURCE) and the largest source they name accounts for
 * at least as much of it as is left unexplained, the cause is that
 * source's kind: THREAD, SOFTIRQ, IRQ (a hard interrupt or a system
 * vector) or NMI.  Otherwise the counter rule below gives it, so that a
 * gap of an SMI or the hypervisor with a short tick inside is not blamed
 * on the tick.
 *
 * The counter rule, on the counters read on the event's CPU when the gap was seen
 * and at the previous reading (the window's start or the CPU's previous
 * event): the first of SMI, NMI, IRQ, STEAL whose delta is non-zero, in
 * that order.  The order goes from what stops the CPU most completely (an
 * SMI also freezes the other cores and hides NMIs and interrupts behind
 * it) to what only the kernel's accounting sees.  A counter that cannot be
 * read never explains anything, and never rules anything out: where the
 * SMI count cannot be read (enum tscprobe_smi_source NONE: no counter, or
 * under a hypervisor, whose count is not the host's), the event's SMI
 * delta is absent, the CPU's SMI cause nest too, and NMI, IRQ and STEAL
 * say only that the counter moved, not that no SMI came (one may hide
 * behind them); UNEXPLAINED there includes SMIs.  Deltas span from the previous reading to the
 * event, so an event right after a window's start shares its deltas with
 * nothing, and two events close together each get their own, but for two
 * back to back: the loop sees a gap one read late, so the first one's
 * reading would come after the second gap; it has no deltas (absent) and
 * the second one's span both.
 */
enum tscprobe_cause {
	TSCPROBE_CAUSE_NONE,
	TSCPROBE_CAUSE_SMI,
	TSCPROBE_CAUSE_NMI,
	TSCPROBE_CAUSE_IRQ,
	TSCPROBE_CAUSE_STEAL,
	TSCPROBE_CAUSE_UNEXPLAINED,
	TSCPROBE_CAUSE_THREAD,
	TSCPROBE_CAUSE_SOFTIRQ,

	__TSCPROBE_CAUSE_MAX
};
#define TSCPROBE_CAUSE_MAX (__TSCPROBE_CAUSE_MAX - 1)

/**
 * enum tscprobe_tsc_sync - may TSC values of different CPUs be compared?
 * @TSCPROBE_TSC_UNKNOWN: the module cannot tell (never sent by it)
 * @TSCPROBE_TSC_STABLE: the kernel has not marked the TSC unstable: its
 *	boot-time and hotplug synchronization checks passed (or the CPU is
 *	declared TSC_RELIABLE) and its clocksource watchdog has not caught
 *	it drifting.  The TSCs then agree to within what those checks can
 *	see (tens to hundreds of cycles); the skew measurement says more.
 * @TSCPROBE_TSC_UNSTABLE: the kernel marked the TSC unstable
 *	(check_tsc_unstable()): TSC values of different CPUs must not be
 *	compared, not even with the offsets of a skew run
 */
enum tscprobe_tsc_sync {
	TSCPROBE_TSC_UNKNOWN,
	TSCPROBE_TSC_STABLE,
	TSCPROBE_TSC_UNSTABLE,

	__TSCPROBE_TSC_MAX
};
#define TSCPROBE_TSC_MAX (__TSCPROBE_TSC_MAX - 1)

/* TSCPROBE_A_FEATURES bits: what the CPU and the module can do. */
#define TSCPROBE_FEAT_CONSTANT_TSC	(1U << 0)
#define TSCPROBE_FEAT_NONSTOP_TSC	(1U << 1)
#define TSCPROBE_FEAT_TSC_KNOWN_FREQ	(1U << 2)
#define TSCPROBE_FEAT_TSC_RELIABLE	(1U << 3)
#define TSCPROBE_FEAT_RDTSCP		(1U << 4)
#define TSCPROBE_FEAT_CLFLUSH		(1U << 5)
#define TSCPROBE_FEAT_CLFLUSHOPT	(1U << 6)
/* constant and nonstop: the TSC ticks at one rate in every P- and C-state */
#define TSCPROBE_FEAT_INVARIANT_TSC	(1U << 7)
#define TSCPROBE_FEAT_APERFMPERF	(1U << 8)
#define TSCPROBE_FEAT_HYPERVISOR	(1U << 9)
/*
 * MSR_SMI_COUNT read without a fault on the CPU that answered, and not
 * under a hypervisor (whose count, where there is one, is its own: KVM's
 * reads 0 forever while the host's SMIs stop the guest unseen)
 */
#define TSCPROBE_FEAT_SMI_COUNT		(1U << 10)
/*
 * No SMI_COUNT, but the CPU counts the SMIs it receives in its core PMU
 * (AMD Zen and later: event 0x2B, LS_SMI_RX), which this kernel drives,
 * and not under a hypervisor: a noise run counts them through a kernel
 * perf counter on each CPU where one is free (TSCPROBE_SMI_SOURCE_PERF)
 */
#define TSCPROBE_FEAT_SMI_PMU		(1U << 11)

/*
 * TSCPROBE_CPU_A_FLAGS bits.  DONE: the CPU has finished.  INCOMPLETE:
 * its figures are not the whole run's: it went offline, measured nothing,
 * or starved.  STARVED: its measurement thread could not get the CPU (a
 * task of higher priority, such as a SCHED_FIFO poller with RT throttling
 * off, owns it): it had not started within TSCPROBE_START_TIMEOUT_MS of
 * START (WINDOWS 0: nothing measured), or it was still kept off the CPU
 * when the run should have ended; the module then moved it to another
 * CPU, where it measured nothing.  Its figures are those of before.
 * HELD, with STARVED: the CPU ran nothing else that the kernel accounts
 * while the module waited for it (see TSCPROBE_START_LIMIT_MS).
 */
#define TSCPROBE_CPU_F_DONE		(1U << 0)
#define TSCPROBE_CPU_F_INCOMPLETE	(1U << 1)
#define TSCPROBE_CPU_F_STARVED		(1U << 2)
#define TSCPROBE_CPU_F_HELD		(1U << 3)

/* ---- attributes ---------------------------------------------------------- */

/**
 * enum tscprobe_attr - top-level attributes (requests, replies, dumps)
 * @TSCPROBE_A_PAD: padding for 64-bit attributes; never sent alone
 * @TSCPROBE_A_VERSION: string; module version
 * @TSCPROBE_A_TSC_KHZ: u32; TSC frequency in kHz
 * @TSCPROBE_A_NR_CPU_IDS: u32; highest possible CPU number + 1
 * @TSCPROBE_A_CPUS_ONLINE: binary CPU set; CPUs online now
 * @TSCPROBE_A_FEATURES: u32; TSCPROBE_FEAT_* bits
 * @TSCPROBE_A_KINDS: u32; bit (1 << kind) for every supported measurement
 * @TSCPROBE_A_STATE: u32; enum tscprobe_state
 * @TSCPROBE_A_KIND: u32; enum tscprobe_kind; required by START
 * @TSCPROBE_A_RUN_ID: u64; increases by one with every START
 * @TSCPROBE_A_CPUS: binary CPU set; the CPUs to measure (START; default:
 *	every online CPU) or measured
 * @TSCPROBE_A_DURATION_NS: u64 ns; noise: how long to measure
 * @TSCPROBE_A_IRQS: u32; enum tscprobe_irqs; noise (default off)
 * @TSCPROBE_A_WIDTH_NS: u64 ns; longest interrupts-off stretch
 * @TSCPROBE_A_GAP_NS: u64 ns; interrupts-on pause between two windows
 * @TSCPROBE_A_THRESHOLD_NS: u64 ns; noise: gaps at or above are events
 * @TSCPROBE_A_THRESHOLD_CYCLES: u64 cycles; the same in TSC cycles (START
 *	takes one of the two; replies carry both)
 * @TSCPROBE_A_CLOCK: u32; enum tscprobe_clock
 * @TSCPROBE_A_ROUNDS: u64; cache: rounds per CPU
 * @TSCPROBE_A_BATCH: u32; cache: rounds between two deadline checks (at
 *	most: fewer when fewer fit before the window's deadline); <= ROUNDS
 * @TSCPROBE_A_LEVELS: flag; cache: also measure the memory-level curve
 * @TSCPROBE_A_NODES: flag; cache: also measure every NUMA node's memory
 * @TSCPROBE_A_SAMPLES: u32; skew: hand-offs logged per pair and repeat
 * @TSCPROBE_A_REPEATS: u32; skew: times each pair is measured
 * @TSCPROBE_A_ELAPSED_NS: u64 ns; time since START (or run length)
 * @TSCPROBE_A_STOP_REASON: u32; enum tscprobe_stop_reason
 * @TSCPROBE_A_CPU: nest, enum tscprobe_cpu_attr; one per CPU
 * @TSCPROBE_A_PAIR: nest, enum tscprobe_pair_attr; one per skew pair
 * @TSCPROBE_A_START_TSC: u64 cycles; TSC when the run started
 * @TSCPROBE_A_PAIRS_DONE: u32; skew: ordered pairs finished so far
 * @TSCPROBE_A_PAIRS_TOTAL: u32; skew: ordered pairs in the run
 * @TSCPROBE_A_STOP_AT_NS: u64 ns; noise: the first gap at least this long
 *	ends the run (all CPUs, at their next window end) with reason
 *	THRESHOLD.  Same range as THRESHOLD_NS, and >= the threshold.
 * @TSCPROBE_A_STOP_AT_CYCLES: u64 cycles; the same in TSC cycles (START
 *	takes one of the two; replies carry both when stop-at is set)
 * @TSCPROBE_A_TRACE_STOP: flag; noise: when STOP_AT is reached, also call
 *	tracing_off() at once, so the ftrace ring buffer keeps what led up
 *	to the event (osnoise's stop_tracing_us).  Needs STOP_AT.
 * @TSCPROBE_A_STOP_CPU: u32; with reason THRESHOLD: the CPU that saw it
 * @TSCPROBE_A_STOP_EVENT: nest, enum tscprobe_event_attr; with reason
 *	THRESHOLD: the event that ended the run
 * @TSCPROBE_A_TSC_SYNC: u32; enum tscprobe_tsc_sync; the kernel's view
 *	now (GET_INFO, run messages)
 * @TSCPROBE_A_TSC_OFFSETS_RUN_ID: u64; the skew run the CPU nests'
 *	TSC_OFFSET come from (the last completed skew run since load); absent
 *	when no CPU of the run has an offset
 * @TSCPROBE_A_WARM_UP_NS: u64 ns; noise: each CPU measures this long
 *	first, with the run's parameters, and drops it (no events, no
 *	notifications, no stop-at); its duration counts from then.  At most
 *	TSCPROBE_MAX_WARM_UP_NS; absent or 0: none.  Replies carry it.
 */
enum tscprobe_attr {
	TSCPROBE_A_UNSPEC,
	TSCPROBE_A_PAD,
	TSCPROBE_A_VERSION,
	TSCPROBE_A_TSC_KHZ,
	TSCPROBE_A_NR_CPU_IDS,
	TSCPROBE_A_CPUS_ONLINE,
	TSCPROBE_A_FEATURES,
	TSCPROBE_A_KINDS,
	TSCPROBE_A_STATE,
	TSCPROBE_A_KIND,
	TSCPROBE_A_RUN_ID,
	TSCPROBE_A_CPUS,
	TSCPROBE_A_DURATION_NS,
	TSCPROBE_A_IRQS,
	TSCPROBE_A_WIDTH_NS,
	TSCPROBE_A_GAP_NS,
	TSCPROBE_A_THRESHOLD_NS,
	TSCPROBE_A_THRESHOLD_CYCLES,
	TSCPROBE_A_CLOCK,
	TSCPROBE_A_ROUNDS,
	TSCPROBE_A_BATCH,
	TSCPROBE_A_LEVELS,
	TSCPROBE_A_NODES,
	TSCPROBE_A_SAMPLES,
	TSCPROBE_A_REPEATS,
	TSCPROBE_A_ELAPSED_NS,
	TSCPROBE_A_STOP_REASON,
	TSCPROBE_A_CPU,
	TSCPROBE_A_PAIR,
	TSCPROBE_A_START_TSC,
	TSCPROBE_A_PAIRS_DONE,
	TSCPROBE_A_PAIRS_TOTAL,
	TSCPROBE_A_STOP_AT_NS,
	TSCPROBE_A_STOP_AT_CYCLES,
	TSCPROBE_A_TRACE_STOP,
	TSCPROBE_A_STOP_CPU,
	TSCPROBE_A_STOP_EVENT,
	TSCPROBE_A_TSC_SYNC,
	TSCPROBE_A_TSC_OFFSETS_RUN_ID,
	TSCPROBE_A_WARM_UP_NS,

	__TSCPROBE_A_MAX
};
#define TSCPROBE_A_MAX (__TSCPROBE_A_MAX - 1)

/**
 * enum tscprobe_cpu_attr - one CPU's progress or result (TSCPROBE_A_CPU)
 * @TSCPROBE_CPU_A_PAD: padding
 * @TSCPROBE_CPU_A_ID: u32; the CPU number
 * @TSCPROBE_CPU_A_FLAGS: u32; TSCPROBE_CPU_F_* bits
 * @TSCPROBE_CPU_A_NODE: u32; the CPU's NUMA node
 * @TSCPROBE_CPU_A_WINDOWS: u64; interrupts-off windows run
 * @TSCPROBE_CPU_A_MEASURED_CYCLES: u64 cycles; inside windows (noise;
 *	cache: the rounds' windows, so rounds/s = ROUNDS * tsc_hz / this)
 * @TSCPROBE_CPU_A_WALL_CYCLES: u64 cycles; from the first window's start
 *	to the last one's end; coverage = MEASURED / WALL (cache: of the
 *	rounds)
 * @TSCPROBE_CPU_A_EVENTS_TOTAL: u64; gaps at or above the threshold
 * @TSCPROBE_CPU_A_EVENTS_DROPPED: u64; of those, not kept (ring full)
 * @TSCPROBE_CPU_A_EVENT: nest, enum tscprobe_event_attr; repeated
 * @TSCPROBE_CPU_A_SMI_COUNT: u64; SMIs during the run, from SMI_SOURCE
 *	(absent: unknown, see TSCPROBE_FEAT_SMI_COUNT and _SMI_PMU; always so
 *	under a hypervisor)
 * @TSCPROBE_CPU_A_NMI_COUNT: u64; NMIs during the run, performance-
 *	monitoring interrupts (PMIs: the perf hard-lockup watchdog, sampling)
 *	among them: x86 delivers those as NMIs
 * @TSCPROBE_CPU_A_IRQ_COUNT: u64; interrupts (device, timer, IPIs) taken;
 *	never a PMI, counted once, as an NMI (older modules counted PMIs in
 *	both)
 * @TSCPROBE_CPU_A_APERF: u64; APERF delta over the windows (absent:
 *	unreadable)
 * @TSCPROBE_CPU_A_MPERF: u64; MPERF delta over the windows; effective
 *	clock = tsc_khz * APERF / MPERF
 * @TSCPROBE_CPU_A_SERIES: nest, enum tscprobe_series_attr; repeated
 * @TSCPROBE_CPU_A_ROUNDS: u64; cache: rounds completed
 * @TSCPROBE_CPU_A_LEVEL: nest, enum tscprobe_level_attr; repeated (cache
 *	--levels): load-to-use latency by pointer chasing, one per working
 *	set measured, ascending powers of two from 4 KiB to 256 MiB or to
 *	what the CPU's node had free
 * @TSCPROBE_CPU_A_NODE_LAT: nest, enum tscprobe_level_attr; repeated: the
 *	uncached load to each NUMA node's memory (cache --nodes); its cycles
 *	are gross like the UNCACHED series' (subtract the overhead's mean)
 * @TSCPROBE_CPU_A_MEASURED_NS: u64 ns; measured time so far (progress)
 * @TSCPROBE_CPU_A_CTX_VOLUNTARY: u64; voluntary context switches of the
 *	CPU's measurement thread during the run (its sleeps between windows)
 * @TSCPROBE_CPU_A_CTX_INVOLUNTARY: u64; involuntary ones (preemptions)
 * @TSCPROBE_CPU_A_MIGRATIONS: u64; migrations of the thread (0 when bound)
 * @TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED: u64; noise: events of EVENTS_TOTAL
 *	that no EVENT notification carried: beyond the per-window cap
 *	(TSCPROBE_EVENTS_PER_NOTIFICATION), not kept by the event set, found
 *	while nobody listened, or whose notification failed: no memory, or
 *	a listener's receive queue full -- the kernel tells the module of
 *	that only for listeners that set NETLINK_BROADCAST_ERROR on their
 *	socket (others see ENOBUFS on their next read).  So for a single
 *	listener with NETLINK_BROADCAST_ERROR, events received + this ==
 *	EVENTS_TOTAL exactly; with several, one's full queue counts here
 *	for all.  0 <= it <= EVENTS_TOTAL.
 * @TSCPROBE_CPU_A_CAUSE: nest, enum tscprobe_cause_attr; noise: one per
 *	cause SMI..UNEXPLAINED: how many of EVENTS_TOTAL and how much of
 *	their time each cause explains (the EVENTS of the nests sent add up
 *	to EVENTS_TOTAL).  All five, but SMI where the CPU's SMI count could
 *	not be read: absent, never 0 events.
 * @TSCPROBE_CPU_A_TSC_OFFSET: s64 cycles; this CPU's TSC minus the TSC of
 *	the lowest-numbered CPU of skew run TSCPROBE_A_TSC_OFFSETS_RUN_ID
 *	(the mean skew of that pair over the samples that were not
 *	outliers); absent when that run did not measure the pair or its
 *	estimate was not sound (see TSCPROBE_PAIR_A_DISCARDED).  Subtract it
 *	from this CPU's event TSCs to put them on the reference CPU's time
 *	line.  Meaningless when TSC_SYNC is UNSTABLE (the TSCs drift apart
 *	after the measurement).
 * @TSCPROBE_CPU_A_TSC_STEPS_BACK: u64; noise: times the TSC went
 *	backwards between two reads of a window (firmware writing
 *	IA32_TSC_ADJUST, a VM restored on another host).  Each ended its
 *	window early and is in no gap, no histogram, no event and no
 *	measured time.  Always sent for noise.
 * @TSCPROBE_CPU_A_TSC_STEP_BACK_MAX_CYCLES: u64 cycles; noise: the largest
 *	of those steps (0: none)
 * @TSCPROBE_CPU_A_CLOCK_BEFORE_KHZ: u32 kHz; cache and skew: the CPU's
 *	effective clock (the TSC rate times APERF/MPERF) over
 *	TSCPROBE_CLOCK_READ_NS of spinning with interrupts off on the CPU,
 *	just before its measurement, once it has settled after the CPU left
 *	idle (5 to 20 ms of such readings); absent where APERF/MPERF cannot
 *	be read (no such MSRs, as in most virtual machines)
 * @TSCPROBE_CPU_A_CLOCK_AFTER_KHZ: u32 kHz; the same just after it, when
 *	the thread ended on its CPU
 * @TSCPROBE_CPU_A_SOURCE_KIND: nest, enum tscprobe_source_attr; noise: one
 *	per kind THREAD..NMI whose tracepoints the module could probe on
 *	this kernel: COUNT, the sum of its sources' counts (SOURCE_A_COUNT),
 *	and the net CYCLES of its spans inside the CPU's windows, exact (an
 *	absent kind is unknown, never 0)
 * @TSCPROBE_CPU_A_SOURCE: nest, enum tscprobe_source_attr; noise,
 *	repeated: the sources inside the windows by KIND, ID and NAME with
 *	their COUNT and net CYCLES, largest first, at most
 *	TSCPROBE_MAX_SOURCES, then one OTHER with the rest; from the spans
 *	the probes' rings kept (see SOURCES_LOST)
 * @TSCPROBE_CPU_A_SOURCES_LOST: u64; noise: NMI handler spans the
 *	probes' ring dropped before the measuring thread read them (every
 *	other span of a window is kept, however many), and those an NMI storm
 *	kept it from reading with the kinds' counters at a window's edge;
 *	their NMIs are in SOURCE_KIND or in neither, never in SOURCE alone.
 *	SOURCE adds up to SOURCE_KIND where 0
 * @TSCPROBE_CPU_A_SMI_SOURCE: u32; enum tscprobe_smi_source; noise: where
 *	SMI_COUNT and the events' SMI came from; NONE exactly when SMI_COUNT
 *	is absent.  Modules before it sent SMI_COUNT from MSR_SMI_COUNT only.
 */
enum tscprobe_cpu_attr {
	TSCPROBE_CPU_A_UNSPEC,
	TSCPROBE_CPU_A_PAD,
	TSCPROBE_CPU_A_ID,
	TSCPROBE_CPU_A_FLAGS,
	TSCPROBE_CPU_A_NODE,
	TSCPROBE_CPU_A_WINDOWS,
	TSCPROBE_CPU_A_MEASURED_CYCLES,
	TSCPROBE_CPU_A_WALL_CYCLES,
	TSCPROBE_CPU_A_EVENTS_TOTAL,
	TSCPROBE_CPU_A_EVENTS_DROPPED,
	TSCPROBE_CPU_A_EVENT,
	TSCPROBE_CPU_A_SMI_COUNT,
	TSCPROBE_CPU_A_NMI_COUNT,
	TSCPROBE_CPU_A_IRQ_COUNT,
	TSCPROBE_CPU_A_APERF,
	TSCPROBE_CPU_A_MPERF,
	TSCPROBE_CPU_A_SERIES,
	TSCPROBE_CPU_A_ROUNDS,
	TSCPROBE_CPU_A_LEVEL,
	TSCPROBE_CPU_A_NODE_LAT,
	TSCPROBE_CPU_A_MEASURED_NS,
	TSCPROBE_CPU_A_CTX_VOLUNTARY,
	TSCPROBE_CPU_A_CTX_INVOLUNTARY,
	TSCPROBE_CPU_A_MIGRATIONS,
	TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED,
	TSCPROBE_CPU_A_CAUSE,
	TSCPROBE_CPU_A_TSC_OFFSET,
	TSCPROBE_CPU_A_TSC_STEPS_BACK,
	TSCPROBE_CPU_A_TSC_STEP_BACK_MAX_CYCLES,
	TSCPROBE_CPU_A_CLOCK_BEFORE_KHZ,
	TSCPROBE_CPU_A_CLOCK_AFTER_KHZ,
	TSCPROBE_CPU_A_SOURCE_KIND,
	TSCPROBE_CPU_A_SOURCE,
	TSCPROBE_CPU_A_SOURCES_LOST,
	TSCPROBE_CPU_A_SMI_SOURCE,

	__TSCPROBE_CPU_A_MAX
};
#define TSCPROBE_CPU_A_MAX (__TSCPROBE_CPU_A_MAX - 1)

/**
 * enum tscprobe_series_attr - statistics of one series (TSCPROBE_CPU_A_SERIES)
 * @TSCPROBE_SERIES_A_PAD: padding
 * @TSCPROBE_SERIES_A_ID: u32; enum tscprobe_series
 * @TSCPROBE_SERIES_A_COUNT: u64; values recorded
 * @TSCPROBE_SERIES_A_MINIMUM: u64 cycles; the smallest value
 * @TSCPROBE_SERIES_A_MAXIMUM: u64 cycles; the largest value
 * @TSCPROBE_SERIES_A_SUM: u64 cycles; sum of the values
 * @TSCPROBE_SERIES_A_SUMSQ_HI: u64; high 64 bits of the sum of squares
 * @TSCPROBE_SERIES_A_SUMSQ_LO: u64; low 64 bits of the sum of squares
 * @TSCPROBE_SERIES_A_BUCKET: nest, enum tscprobe_bucket_attr; repeated,
 *	non-empty buckets only, ascending.  A series continued in a later
 *	message repeats only ID and carries further buckets.
 * @TSCPROBE_SERIES_A_WINDOW: nest, enum tscprobe_window_attr; repeated
 */
enum tscprobe_series_attr {
	TSCPROBE_SERIES_A_UNSPEC,
	TSCPROBE_SERIES_A_PAD,
	TSCPROBE_SERIES_A_ID,
	TSCPROBE_SERIES_A_COUNT,
	TSCPROBE_SERIES_A_MINIMUM,
	TSCPROBE_SERIES_A_MAXIMUM,
	TSCPROBE_SERIES_A_SUM,
	TSCPROBE_SERIES_A_SUMSQ_HI,
	TSCPROBE_SERIES_A_SUMSQ_LO,
	TSCPROBE_SERIES_A_BUCKET,
	TSCPROBE_SERIES_A_WINDOW,

	__TSCPROBE_SERIES_A_MAX
};
#define TSCPROBE_SERIES_A_MAX (__TSCPROBE_SERIES_A_MAX - 1)

/**
 * enum tscprobe_bucket_attr - one histogram bucket (TSCPROBE_SERIES_A_BUCKET)
 * @TSCPROBE_BUCKET_A_PAD: padding
 * @TSCPROBE_BUCKET_A_INDEX: u32; bucket index, see TSCPROBE_HIST_BUCKETS
 * @TSCPROBE_BUCKET_A_CALLS: u64; values that fell in the bucket
 * @TSCPROBE_BUCKET_A_CYCLES: u64 cycles; their sum
 */
enum tscprobe_bucket_attr {
	TSCPROBE_BUCKET_A_UNSPEC,
	TSCPROBE_BUCKET_A_PAD,
	TSCPROBE_BUCKET_A_INDEX,
	TSCPROBE_BUCKET_A_CALLS,
	TSCPROBE_BUCKET_A_CYCLES,

	__TSCPROBE_BUCKET_A_MAX
};
#define TSCPROBE_BUCKET_A_MAX (__TSCPROBE_BUCKET_A_MAX - 1)

/**
 * enum tscprobe_window_attr - a block average (TSCPROBE_SERIES_A_WINDOW)
 * @TSCPROBE_WINDOW_A_PAD: padding
 * @TSCPROBE_WINDOW_A_ROUNDS: u64; block length: 1000, 100000 or 1000000
 * @TSCPROBE_WINDOW_A_SUM: u64 cycles; sum over the most recent complete
 *	block of that many rounds (mean = SUM / ROUNDS)
 * @TSCPROBE_WINDOW_A_BLOCKS: u64; complete blocks seen so far
 */
enum tscprobe_window_attr {
	TSCPROBE_WINDOW_A_UNSPEC,
	TSCPROBE_WINDOW_A_PAD,
	TSCPROBE_WINDOW_A_ROUNDS,
	TSCPROBE_WINDOW_A_SUM,
	TSCPROBE_WINDOW_A_BLOCKS,

	__TSCPROBE_WINDOW_A_MAX
};
#define TSCPROBE_WINDOW_A_MAX (__TSCPROBE_WINDOW_A_MAX - 1)

/**
 * enum tscprobe_event_attr - one noise event (TSCPROBE_CPU_A_EVENT,
 *	TSCPROBE_A_STOP_EVENT); the same shape in GET_RESULT and in the EVENT
 *	and RUN_FINISHED notifications
 * @TSCPROBE_EVENT_A_PAD: padding
 * @TSCPROBE_EVENT_A_TSC: u64 cycles; TSC at the end of the gap
 * @TSCPROBE_EVENT_A_CYCLES: u64 cycles; length of the gap
 * @TSCPROBE_EVENT_A_CAUSE: u32; enum tscprobe_cause (always sent)
 * @TSCPROBE_EVENT_A_SMI: u32; SMIs (from the CPU's SMI_SOURCE) since the
 *	previous reading, see enum tscprobe_cause; absent where the count is
 *	unknown (SMI_SOURCE NONE) and under a hypervisor
 * @TSCPROBE_EVENT_A_NMI: u32; NMIs taken by the CPU since then
 * @TSCPROBE_EVENT_A_IRQ: u32; interrupts taken since then (device IRQs
 *	and the x86 system vectors, as CPU_A_IRQ_COUNT: with IRQS off, 0)
 * @TSCPROBE_EVENT_A_STEAL_NS: u64 ns; steal time the kernel accounted to
 *	the CPU since then.  Present only where it can move across a gap:
 *	the kernel runs as a guest (FEAT_HYPERVISOR) and interrupts are on
 *	(IRQS on), since the kernel accounts steal at the tick; absent with
 *	IRQS off and on bare metal.
 * @TSCPROBE_EVENT_A_SOURCE: nest, enum tscprobe_source_attr; GET_RESULT
 *	only, repeated: what ran inside the gap, by KIND, ID and NAME with
 *	its COUNT and net CYCLES, largest first, at most
 *	TSCPROBE_EVENT_SOURCES, then one OTHER with the rest.  Only sources
 *	that began and ended inside the gap count, so their CYCLES never add
 *	up to more than the gap's.
 * @TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES: u64 cycles; GET_RESULT only: the
 *	gap's cycles no SOURCE accounts for (with IRQS off: SMI, hypervisor
 *	or hardware).  Absent where the module's source probes are not
 *	attached (see TSCPROBE_CPU_A_SOURCE_KIND).
 *
 * The slow path that reads the counters runs after the gap; the loop reads
 * the TSC again after it, so its own time (an MSR read: a few hundred
 * cycles, in a VM a trap) is in no gap and not in the measured time.
 */
enum tscprobe_event_attr {
	TSCPROBE_EVENT_A_UNSPEC,
	TSCPROBE_EVENT_A_PAD,
	TSCPROBE_EVENT_A_TSC,
	TSCPROBE_EVENT_A_CYCLES,
	TSCPROBE_EVENT_A_CAUSE,
	TSCPROBE_EVENT_A_SMI,
	TSCPROBE_EVENT_A_NMI,
	TSCPROBE_EVENT_A_IRQ,
	TSCPROBE_EVENT_A_STEAL_NS,
	TSCPROBE_EVENT_A_SOURCE,
	TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES,

	__TSCPROBE_EVENT_A_MAX
};
#define TSCPROBE_EVENT_A_MAX (__TSCPROBE_EVENT_A_MAX - 1)

/**
 * enum tscprobe_level_attr - one point of a latency curve
 *	(TSCPROBE_CPU_A_LEVEL, TSCPROBE_CPU_A_NODE_LAT)
 * @TSCPROBE_LEVEL_A_PAD: padding
 * @TSCPROBE_LEVEL_A_SIZE: u64 bytes; working set (LEVEL)
 * @TSCPROBE_LEVEL_A_NODE: u32; the memory's NUMA node (NODE_LAT)
 * @TSCPROBE_LEVEL_A_LOADS: u64; dependent loads timed (LEVEL: 2^20 less
 *	any block of 1024 that took over 8x the fastest block, disturbed by
 *	an interrupt, an SMI or a preemption)
 * @TSCPROBE_LEVEL_A_CYCLES: u64 cycles; their total (mean = CYCLES/LOADS)
 */
enum tscprobe_level_attr {
	TSCPROBE_LEVEL_A_UNSPEC,
	TSCPROBE_LEVEL_A_PAD,
	TSCPROBE_LEVEL_A_SIZE,
	TSCPROBE_LEVEL_A_NODE,
	TSCPROBE_LEVEL_A_LOADS,
	TSCPROBE_LEVEL_A_CYCLES,

	__TSCPROBE_LEVEL_A_MAX
};
#define TSCPROBE_LEVEL_A_MAX (__TSCPROBE_LEVEL_A_MAX - 1)

/**
 * enum tscprobe_pair_attr - one ordered skew pair (TSCPROBE_A_PAIR)
 * @TSCPROBE_PAIR_A_PAD: padding
 * @TSCPROBE_PAIR_A_FROM: u32; CPU i (the side that starts)
 * @TSCPROBE_PAIR_A_TO: u32; CPU j
 * @TSCPROBE_PAIR_A_STATUS: u32; enum tscprobe_pair_status
 * @TSCPROBE_PAIR_A_RELATION: u32; enum tscprobe_relation
 * @TSCPROBE_PAIR_A_NR: u32; samples used
 * @TSCPROBE_PAIR_A_DISCARDED: u32; samples dropped as outliers: their
 *	round trip (read on CPU i alone) exceeded 4 times the repeat's
 *	shortest plus 4000 cycles, or twice its median (an SMI, an NMI, the
 *	host descheduling a vCPU).  NR + DISCARDED = SAMPLES * REPEATS.  The
 *	pair's estimate is sound when DISCARDED <= NR; one that is not is
 *	judged neither in sync nor out, and gives no TSC_OFFSET.
 * @TSCPROBE_PAIR_A_LATIJ: nest, enum tscprobe_stat_attr; cycles, i to j
 * @TSCPROBE_PAIR_A_LATJI: nest; cycles, j to i
 * @TSCPROBE_PAIR_A_SKEW: nest; cycles, (latij - latji) / 2
 * @TSCPROBE_PAIR_A_ONE_WAY: nest; cycles, (latij + latji) / 2
 * @TSCPROBE_PAIR_A_ELAPSED_CYCLES: u64 cycles; what the pair cost
 */
enum tscprobe_pair_attr {
	TSCPROBE_PAIR_A_UNSPEC,
	TSCPROBE_PAIR_A_PAD,
	TSCPROBE_PAIR_A_FROM,
	TSCPROBE_PAIR_A_TO,
	TSCPROBE_PAIR_A_STATUS,
	TSCPROBE_PAIR_A_RELATION,
	TSCPROBE_PAIR_A_NR,
	TSCPROBE_PAIR_A_LATIJ,
	TSCPROBE_PAIR_A_LATJI,
	TSCPROBE_PAIR_A_SKEW,
	TSCPROBE_PAIR_A_ONE_WAY,
	TSCPROBE_PAIR_A_ELAPSED_CYCLES,
	TSCPROBE_PAIR_A_DISCARDED,

	__TSCPROBE_PAIR_A_MAX
};
#define TSCPROBE_PAIR_A_MAX (__TSCPROBE_PAIR_A_MAX - 1)

/**
 * enum tscprobe_stat_attr - signed statistics of one skew quantity
 * @TSCPROBE_STAT_A_PAD: padding
 * @TSCPROBE_STAT_A_MINIMUM: s64 cycles
 * @TSCPROBE_STAT_A_MAXIMUM: s64 cycles
 * @TSCPROBE_STAT_A_SUM: s64 cycles; mean = SUM / NR (in half cycles for
 *	SKEW and ONE_WAY: they are sent doubled, see below)
 * @TSCPROBE_STAT_A_SUMSQ_HI: u64; high 64 bits of the sum of squares
 * @TSCPROBE_STAT_A_SUMSQ_LO: u64; low 64 bits of the sum of squares
 *
 * SKEW and ONE_WAY are halves of integers; to stay exact they are sent as
 * their doubled values (latij - latji and latij + latji): divide MIN, MAX
 * and SUM by 2 and the sum of squares by 4.
 *
 * The sum of squares takes 128 bits, as in a series: 4096 samples times
 * 1000 repeats of a doubled skew of 2^21 cycles (under a millisecond of
 * TSC offset) already pass 2^64.  SUM is exact while every |value| stays
 * below 2^41 cycles (about ten minutes of TSC offset at 3.5 GHz).
 */
enum tscprobe_stat_attr {
	TSCPROBE_STAT_A_UNSPEC,
	TSCPROBE_STAT_A_PAD,
	TSCPROBE_STAT_A_MINIMUM,
	TSCPROBE_STAT_A_MAXIMUM,
	TSCPROBE_STAT_A_SUM,
	TSCPROBE_STAT_A_SUMSQ_HI,
	TSCPROBE_STAT_A_SUMSQ_LO,

	__TSCPROBE_STAT_A_MAX
};
#define TSCPROBE_STAT_A_MAX (__TSCPROBE_STAT_A_MAX - 1)

/**
 * enum tscprobe_source - what ran on a CPU a noise run measures, inside
 *	its windows
 * @TSCPROBE_SOURCE_THREAD: another thread (ID: its pid, NAME: its comm)
 * @TSCPROBE_SOURCE_SOFTIRQ: a softirq (ID: its vector, NAME: TIMER, ...)
 * @TSCPROBE_SOURCE_IRQ: a hard IRQ's handler (ID: the IRQ number, NAME:
 *	the action's name), or an x86 system vector, which runs none
 *	(TSCPROBE_SOURCE_A_VECTOR; ID: the vector, NAME: local_timer,
 *	reschedule, ...); a handler that ran in the interrupt's thread is
 *	the interrupt's too (TSCPROBE_SOURCE_A_THREAD_PID), not a THREAD
 * @TSCPROBE_SOURCE_NMI: an NMI handler (NAME: its function)
 * @TSCPROBE_SOURCE_OTHER: the sources beyond the TSCPROBE_MAX_SOURCES
 *	largest (an event's: TSCPROBE_EVENT_SOURCES), summed (ID 0, NAME
 *	"other")
 */
enum tscprobe_source {
	TSCPROBE_SOURCE_THREAD,
	TSCPROBE_SOURCE_SOFTIRQ,
	TSCPROBE_SOURCE_IRQ,
	TSCPROBE_SOURCE_NMI,
	TSCPROBE_SOURCE_OTHER,

	__TSCPROBE_SOURCE_MAX
};
#define TSCPROBE_SOURCE_MAX (__TSCPROBE_SOURCE_MAX - 1)

/**
 * enum tscprobe_smi_source - where a noise CPU's SMI count comes from
 * @TSCPROBE_SMI_SOURCE_NONE: nowhere: the count is unknown (absent), never
 *	0: no counter (older Intel), no perf counter free or none accepted
 *	(AMD), a read that failed during the run, or a hypervisor, whose
 *	count is not the host's
 * @TSCPROBE_SMI_SOURCE_MSR: MSR_SMI_COUNT (Intel)
 * @TSCPROBE_SMI_SOURCE_PERF: a pinned kernel perf counter of the core
 *	PMU's SMIs received (event 0x2B, LS_SMI_RX; AMD Zen and later), held
 *	on the CPU for its measurement and read inside the windows
 */
enum tscprobe_smi_source {
	TSCPROBE_SMI_SOURCE_NONE,
	TSCPROBE_SMI_SOURCE_MSR,
	TSCPROBE_SMI_SOURCE_PERF,

	__TSCPROBE_SMI_SOURCE_MAX
};
#define TSCPROBE_SMI_SOURCE_MAX (__TSCPROBE_SMI_SOURCE_MAX - 1)

/**
 * enum tscprobe_source_attr - one source, or one kind of source
 *	(TSCPROBE_CPU_A_SOURCE, TSCPROBE_CPU_A_SOURCE_KIND,
 *	TSCPROBE_EVENT_A_SOURCE)
 * @TSCPROBE_SOURCE_A_PAD: padding
 * @TSCPROBE_SOURCE_A_KIND: u32; enum tscprobe_source
 * @TSCPROBE_SOURCE_A_ID: u32; the IRQ number, softirq vector or pid (not
 *	in SOURCE_KIND)
 * @TSCPROBE_SOURCE_A_NAME: string, at most TSCPROBE_SOURCE_NAME_LEN bytes
 *	with its NUL (not in SOURCE_KIND)
 * @TSCPROBE_SOURCE_A_COUNT: u64; the times it ran to its end inside the
 *	windows: a handler or system vector per call, a softirq per run, a
 *	thread per stretch on the CPU, an interrupt thread per wake-up (a
 *	stretch a preemption or an RT lock ended counts 0), an NMI once, in
 *	the first handler that claimed it, else the first called (the others
 *	called count 0); 0 with cycles where its only stretches went on from
 *	before (Documentation/tscprobe.rst, "Sources")
 * @TSCPROBE_SOURCE_A_CYCLES: u64 cycles; its net time: what ran nested in
 *	it (an IRQ inside a softirq inside a thread) is subtracted, so the
 *	sources of a stretch of time never add up to more than it
 * @TSCPROBE_SOURCE_A_VECTOR: flag; KIND IRQ only: ID is an x86 system
 *	vector (236 is the tick's, LOCAL_TIMER_VECTOR), not an IRQ number.
 *	A server's device interrupts (MSI-X queues) are numbered past 236
 *	too: IRQ 236 and vector 236 are two sources, told apart by this.
 *	Modules before it sent a vector as an IRQ of its number.
 * @TSCPROBE_SOURCE_A_THREAD_PID: u32; KIND IRQ only: the interrupt's
 *	handler ran in this thread (every device interrupt's on PREEMPT_RT,
 *	where the hard handler only wakes it; a threaded handler elsewhere),
 *	whose time is the source's; the hard handler of the same IRQ is
 *	another source, without it.  Absent: a hard handler, a vector, or
 *	a thread WITHHELD from the reader.
 * @TSCPROBE_SOURCE_A_THREAD_NAME: string, at most TSCPROBE_SOURCE_NAME_LEN
 *	bytes with its NUL; with THREAD_PID: the thread's comm (irq/45-...)
 * @TSCPROBE_SOURCE_A_WITHHELD: flag; the reader may not see other tasks:
 *	sent in GET_RESULT to a requester without CAP_NET_ADMIN and in the
 *	EVENTs of the "events" group.  In a SOURCE (of a CPU or an event) of
 *	KIND THREAD: this one entry sums every thread the list would name
 *	(no ID, no NAME), in its place by CYCLES; the totals are those a
 *	privileged reader adds up.  Of KIND IRQ: the handler ran in the
 *	interrupt's thread, whose THREAD_PID and THREAD_NAME are not sent.
 *	IRQ, softirq and NMI handler names are named for everyone, as
 *	/proc/interrupts and /proc/softirqs name them.
 */
enum tscprobe_source_attr {
	TSCPROBE_SOURCE_A_UNSPEC,
	TSCPROBE_SOURCE_A_PAD,
	TSCPROBE_SOURCE_A_KIND,
	TSCPROBE_SOURCE_A_ID,
	TSCPROBE_SOURCE_A_NAME,
	TSCPROBE_SOURCE_A_COUNT,
	TSCPROBE_SOURCE_A_CYCLES,
	TSCPROBE_SOURCE_A_VECTOR,
	TSCPROBE_SOURCE_A_THREAD_PID,
	TSCPROBE_SOURCE_A_THREAD_NAME,
	TSCPROBE_SOURCE_A_WITHHELD,

	__TSCPROBE_SOURCE_A_MAX
};
#define TSCPROBE_SOURCE_A_MAX (__TSCPROBE_SOURCE_A_MAX - 1)

/**
 * enum tscprobe_cause_attr - noise time explained by one cause
 *	(TSCPROBE_CPU_A_CAUSE)
 * @TSCPROBE_CAUSE_A_PAD: padding
 * @TSCPROBE_CAUSE_A_ID: u32; enum tscprobe_cause
 * @TSCPROBE_CAUSE_A_EVENTS: u64; events attributed to it (all of them,
 *	also those the event set did not keep)
 * @TSCPROBE_CAUSE_A_CYCLES: u64 cycles; the sum of their gaps
 */
enum tscprobe_cause_attr {
	TSCPROBE_CAUSE_A_UNSPEC,
	TSCPROBE_CAUSE_A_PAD,
	TSCPROBE_CAUSE_A_ID,
	TSCPROBE_CAUSE_A_EVENTS,
	TSCPROBE_CAUSE_A_CYCLES,

	__TSCPROBE_CAUSE_A_MAX
};
#define TSCPROBE_CAUSE_A_MAX (__TSCPROBE_CAUSE_A_MAX - 1)

#endif /* _UAPI_LINUX_TSCPROBE_H */
