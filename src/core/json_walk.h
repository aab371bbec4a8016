/*
 * json_walk.h — the SIMD kernels of the JSON walker (json_walk.cpp compiled once per kernel)
 * and the load-time choice among them (json_dispatch.cpp).
 */
#ifndef SERDE_JSON_WALK_H
#define SERDE_JSON_WALK_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__x86_64__)
extern const sd_kernel sd_kernel_icelake;
extern const sd_kernel sd_kernel_haswell;
extern const sd_kernel sd_kernel_westmere;
#endif
extern const sd_kernel sd_kernel_fallback;

/* The best kernel the running CPU supports: the one simdjson's own runtime dispatch picked for
 * its stage 1, else the fallback.  Never one the CPU cannot run. */
const sd_kernel *sd_select_kernel(void);

#ifdef __cplusplus
}
#endif

#endif
