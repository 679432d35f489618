// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/interrupts, per CPU: what interrupted a CPU while userspace
 * measured it (the module counts these itself).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* The header names the columns: "CPU0 CPU1 CPU4 ..." (online CPUs). */
static int tp_irq_columns(char *line, unsigned int *cols, unsigned int max)
{
	unsigned int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		unsigned long cpu;
		char *end;

		if (strncmp(tok, "CPU", 3))
			return -1;
		cpu = strtoul(tok + 3, &end, 10);
		if (*end || cpu >= TP_MAX_CPUS || n == max)
			return -1;
		cols[n++] = (unsigned int)cpu;
	}
	return (int)n;
}

static void tp_irq_row(char *line, const unsigned int *cols, int ncols,
		       struct tp_irq_counts *k)
{
	char *label = line + strspn(line, " ");
	char *colon = strchr(label, ':');
	char *p, *end;
	bool nmi;
	int i;

	if (!colon)
		return;
	*colon = '\0';
	/* ERR and MIS are machine-wide, with one column. */
	if (!strcmp(label, "ERR") || !strcmp(label, "MIS"))
		return;
	nmi = !strcmp(label, "NMI");
	p = colon + 1;
	for (i = 0; i < ncols; i++) {
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p)
			return;
		p = end;
		if (nmi)
			k->nmi[cols[i]] += v;
		else
			k->irq[cols[i]] += v;
	}
}

/**
 * tp_read_proc_interrupts() - sum /proc/interrupts per CPU
 * @path: the file (settable for tests)
 * @k: filled in
 *
 * Return: 0, or -1 when the file cannot be read or has no header.
 */
int tp_read_proc_interrupts(const char *path, struct tp_irq_counts *k)
{
	unsigned int *cols = calloc(TP_MAX_CPUS, sizeof(*cols));
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ncols, i;

	memset(k, 0, sizeof(*k));
	f = cols ? fopen(path, "r") : NULL;
	if (!f) {
		free(cols);
		return -1;
	}
	if (getline(&line, &cap, f) < 0 ||
	    (ncols = tp_irq_columns(line, cols, TP_MAX_CPUS)) <= 0) {
		free(cols);
		free(line);
		fclose(f);
		return -1;
	}
	for (i = 0; i < ncols; i++)
		k->seen[cols[i]] = true;
	while (getline(&line, &cap, f) >= 0)
		tp_irq_row(line, cols, ncols, k);
	free(cols);
	free(line);
	fclose(f);
	return 0;
}
