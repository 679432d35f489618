// SPDX-License-Identifier: GPL-2.0
/*
 * A double as the text a machine reads back exactly.  A figure scripts
 * compare (an average of 1,234,567.8 cycles, a maximum of 64,749,854) must
 * come back from jq, Python or a Prometheus server as the double that was
 * measured, never rounded to a few digits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "user/lib/number.h"

/**
 * tp_number() - the shortest decimal text that reads back as @v
 * @buf: the text, NUL-terminated
 * @v: the figure
 *
 * An integer below 2^64 in magnitude is written whole, without exponent
 * ("9007199254740994", not "9.007199254740994e+15"): that is how a count
 * of cycles is read.  Any other figure takes the fewest significant digits,
 * 15, 16 or 17, that strtod() turns back into @v; 17 always do.  -0.0 is
 * "-0", which reads back with its sign.
 *
 * Return: false, with @buf empty, when @v is NaN or infinite: every format
 * says "unknown" its own way.
 */
bool tp_number(char buf[TP_NUMBER_LEN], double v)
{
	int digits;

	buf[0] = '\0';
	if (!isfinite(v))
		return false;
	if (v == trunc(v) && fabs(v) < 0x1p64) {
		snprintf(buf, TP_NUMBER_LEN, "%.0f", v);
		return true;
	}
	for (digits = 15; digits < 17; digits++) {
		snprintf(buf, TP_NUMBER_LEN, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return true;
	}
	snprintf(buf, TP_NUMBER_LEN, "%.17g", v);
	return true;
}
