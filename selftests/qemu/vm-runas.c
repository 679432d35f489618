// SPDX-License-Identifier: GPL-2.0
/*
 * vm-runas - run a command as an unprivileged user inside the test VM.
 *
 * Usage: vm-runas UID[:GID] CMD [ARGS...]
 *
 * Drops every privilege of the calling root process: supplementary groups,
 * real/effective/saved GID and UID (GID defaults to UID), ambient
 * capabilities; then checks that the drop stuck (ids, no groups, empty
 * permitted and effective capability sets, setuid(0) refused) before it
 * execs CMD, searched in PATH. Tests use it to prove that the privileged
 * netlink commands refuse an ordinary user.
 *
 * Exit status: 125 for a usage error or a failed drop, 127 if CMD cannot
 * be executed; otherwise CMD's own.
 * No passwd lookup on purpose: a static glibc binary must not need NSS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXIT_SETUP 125
#define EXIT_EXEC 127

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("vm-runas: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_SETUP);
}

static unsigned long parse_id(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	/* (uid_t)-1 means "unchanged" to the set*id calls: refuse it. */
	if (errno || end == s || *end || *s == '-' || v >= 0xffffffffUL)
		die("bad %s '%s'", what, s);
	return v;
}

/* True when the permitted and effective capability sets are empty. */
static int caps_empty(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		die("capget: %s", strerror(errno));
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].permitted || data[i].effective)
			return 0;
	return 1;
}

static void drop_privileges(uid_t uid, gid_t gid)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	/* Ambient capabilities would survive the exec: clear them first. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		die("clear ambient capabilities: %s", strerror(errno));
	if (setgroups(0, NULL))
		die("setgroups(0): %s", strerror(errno));
	/* GID before UID: once the UID is dropped, the GID can no longer change. */
	if (setresgid(gid, gid, gid))
		die("setresgid(%u): %s", (unsigned int)gid, strerror(errno));
	if (setresuid(uid, uid, uid))
		die("setresuid(%u): %s", (unsigned int)uid, strerror(errno));

	if (getresuid(&ru, &eu, &su) || ru != uid || eu != uid || su != uid)
		die("uid did not stick (%u/%u/%u, want %u)", (unsigned int)ru,
		    (unsigned int)eu, (unsigned int)su, (unsigned int)uid);
	if (getresgid(&rg, &eg, &sg) || rg != gid || eg != gid || sg != gid)
		die("gid did not stick (%u/%u/%u, want %u)", (unsigned int)rg,
		    (unsigned int)eg, (unsigned int)sg, (unsigned int)gid);
	if (getgroups(0, NULL) != 0)
		die("supplementary groups remain");
	if (uid != 0) {
		if (!caps_empty())
			die("capabilities remain after dropping to uid %u",
			    (unsigned int)uid);
		if (setuid(0) == 0)
			die("setuid(0) still succeeds after the drop");
	}
}

int main(int argc, char **argv)
{
	char *spec, *colon;
	uid_t uid;
	gid_t gid;

	if (argc < 3) {
		fprintf(stderr, "usage: vm-runas UID[:GID] CMD [ARGS...]\n");
		return EXIT_SETUP;
	}
	spec = argv[1];
	colon = strchr(spec, ':');
	if (colon)
		*colon = '\0';
	uid = (uid_t)parse_id(spec, "uid");
	gid = colon ? (gid_t)parse_id(colon + 1, "gid") : (gid_t)uid;

	drop_privileges(uid, gid);

	execvp(argv[2], argv + 2);
	fprintf(stderr, "vm-runas: exec %s: %s\n", argv[2], strerror(errno));
	return EXIT_EXEC;
}
