/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of the idle states a run turned off (idle_record.c), so that
 * they come back whatever ends the run.  /run/tscprobe/idle-held names the
 * holder (its PID and start time) and each state with the value it had;
 * it is written, whole, before the first state is turned off, and removed
 * once every one is back.  /run/tscprobe/idle-held.lock is locked (flock)
 * by the holder and its guardian for as long as they hold the states: a
 * lock that can be taken means the holder is gone, and whoever takes it
 * (the next run, "tscprobe restore") puts back what the record names.
 */
#ifndef TSCPROBE_USER_IDLE_RECORD_H
#define TSCPROBE_USER_IDLE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define TP_IDLE_RECORD		"/run/tscprobe/idle-held"
#define TP_IDLE_LOCK		TP_IDLE_RECORD ".lock"

/* At most this many idle states per CPU are turned off and put back. */
#define TP_IDLE_STATES	16

/**
 * struct tp_idle_state - one idle state a run turned off
 * @cpu: its CPU
 * @state: its index (stateN in sysfs)
 * @old: the value its "disable" file had, put back at the end
 */
struct tp_idle_state {
	unsigned int cpu;
	unsigned int state;
	int old;
};

/**
 * struct tp_idle_record - what a run holds
 * @pid: the holder
 * @start: its start time, in clock ticks after boot (/proc/PID/stat)
 * @n: states in @s
 * @s: the states
 */
struct tp_idle_record {
	pid_t pid;
	unsigned long long start;
	unsigned int n;
	struct tp_idle_state *s;
};

int tp_idle_lock(bool create, struct tp_idle_record *holder);
int tp_idle_record_write(const struct tp_idle_record *r);
void tp_idle_record_free(struct tp_idle_record *r);
unsigned long long tp_idle_start_time(pid_t pid);
int tp_idle_put_back(struct tp_idle_record *left, char *why, size_t len);
int tp_idle_left_back(bool asked);
int tp_idle_recover(bool asked);

#endif /* TSCPROBE_USER_IDLE_RECORD_H */
