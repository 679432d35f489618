// SPDX-License-Identifier: GPL-2.0
/*
 * Ctrl-C during a measurement: it ends the run (in the module or in a
 * userspace engine), and the CLI still prints what was measured.
 */
#include <signal.h>
#include <string.h>

#include "user/lib/sigint.h"

/* Set by SIGINT/SIGTERM; the one piece of global state the CLI needs. */
static volatile sig_atomic_t tp_signalled;

static void tp_on_signal(int sig)
{
	(void)sig;
	tp_signalled = 1;
}

/**
 * tp_catch_interrupt() - make Ctrl-C (and SIGTERM) end the run, not the CLI
 *
 * No SA_RESTART: a blocking poll() returns EINTR, so the wait notices.
 */
void tp_catch_interrupt(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tp_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/**
 * tp_interrupted() - whether Ctrl-C (or SIGTERM) has come
 *
 * Return: true once a signal caught by tp_catch_interrupt() arrived.
 */
bool tp_interrupted(void)
{
	return tp_signalled;
}
