/*
 * plan.c — reading a compiled plan (its root, shape name, size, defaults and their compiled
 * values, the XML root element) and releasing it.  Plain accessors with no call into the
 * compiler, so the engine, the decoder and the JSON writer read a plan without depending on
 * the code that builds it.
 */
#include "internal.h"

void
sd_plan_free(sd_plan *plan)
{
	if (plan)
	{
		sd_arena	a = plan->arena;

		sd_arena_free(&a);
	}
}

const sd_node *
sd_plan_root(const sd_plan *plan)
{
	return plan->root;
}

const char *
sd_plan_shape(const sd_plan *plan)
{
	return plan->shape;
}

size_t
sd_plan_bytes(const sd_plan *plan)
{
	return plan->arena.bytes;
}

int
sd_plan_ndefaults(const sd_plan *plan)
{
	return plan->ndefaults;
}

const sd_field *
sd_plan_default(const sd_plan *plan, int index)
{
	return index >= 0 && index < plan->ndefaults ? plan->defaults[index] : NULL;
}

const sd_xml_name *
sd_plan_xml_root(const sd_plan *plan)
{
	return &plan->root->xml_root;
}

const sd_val *
sd_plan_default_value(const sd_plan *plan, int index, uint32_t *root)
{
	if (index < 0 || index >= plan->ndefaults || plan->droots == NULL)
		return NULL;
	*root = plan->droots[index];
	return plan->dtape;
}
