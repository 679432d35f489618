// SPDX-License-Identifier: GPL-2.0
/*
 * The report model's own promises, on small models built here: a text
 * line of fields (tp_line()) draws fields declared once, before or after
 * it, under a path, unknown as n/a; and a figure that may be unknown is
 * stated in one call (tp_str(NULL), tp_obj_known()), null in JSON and
 * n/a in text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "user/lib/format.h"
#include "user/lib/model.h"

/* Whether @m rendered as text (@json false) or one line of JSON is @want. */
static bool tp_drawn_is(struct tp_model *m, bool json, const char *want)
{
	char *text = NULL;
	size_t size;
	FILE *f = open_memstream(&text, &size);
	bool same;

	if (json)
		tp_render_json_line(m, f);
	else
		tp_render_text(m, f);
	fclose(f);
	same = !strcmp(text, want);
	if (!same)
		fprintf(stderr, "# drawn: \"%s\"\n# wanted: \"%s\"\n", text, want);
	free(text);
	return same;
}

static const struct tp_output tp_text_out = { .fmt = TP_FMT_TEXT };

/*
 * A line before its object's fields finds them when drawn, through a
 * path too; its columns are copied (a builder's loop may reuse them);
 * JSON has each field once and no line.
 */
TEST(line_draws_fields_declared_once)
{
	struct tp_model *m = tp_model_new(NULL, &tp_text_out, NULL);
	struct tp_column cols[3] = {
		{ "a", "a %llu", NULL, TP_CELL_PLAIN },
		{ "b", ", b %llu", NULL, TP_CELL_PLAIN },
		{ "in.c", ", c %.1f\n", NULL, TP_CELL_PLAIN },
	};

	tp_obj(m, "o");
	tp_line(m, NULL, cols, 3);
	memset(cols, 0, sizeof(cols));
	tp_u64(m, "a", 1, NULL);
	tp_null(m, "b", NULL);
	tp_obj(m, "in");
	tp_dbl(m, "c", 2.5, NULL);
	tp_end(m);
	tp_end(m);
	tp_line(m, "o.in", &(struct tp_column){ "c", "c again %.2f\n", NULL,
						TP_CELL_PLAIN }, 1);
	EXPECT_TRUE(tp_drawn_is(m, false,
				"a 1, b n/a, c 2.5\nc again 2.50\n"));
	EXPECT_TRUE(tp_drawn_is(m, true,
				"{\"o\":{\"a\":1,\"b\":null,\"in\":{\"c\":2.5}}}\n"));
	tp_model_free(m);
}

/* A line in a stretch of text made quiet is not drawn. */
TEST(line_quiet)
{
	struct tp_model *m = tp_model_new(NULL, &tp_text_out, NULL);
	static const struct tp_column col = { "a", "a %llu\n", NULL,
					      TP_CELL_PLAIN };

	tp_u64(m, "a", 1, NULL);
	tp_text_quiet(m, true);
	tp_line(m, NULL, &col, 1);
	tp_text_quiet(m, false);
	tp_line(m, NULL, &col, 1);
	EXPECT_TRUE(tp_drawn_is(m, false, "a 1\n"));
	tp_model_free(m);
}

/* A string of NULL and an object not known are unknown in each format. */
TEST(unknown_in_one_call)
{
	struct tp_model *m = tp_model_new(NULL, &tp_text_out, NULL);
	static const struct tp_column cols[] = {
		{ "s", "s %s", NULL, TP_CELL_PLAIN },
		{ "o.x", ", x %llu", NULL, TP_CELL_PLAIN },
		{ "k.x", ", k %llu\n", NULL, TP_CELL_PLAIN },
	};

	tp_line(m, NULL, cols, 3);
	tp_str(m, "s", NULL, NULL);
	tp_obj_known(m, "o", false);
	tp_null(m, "x", NULL);
	tp_end(m);
	tp_obj_known(m, "k", true);
	tp_u64(m, "x", 3, NULL);
	tp_end(m);
	EXPECT_TRUE(tp_drawn_is(m, false, "s n/a, x n/a, k 3\n"));
	EXPECT_TRUE(tp_drawn_is(m, true,
				"{\"s\":null,\"o\":null,\"k\":{\"x\":3}}\n"));
	tp_model_free(m);
}

TEST_HARNESS_MAIN
