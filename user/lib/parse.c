// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line values (parse.h): durations ("500us", "1.5s"), thresholds
 * ("10us" or "2000c") and bounded integers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

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

/**
 * tp_parse_duration() - parse a duration such as "500us", "10s", "2m"
 * @s: the text; a bare number means seconds
 * @ns: the result in nanoseconds
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_duration(const char *s, uint64_t *ns, const char **why)
{
	const char *unit;
	size_t i;

	for (i = 0; i < sizeof(tp_units) / sizeof(tp_units[0]); i++) {
		unit = s + strspn(s, "0123456789.");
		if (strcmp(unit, tp_units[i].unit) && !(!*unit && i == 3))
			continue;
		if (tp_parse_decimal(s, tp_units[i].ns, ns) != unit) {
			*why = "expected a number with a unit: ns, us, ms, s, m, h";
			return -1;
		}
		return 0;
	}
	*why = "expected a number with a unit: ns, us, ms, s, m, h";
	return -1;
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
		return tp_parse_duration(s, value, why);
	errno = 0;
	*value = strtoull(s, &end, 10);
	if (suffix == s || end != suffix || errno || !*value) {
		*why = "expected a positive number of cycles, like 2000c";
		return -1;
	}
	return 0;
}

/**
 * tp_parse_u64() - parse a decimal integer in [min, max]
 * @s: the text (digits only; "1e6" style exponents are accepted)
 * @min: smallest allowed
 * @max: largest allowed
 * @v: the result
 * @why: set to the reason on error
 *
 * Return: 0, or -1 with @why set.
 */
int tp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v,
		 const char **why)
{
	uint64_t x = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p)) {
		*why = "expected a whole number";
		return -1;
	}
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
	if (*p) {
		*why = "expected a whole number";
		return -1;
	}
	if (x < min || x > max)
		goto range;
	*v = x;
	return 0;
range:
	*why = "out of range";
	return -1;
}
