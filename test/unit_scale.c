/*
 * unit_scale.c — compiling stays linear in a shape's fields, and is capped (docs/reference.md,
 * section 2, the limits on compiling): the compiler's own caps (32,767 fields in one composite,
 * 50,000 in one plan) with their messages, the first conflicting pair reported in a wide shape
 * as a check of all pairs would, and 4x the fields compiling in at most 6x the CPU time.
 */
#include "unit.h"
#include "unit_support.h"

#include <stdlib.h>
#include <time.h>

/* what the tests allocate, freed at the end */
static void *kept[64];
static int nkept;

static void *
keep(void *p)
{
	kept[nkept++] = p;
	return p;
}

/* A composite of n columns c0.. of type col (names in one block). */
static const sd_type *
wide(const char *name, int n, const sd_type *col)
{
	sd_type    *t = keep(calloc(1, sizeof(sd_type)));
	sd_column  *cols = keep(calloc((size_t) n, sizeof(sd_column)));
	char	   *names = keep(malloc((size_t) n * 8));

	for (int i = 0; i < n; i++)
	{
		snprintf(names + 8 * i, 8, "c%d", i);
		cols[i].name = names + 8 * i;
		cols[i].type = col;
	}
	t->kind = SD_K_COMPOSITE;
	t->name = name;
	t->max_chars = -1;
	t->precision = t->scale = -1;
	t->ncols = n;
	t->cols = cols;
	return t;
}

static double
compile_cpu(const sd_type *t, const char *opts)
{
	double		best = 1e9;

	for (int k = 0; k < 3; k++)
	{
		clock_t		t0 = clock();
		const char *r = ut_compile(t, opts);
		double		s = (double) (clock() - t0) / CLOCKS_PER_SEC;

		CHECK_STR(r, "ok");
		if (s < best)
			best = s;
	}
	return best;
}

void		unit_scale(void);

void
unit_scale(void)
{
	const sd_type *int8 = ut_type("int8");

	/* the caps: one composite, then one plan */
	CHECK_STR(ut_compile(wide("w32767", 32767, int8), "{}"), "ok");
	CHECK_STR(ut_compile(wide("w32768", 32768, int8), "{}"),
			  "ERROR 54000 $: type w32768 has 32768 fields, more than 32767 (a limit of serde)");
	{
		const sd_type *half = wide("half", 25000, int8);
		sd_type    *two = keep(calloc(1, sizeof(sd_type)));
		sd_column  *cols = keep(calloc(2, sizeof(sd_column)));

		cols[0] = (sd_column) {"a", half};
		cols[1] = (sd_column) {"b", half};
		*two = (sd_type) {.kind = SD_K_COMPOSITE, .name = "two", .max_chars = -1, .precision = -1,
		.scale = -1, .ncols = 2, .cols = cols};
		/* reached twice under one policy: compiled (and counted) once */
		CHECK_STR(ut_compile(two, "{}"), "ok");
		/* through two shapes: twice, 50,002 fields */
		ut_shapedef shapes[UT_SHAPES] = {{"H1", "{\"optional\": true}", half}, {"H2", "{}", half}};
		sd_resolver res = {ut_resolve, shapes};
		sd_error	err;
		const char *o2 = "{\"fields\": {\"a\": {\"shape\": \"H1\"}, \"b\": {\"shape\": \"H2\"}}}";
		const char *o1 = "{\"fields\": {\"a\": {\"shape\": \"H1\"}}}";
		sd_plan    *p = sd_compile("T", o2, strlen(o2), two, NULL, &res, &err);

		CHECK(p == NULL && err.code == SD_E_SIZE);
		CHECK_STR(err.path, "$.fields.b.shape");
		CHECK_STR(err.problem, "in shape \"H2\" at $: the shape compiles into more than 50000 fields "
				  "(a limit of serde, its referenced shapes counted)");
		/* (one of them through a shape, the other not: still two policies, 50,002 fields) */
		CHECK(!sd_compile("T", o1, strlen(o1), two, NULL, &res, &err) && err.code == SD_E_SIZE);
	}

	/* conflicts in a wide shape: the first earlier column, as all pairs checked in order */
	{
		const sd_type *t = wide("w", 20000, int8);

		CHECK_STR(ut_compile(t, "{\"fields\": {\"c19999\": {\"name\": \"c3\"}, \"c19998\": {\"name\": \"c3\"}}}"),
				  "ERROR 22023 $.fields.c19998: member \"c3\" is already mapped by column \"c3\"");
		CHECK_STR(ut_compile(t, "{\"xml\": {\"namespace\": \"urn:x\"}, \"fields\": {\"c19999\": {\"name\": \"k\"}, "
							 "\"c19990\": {\"name\": \"{urn:x}k\"}}}"),
				  "ERROR 22023 $.fields.c19999: XML element \"{urn:x}k\" is already mapped by column \"c19990\"");
		CHECK_STR(ut_compile(t, "{\"fields\": {\"c12\": {\"name\": \"Zz\"}, \"c4\": {\"name\": \"Zz\"}}}"),
				  "ERROR 22023 $.fields.c12: member \"Zz\" is already mapped by column \"c4\"");
	}

	/* time: 4x the fields, at most 6x the CPU (best of 3 each) */
	{
		double		a = compile_cpu(wide("s", 5000, int8), "{\"optional\": true}");
		double		b = compile_cpu(wide("l", 20000, int8), "{\"optional\": true}");

		if (b > 6 * (a > 0.002 ? a : 0.002))
			fprintf(stderr, "scale: 5000 fields %.4f s, 20000 fields %.4f s\n", a, b);
		CHECK(b <= 6 * (a > 0.002 ? a : 0.002));
	}
	while (nkept > 0)
		free(kept[--nkept]);
}
