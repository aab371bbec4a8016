/*
 * json_dispatch.cpp — chooses the JSON walker kernel once, at load time, from simdjson's own
 * runtime CPU detection, so the walker runs the same instruction set as simdjson's stage 1
 * (which lives in libsimdjson) and never one the CPU lacks.  simdjson 3.0.1 detects by cpuid
 * alone (no xgetbv check that the OS enables the AVX registers): serde's choice is exactly
 * simdjson's, no better and no worse.
 * Built without any -march flag: this file must run on every x86-64.
 */
#include <simdjson.h>

#include <cstring>

#include "json_walk.h"

namespace
{

const sd_kernel *
choose()
{
	const char *env = getenv("SERDE_JSON_KERNEL");	/* tests force a kernel (never a better one) */
	const simdjson::implementation *active = simdjson::get_active_implementation();
	const std::string &name = active->name();

#if defined(__x86_64__)
	struct
	{
		const char *name;
		const sd_kernel *k;
	}			table[] = {
		{"icelake", &sd_kernel_icelake},
		{"haswell", &sd_kernel_haswell},
		{"westmere", &sd_kernel_westmere},
		{"fallback", &sd_kernel_fallback},
	};
	bool		usable = false;

	for (auto &e : table)
	{
		if (name == e.name)
			usable = true;		/* this one and every one after it runs here */
		if (usable && (!env || strcmp(env, e.name) == 0))
			return e.k;
	}
#else
	(void) env;
	(void) name;
#endif
	return &sd_kernel_fallback;
}

}								/* namespace */

/*
 * The first caller chooses; every thread sees the same choice.  A function-local static is
 * initialised exactly once even when threads race (C++11 [stmt.dcl]; a guarded init through
 * __cxa_guard_acquire, which needs no exceptions).  A plain "if (!chosen) chosen = choose()"
 * was a data race: SQLite connections on several threads decode at once (ThreadSanitizer found it).
 * The adapters call this from their load hooks, so the choice is made before any thread decodes.
 */
extern "C" const sd_kernel *
sd_select_kernel(void)
{
	static const sd_kernel *const chosen = choose();

	return chosen;
}

extern "C" const char *
sd_json_kernel(void)
{
	return sd_select_kernel()->name;
}
