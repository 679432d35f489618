// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line values (parse.h): durations ("500us", "1.5s"), thresholds
 * ("10us" or "2000c"), bounded integers, and files to write.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/host.h"
#include "user/lib/parse.h"

/* Parse "12", "1.5" into value * 10^9 (nanounits); returns end or NULL. */
static const char *tp_parse_decimal(const char *s, uint64_t scale,
				    uint64_t *out)
{
	uint64_t whole = 0, frac = 0, div = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p)) {
		if (whole > (UINT64_MAX - 9) / 10)
			return NULL;
		whole = whole * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p)) {
			if (div < 1000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				div *= 10;
			}
			p++;
		}
	}
	if (scale && whole > UINT64_MAX / scale)
		return NULL;
	*out = whole * scale + frac * scale / div;
	return p;
}

static const struct { const char *unit; uint64_t ns; } tp_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000ULL },
	{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
};

/* A reason that quotes the value or a range: valid until the next parse. */
static char tp_why[160];

/*
 * A time always takes its unit: a bare number is seconds to oslat and
 * microseconds to rtla and cyclictest, so whichever one it meant here,
 * some user would be wrong.  0 is the same in every unit and may go bare.
 * The reason offers the number in the units it most likely meant.
 */
static int tp_parse_time(const char *s, bool cycles_too, uint64_t *ns,
			 const char **why)
{
	const char *unit = s + strspn(s, "0123456789.");
	size_t i;

	if (*s == '-') {
		*why = "a time cannot be negative";
		return -1;
	}
	if (!*unit && tp_parse_decimal(s, 1, ns) == unit && !*ns &&
	    !s[strspn(s, "0.")])
		return 0;
	if (!*unit && unit != s) {
		cycles_too = cycles_too && !strchr(s, '.');
		snprintf(tp_why, sizeof(tp_why),
			 "a time needs a unit: %.20sus, %.20sms or %.20ss%s%.20s%s",
			 s, s, s, cycles_too ? ", or " : "", cycles_too ? s : "",
			 cycles_too ? "c for TSC cycles" : "");
		*why = tp_why;
		return -1;
	}
	for (i = 0; i < TP_ARRAY_SIZE(tp_units); i++)
		if (!strcmp(unit, tp_units[i].unit) &&
		    tp_parse_decimal(s, tp_units[i].ns, ns) == unit)
			return 0;
	*why = cycles_too ?
		"expected a number and its unit: ns, us, ms, s, m or h, or c for TSC cycles" :
		"expected a number and its unit: ns, us, ms, s, m or h";
	return -1;
}

/**
 * tp_parse_duration() - parse a duration such as "500us", "10s", "2m"
 * @s: the text: a number and its unit (ns, us, ms, s, m, h); only 0 may
 *	go without one
 * @ns: the result in nanoseconds
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_duration(const char *s, uint64_t *ns, const char **why)
{
	return tp_parse_time(s, false, ns, why);
}

/**
 * tp_parse_threshold() - a duration, or TSC cycles with a "c" suffix
 * @s: the text, e.g. "10us" or "25000c"
 * @value: nanoseconds, or cycles when *@cycles
 * @cycles: set when the value is in cycles
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_threshold(const char *s, uint64_t *value, bool *cycles,
		       const char **why)
{
	const char *suffix = s + strspn(s, "0123456789");
	char *end;

	*cycles = !strcmp(suffix, "c") || !strcmp(suffix, "cycles");
	if (!*cycles)
		return tp_parse_time(s, true, value, why);
	errno = 0;
	*value = strtoull(s, &end, 10);
	if (suffix == s || end != suffix || errno || !*value) {
		*why = "expected a positive number of cycles, like 2000c";
		return -1;
	}
	return 0;
}

/* "must be MIN to MAX", or "must be at least MIN" for no real maximum. */
static const char *tp_range_why(const char *what, uint64_t min, uint64_t max)
{
	if (max == UINT64_MAX)
		snprintf(tp_why, sizeof(tp_why), "%s at least %llu", what,
			 (unsigned long long)min);
	else
		snprintf(tp_why, sizeof(tp_why), "%s %llu to %llu", what,
			 (unsigned long long)min, (unsigned long long)max);
	return tp_why;
}

/**
 * tp_parse_u64() - parse a decimal integer in [min, max]
 * @s: the text (digits only; "1e6" style exponents are accepted)
 * @min: smallest allowed
 * @max: largest allowed
 * @v: the result
 * @why: set to the reason on error, with the range
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v,
		 const char **why)
{
	uint64_t x = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		goto nan;
	while (isdigit((unsigned char)*p)) {
		if (x > (UINT64_MAX - 9) / 10)
			goto range;
		x = x * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p == 'e' && isdigit((unsigned char)p[1]) && !p[2]) {
		int e = p[1] - '0';

		while (e--) {
			if (x > UINT64_MAX / 10)
				goto range;
			x *= 10;
		}
		p += 2;
	}
	if (*p)
		goto nan;
	if (x < min || x > max)
		goto range;
	*v = x;
	return 0;
nan:
	*why = tp_range_why("expected a whole number:", min, max);
	return -1;
range:
	*why = tp_range_why("must be", min, max);
	return -1;
}

/**
 * tp_check_creatable() - can an output file be written once the run ends?
 * @path: the file
 *
 * Checked before anything starts, so that a typo in a path does not cost
 * a whole run.  A file that does not exist is created and removed at once,
 * so that nothing is left behind whatever happens later; one that exists
 * is opened for writing, not truncated.  A FIFO without a reader yet, or
 * a dangling symbolic link, is left for the write to judge.
 *
 * Return: 0, or the errno that refuses it.
 */
int tp_check_creatable(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	if (fd >= 0) {
		close(fd);
		unlink(path);
		return 0;
	}
	if (errno != EEXIST)
		return errno;
	fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENXIO || errno == ENOENT ? 0 : errno;
	close(fd);
	return 0;
}
