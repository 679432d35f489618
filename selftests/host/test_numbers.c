// SPDX-License-Identifier: GPL-2.0
/*
 * Every machine format carries a double exactly: what the JSON writer,
 * a CSV field and a Prometheus sample print reads back (strtod, jq,
 * the CLI's own JSON reader) as the same double, integers are written
 * as integers, and what a format cannot carry is its "unknown" (JSON
 * null, an empty CSV field, no Prometheus sample).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "prng.h"
#include "user/lib/format.h"
#include "user/lib/json_read.h"
#include "user/lib/json_write.h"
#include "user/lib/model.h"

/* The figures scripts tripped on, and the awkward corners of doubles. */
static const double tp_awkward[] = {
	1234567.8,		/* a cache average of cycles: 1.23457e+06 */
	64749854,		/* diff -j: 6.47499e+07 */
	0.1,
	9007199254740992.0,	/* 2^53 */
	9007199254740994.0,	/* 2^53 + 2 */
	18446744073709549568.0,	/* the largest double below 2^64 */
	1e-300,
	-0.0,
	1.0 / 3,
	-2.5e-7,
	DBL_MAX,
	DBL_MIN,
	4.9406564584124654e-324,	/* the smallest subnormal */
	0.99999999999999989,	/* the largest double below 1 */
};

#define TP_RANDOM	2000
#define TP_VALUES	(sizeof(tp_awkward) / sizeof(tp_awkward[0]) + TP_RANDOM)

/* The awkward values, then finite doubles of random bit patterns. */
static void tp_values(double *v)
{
	uint64_t seed = 0x5eed0011, bits;
	size_t i, n = sizeof(tp_awkward) / sizeof(tp_awkward[0]);

	memcpy(v, tp_awkward, sizeof(tp_awkward));
	for (i = n; i < TP_VALUES; i++) {
		do {
			bits = tr_next(&seed);
			memcpy(&v[i], &bits, sizeof(v[i]));
		} while (!isfinite(v[i]));
	}
}

/* Equal and of the same sign: -0.0 must come back as -0.0. */
static bool tp_same(double a, double b)
{
	return a == b && signbit(a) == signbit(b);
}

/*
 * Whether value @i, @want, came back from the text @text (of @len chars)
 * as @got; the first few that did not are logged, so that thousands of
 * them do not bury the report.
 */
static bool tp_came_back(unsigned int *bad, size_t i, double want,
			 double got, const char *text, size_t len)
{
	if (tp_same(want, got))
		return true;
	if ((*bad)++ < 5)
		fprintf(stderr, "# value %zu: %.17g came back as %.17g (\"%.*s\")\n",
			i, want, got, (int)len, text);
	return false;
}

/* A number read whole by strtod(): nothing before or after it. */
static bool tp_read_number(const char *s, size_t len, double *v)
{
	char tmp[64], *end;

	if (!len || len >= sizeof(tmp))
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*v = strtod(tmp, &end);
	return *end == '\0';
}

/* @v written by the JSON writer, as the text of one value. */
static void tp_json_of(double v, char *out, size_t len)
{
	char *text = NULL;
	size_t size;
	FILE *f = open_memstream(&text, &size);
	struct jw j;

	jw_init_line(&j, f);
	jw_double(&j, NULL, v);
	fclose(f);
	snprintf(out, len, "%s", text);
	free(text);
}

/* The figures are written as the shortest text that reads back. */
TEST(json_shortest_and_integers_whole)
{
	static const struct {
		double v;
		const char *text;
	} want[] = {
		{ 1234567.8, "1234567.8" },
		{ 64749854, "64749854" },
		{ 0.1, "0.1" },
		{ 9007199254740992.0, "9007199254740992" },
		{ 9007199254740994.0, "9007199254740994" },
		{ 1e15, "1000000000000000" },
		{ 18446744073709549568.0, "18446744073709549568" },
		{ 1e-300, "1e-300" },
		{ -0.0, "-0" },
		{ 0.25, "0.25" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 1e300, "1e+300" },
		{ NAN, "null" },
		{ INFINITY, "null" },
		{ -INFINITY, "null" },
	};
	char out[64];
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		tp_json_of(want[i].v, out, sizeof(out));
		EXPECT_STREQ(want[i].text, out);
	}
}

/* A JSON array of every value, then NaN and both infinities, into @path. */
static void tp_write_json(const char *path, const double *v, size_t n)
{
	FILE *f = fopen(path, "w");
	struct jw j;
	size_t i;

	jw_init(&j, f);
	jw_arr(&j, NULL);
	for (i = 0; i < n; i++)
		jw_double(&j, NULL, v[i]);
	jw_double(&j, NULL, NAN);
	jw_double(&j, NULL, INFINITY);
	jw_double(&j, NULL, -INFINITY);
	jw_arr_end(&j);
	jw_finish(&j);
	fclose(f);
}

/* Read back by the CLI's own reader (tscprobe diff's), bit for bit. */
TEST(json_read_back_by_the_reader)
{
	char path[] = "/tmp/tp-numbers-XXXXXX";
	static double v[TP_VALUES];
	const char *why = NULL;
	unsigned int bad = 0;
	struct jr *doc;
	size_t i;

	tp_values(v);
	close(mkstemp(path));
	tp_write_json(path, v, TP_VALUES);
	doc = jr_parse_file(path, &why);
	unlink(path);
	ASSERT_NE(NULL, doc) TH_LOG("%s", why);
	ASSERT_EQ(TP_VALUES + 3, doc->n);
	for (i = 0; i < TP_VALUES; i++) {
		ASSERT_EQ(JR_NUM, doc->v[i].type);
		tp_came_back(&bad, i, v[i], doc->v[i].num, "", 0);
	}
	EXPECT_EQ(0, bad);
	for (i = TP_VALUES; i < TP_VALUES + 3; i++)
		EXPECT_EQ(JR_NULL, doc->v[i].type);
	jr_free(doc);
}

/*
 * Read back by jq: it prints each number with the 17 digits that identify
 * a double, and strtod() of that must give the value written.
 */
TEST(json_read_back_by_jq)
{
	char path[] = "/tmp/tp-numbers-XXXXXX", cmd[256], line[64];
	static double v[TP_VALUES];
	unsigned int bad = 0;
	size_t i = 0;
	double back;
	FILE *p;

	tp_values(v);
	close(mkstemp(path));
	tp_write_json(path, v, TP_VALUES);
	snprintf(cmd, sizeof(cmd), "jq -c '.[]' %s", path);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		if (i >= TP_VALUES) {
			EXPECT_STREQ("null", line);
		} else {
			ASSERT_TRUE(tp_read_number(line, strlen(line), &back))
				TH_LOG("jq printed %s", line);
			tp_came_back(&bad, i, v[i], back, line, strlen(line));
		}
		i++;
	}
	EXPECT_EQ(0, pclose(p));
	unlink(path);
	EXPECT_EQ(TP_VALUES + 3, i);
	EXPECT_EQ(0, bad);
}

/* The values and their CSV places, for the model's one row. */
static const double *tp_row_values;

static void tp_values_row(struct tp_model *m, const void *ctx, unsigned int row)
{
	char col[16];
	size_t i;

	(void)ctx;
	(void)row;
	for (i = 0; i < TP_VALUES + 2; i++) {
		snprintf(col, sizeof(col), "v%zu", i);
		tp_dbl(m, col, i < TP_VALUES ? tp_row_values[i] :
		       i == TP_VALUES ? NAN : INFINITY,
		       &(struct tp_opts){ .csv = (unsigned int)i + 1 });
	}
}

/* The report model's CSV of a row of every value: each reads back. */
TEST(csv_exact)
{
	static const struct tp_output csv = { .fmt = TP_FMT_CSV };
	static double v[TP_VALUES];
	unsigned int bad = 0;
	char *text = NULL;
	const char *s, *end;
	struct tp_model *m;
	size_t i, size;
	double back;
	FILE *f;

	tp_values(v);
	tp_row_values = v;
	m = tp_model_new(NULL, &csv, NULL);
	tp_rows(m, "rows", 1, tp_values_row, NULL);
	f = open_memstream(&text, &size);
	tp_render_csv(m, f);
	fclose(f);
	tp_model_free(m);
	s = strstr(text, "\r\n") + 2;
	for (i = 0; i < TP_VALUES; i++, s = end + 1) {
		end = s + strcspn(s, ",\r");
		ASSERT_EQ(',', *end);
		ASSERT_TRUE(tp_read_number(s, (size_t)(end - s), &back))
			TH_LOG("field %zu: %.*s", i, (int)(end - s), s);
		tp_came_back(&bad, i, v[i], back, s, (size_t)(end - s));
	}
	EXPECT_EQ(0, bad);
	EXPECT_STREQ(",\r\n", s);
	free(text);
}

/*
 * The report model's Prometheus samples of every value: each reads back;
 * NaN and the infinities are unknown to the model: no sample.
 */
TEST(prometheus_exact)
{
	static const struct tp_family x = { "tscprobe_x", "gauge", "x", false };
	static const struct tp_output prom = { .fmt = TP_FMT_PROM };
	static double v[TP_VALUES];
	unsigned int bad = 0;
	char *text = NULL;
	const char *s, *end;
	struct tp_model *m;
	size_t i, len, size;
	double back;
	FILE *f;

	tp_values(v);
	m = tp_model_new(NULL, &prom, NULL);
	for (i = 0; i < TP_VALUES + 3; i++)
		tp_dbl(m, "x", i < TP_VALUES ? v[i] : i == TP_VALUES ? NAN :
		       i == TP_VALUES + 1 ? INFINITY : -INFINITY,
		       &(struct tp_opts){ .prom = &x, .labels = "cpu=\"0\"" });
	f = open_memstream(&text, &size);
	tp_render_prom(m, f);
	fclose(f);
	tp_model_free(m);
	s = strstr(text, "# TYPE tscprobe_x gauge\n");
	ASSERT_NE(NULL, s);
	s = strchr(s, '\n') + 1;
	for (i = 0; i < TP_VALUES; i++, s = end + 1) {
		end = strchr(s, '\n');
		ASSERT_NE(NULL, end);
		s = strchr(s, ' ') + 1;
		len = (size_t)(end - s);
		ASSERT_TRUE(tp_read_number(s, len, &back))
			TH_LOG("sample %zu: %.*s", i, (int)len, s);
		tp_came_back(&bad, i, v[i], back, s, len);
	}
	EXPECT_EQ(0, bad);
	EXPECT_STREQ("", s);
	free(text);
}

TEST_HARNESS_MAIN
