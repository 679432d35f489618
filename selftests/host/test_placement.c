// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of how the CLI keeps out of its own measurement: its own
 * threads (main, progress, the skew pairs) run off the measured CPUs when
 * another CPU is online, and the report says where they ran; and the
 * userspace engines' measuring threads end their measurement together, so
 * that none exits (unmapping its stack: TLB-shootdown IPIs) or frees while
 * another still measures.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_path.h"
#include "kselftest_harness.h"
#include "slurp.h"

#include "user/lib/cli.h"
#include "user/engines.h"
#include "user/lib/pinned.h"
#include "user/lib/result.h"

extern char **environ;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/* The online CPUs this process may run on. */
static void usable_cpus(struct tp_cpuset *set)
{
	struct tp_cpuset online;
	cpu_set_t mask;
	unsigned int cpu;

	memset(set, 0, sizeof(*set));
	if (tp_online_cpus(&online) || sched_getaffinity(0, sizeof(mask), &mask))
		return;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mask) && tp_cpuset_has(&online, cpu))
			tp_cpuset_add(set, cpu);
}

/* ---- the end barrier --------------------------------------------------- */

struct tb_thread {
	struct tp_pinned pin;
	unsigned int ms;
	uint64_t measured_end;
	uint64_t left;
};

static void *tb_body(void *arg)
{
	struct tb_thread *t = arg;

	tp_pinned_go(&t->pin);
	sleep_ms(t->ms);		/* "measuring", for as long as it takes */
	t->measured_end = now_ns();
	tp_pinned_end(&t->pin);
	t->left = now_ns();
	return NULL;
}

/*
 * Threads that finish measuring at different times: none leaves
 * tp_pinned_end() before the last one has finished.
 */
TEST(end_barrier_holds_back_early_finishers)
{
	struct tb_thread t[3] = { { .ms = 300 }, { .ms = 10 }, { .ms = 50 } };
	struct tp_pinned_run run;
	struct tp_cpuset cpus;
	struct tp_result res;
	uint64_t last_end = 0, first_left = 0;
	unsigned int i;
	int cpu;

	usable_cpus(&cpus);
	cpu = tp_cpuset_next(&cpus, -1);
	ASSERT_GE(cpu, 0);
	tp_result_init(&res, TSCPROBE_KIND_NOISE);
	memset(&res.cpus, 0, sizeof(res.cpus));
	tp_cpuset_add(&res.cpus, (unsigned int)cpu);
	res.tsc_khz = 1000000;
	for (i = 0; i < 3; i++)
		t[i].pin.cpu = (unsigned int)cpu;
	run = (struct tp_pinned_run){
		.threads = t, .stride = sizeof(t[0]), .n = 3, .body = tb_body,
		.res = &res,
	};
	tp_pinned_run(&run);
	for (i = 0; i < 3; i++) {
		last_end = t[i].measured_end > last_end ? t[i].measured_end :
			   last_end;
		first_left = !i || t[i].left < first_left ? t[i].left :
			     first_left;
	}
	EXPECT_GE(first_left, last_end)
		TH_LOG("a thread left %.1f ms before the last finished measuring",
		       (last_end - first_left) / 1e6);
	tp_result_free(&res);
}

/* What the engines' threads do at tp_pinned_end(), seen by the hook. */
static struct {
	pthread_mutex_t lock;
	unsigned int slow_cpu;
	unsigned int ends, lefts;
	uint64_t last_end, first_left;
} hk = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The thread on @hk.slow_cpu measures 300 ms longer than the others. */
static void end_hook(struct tp_pinned *t, bool left)
{
	uint64_t now;

	if (!left && t->cpu == hk.slow_cpu)
		sleep_ms(300);
	now = now_ns();
	pthread_mutex_lock(&hk.lock);
	if (!left) {
		hk.ends++;
		hk.last_end = now > hk.last_end ? now : hk.last_end;
	} else {
		hk.lefts++;
		if (!hk.first_left || now < hk.first_left)
			hk.first_left = now;
	}
	pthread_mutex_unlock(&hk.lock);
}

static void hook_reset(unsigned int slow_cpu)
{
	hk.slow_cpu = slow_cpu;
	hk.ends = hk.lefts = 0;
	hk.last_end = hk.first_left = 0;
	tp_pinned_end_hook = end_hook;
}

static void check_hook(struct __test_metadata *_metadata, const char *engine)
{
	EXPECT_EQ(2, hk.ends) TH_LOG("%s: threads that ended", engine);
	EXPECT_EQ(2, hk.lefts) TH_LOG("%s: threads that left", engine);
	EXPECT_GE(hk.first_left, hk.last_end)
		TH_LOG("%s: a thread left %.1f ms before the last finished measuring",
		       engine, (hk.last_end - hk.first_left) / 1e6);
}

/*
 * Every userspace engine on two CPUs, the second thread measuring longer:
 * the first may not leave before it is done.
 */
TEST(engines_end_their_measurement_together)
{
	struct tp_run_params p;
	struct tp_cpuset cpus, two = { 0 };
	struct tp_result res;
	int a, b;

	usable_cpus(&cpus);
	a = tp_cpuset_next(&cpus, -1);
	b = tp_cpuset_next(&cpus, a);
	if (a < 0 || b < 0)
		SKIP(return, "needs two CPUs");
	tp_cpuset_add(&two, (unsigned int)a);
	tp_cpuset_add(&two, (unsigned int)b);

	memset(&p, 0, sizeof(p));
	p.duration_ns = 100000000;
	p.width_ns = 20000000;
	p.gap_ns = 100000;
	p.threshold_ns = 10000;
	hook_reset((unsigned int)b);
	tp_result_init(&res, TSCPROBE_KIND_NOISE);
	EXPECT_EQ(TP_EXIT_OK, tp_user_noise(&two, &p, true, &res));
	check_hook(_metadata, "noise");
	tp_result_free(&res);

	memset(&p, 0, sizeof(p));
	p.rounds = 20000;
	p.batch = 1000;
	p.width_ns = 20000000;
	hook_reset((unsigned int)b);
	tp_result_init(&res, TSCPROBE_KIND_CACHE);
	EXPECT_EQ(TP_EXIT_OK, tp_user_cache(&two, &p, true, &res));
	check_hook(_metadata, "cache");
	tp_result_free(&res);

	memset(&p, 0, sizeof(p));
	p.samples = 16;
	p.repeats = 1;
	hook_reset((unsigned int)b);
	tp_result_init(&res, TSCPROBE_KIND_SKEW);
	EXPECT_EQ(TP_EXIT_OK, tp_user_skew(&two, &p, true, &res));
	check_hook(_metadata, "skew");
	tp_result_free(&res);
	tp_pinned_end_hook = NULL;
}

/* ---- the CLI's own threads ---------------------------------------------- */

/* Start the CLI with @args (NULL-terminated), its output into @out. */
static pid_t spawn_cli(const char *cli, char *const *args, const char *out)
{
	posix_spawn_file_actions_t fa;
	char *argv[16] = { (char *)"tscprobe" };
	unsigned int i;
	pid_t pid;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC,
					 0600);
	if (posix_spawn(&pid, cli, &fa, NULL, argv, environ))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

/* A task's Cpus_allowed_list; false when it is gone. */
static bool task_allowed(pid_t pid, const char *tid, struct tp_cpuset *set)
{
	char path[320], line[256];
	const char *why;
	bool ok = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/status", (int)pid, tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			line[strcspn(line, "\n")] = '\0';
			ok = !tp_parse_cpus(line + 18 + strspn(line + 18, " \t"),
					    set, &why);
			break;
		}
	fclose(f);
	return ok;
}

/**
 * struct watch - what the CLI's tasks were allowed on while it measured
 * @samples: looks at the task list with the measuring thread in it
 * @measuring: tasks seen allowed on the measured CPU alone
 * @bad: tasks seen allowed on the measured CPU and others (the CLI's own
 *	threads must not be)
 * @main_apart: the main thread was seen off the measured CPU
 */
struct watch {
	unsigned int samples, measuring, bad;
	bool main_apart;
};

/* Look at every task of @pid until it ends; then its exit status. */
static int watch_tasks(pid_t pid, unsigned int measured, struct watch *w)
{
	char dirpath[64], tid_main[16];
	struct tp_cpuset set;
	struct dirent *d;
	int status;
	DIR *dir;

	memset(w, 0, sizeof(*w));
	snprintf(dirpath, sizeof(dirpath), "/proc/%d/task", (int)pid);
	snprintf(tid_main, sizeof(tid_main), "%d", (int)pid);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		unsigned int tasks = 0, only = 0, bad = 0;
		bool main_apart = false;

		dir = opendir(dirpath);
		while (dir && (d = readdir(dir))) {
			if (d->d_name[0] == '.' || !task_allowed(pid, d->d_name, &set))
				continue;
			tasks++;
			if (!tp_cpuset_has(&set, measured)) {
				main_apart |= !strcmp(d->d_name, tid_main);
				continue;
			}
			if (tp_cpuset_count(&set) == 1)
				only++;
			else
				bad++;
		}
		if (dir)
			closedir(dir);
		/* Once the measuring thread exists, the CLI must be placed. */
		if (only && tasks > 1) {
			w->samples++;
			w->measuring += only;
			w->bad += bad;
			w->main_apart |= main_apart;
		}
		sleep_ms(20);
	}
	return status;
}

/* jq -e @filter on the file @path: 0 when it holds. */
static int jq_file(const char *filter, const char *path)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "jq -e '%s' '%s' >/dev/null", filter, path);
	return system(cmd);
}

/*
 * With a CPU left over, a userspace run on one CPU: while it measures,
 * only its measuring thread may run there; the CLI's main thread (the
 * progress line's and the run's) runs elsewhere, and the report says
 * where.  (On two CPUs: -c 1 puts the CLI on CPU 0.)
 */
TEST(cli_threads_stay_off_the_measured_cpu)
{
	char cli[4200], out[] = "/tmp/tp-placement.XXXXXX", c[16], filter[256];
	char *args[] = { "noise", "--user", "-c", c, "-d", "1500ms", "-j",
			 NULL };
	struct tp_cpuset cpus, others = { 0 };
	struct watch w;
	int fd, m = -1, cpu = -1;
	char list[256];
	pid_t pid;

	ASSERT_EQ(0, tp_test_cli_path(cli, sizeof(cli))) TH_LOG("no CLI next to the tests");
	usable_cpus(&cpus);
	while ((cpu = tp_cpuset_next(&cpus, cpu)) >= 0)
		m = cpu;
	if (tp_cpuset_count(&cpus) < 2)
		SKIP(return, "needs two CPUs");
	for (cpu = -1; (cpu = tp_cpuset_next(&cpus, cpu)) >= 0;)
		if (cpu != m)
			tp_cpuset_add(&others, (unsigned int)cpu);
	snprintf(c, sizeof(c), "%d", m);
	fd = mkstemp(out);
	ASSERT_GE(fd, 0);
	close(fd);
	pid = spawn_cli(cli, args, out);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(0, watch_tasks(pid, (unsigned int)m, &w));
	TH_LOG("%u looks, %u measuring threads, %u others on CPU %d",
	       w.samples, w.measuring, w.bad, m);
	EXPECT_GT(w.samples, 10);
	EXPECT_EQ(w.samples, w.measuring);
	EXPECT_EQ(0, w.bad);
	EXPECT_TRUE(w.main_apart);
	tp_cpuset_format(&others, list, sizeof(list));
	snprintf(filter, sizeof(filter),
		 ".cli.apart == true and .cli.why == null and"
		 " (.cli.cpus | index(%d)) == null and .cpus[0].cpu == %d", m, m);
	EXPECT_EQ(0, jq_file(filter, out)) TH_LOG("%s", tp_test_slurp(out));
	TH_LOG("the CLI ran on CPUs %s", list);
	unlink(out);
}

/* Every CPU measured: nowhere else to go, and the report says so. */
TEST(cli_says_when_it_shares_the_measured_cpus)
{
	char cli[4200], out[] = "/tmp/tp-placement.XXXXXX", c[256], want[512];
	char *args[] = { "noise", "--user", "-c", c, "-d", "200ms", NULL };
	struct tp_cpuset cpus, online;
	char *text;
	int fd, status;
	pid_t pid;

	ASSERT_EQ(0, tp_test_cli_path(cli, sizeof(cli)));
	usable_cpus(&cpus);
	ASSERT_EQ(0, tp_online_cpus(&online));
	if (tp_cpuset_count(&cpus) != tp_cpuset_count(&online))
		SKIP(return, "this process may not use every online CPU");
	tp_cpuset_format(&cpus, c, sizeof(c));
	fd = mkstemp(out);
	ASSERT_GE(fd, 0);
	close(fd);
	pid = spawn_cli(cli, args, out);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	text = tp_test_slurp(out);
	ASSERT_NE(NULL, text);
	snprintf(want, sizeof(want),
		 "\ncli: ran on CPU%s %s, among the measured CPUs: no other CPU is online\n",
		 tp_cpuset_count(&cpus) == 1 ? "" : "s", c);
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
	free(text);
	unlink(out);
}

TEST_HARNESS_MAIN
