// bench/pgfloor/pgfloor_walk.cpp — the C++ half of serde_bench_floor.so: the physical floor's
// simdjson On-Demand walk (bench/floor_walk.h, the same code as bench/floor.cpp, mode TOUCH) over
// a caller's padded buffer. No PostgreSQL header and no PostgreSQL call here: errors go back to
// the C frame (pgfloor.c) as a status and a static message, never as an exception or a longjmp.
//
// Built by bench/run with -fno-exceptions -DNDEBUG -O2 -march=native -std=c++17 -fPIC.
#include <new>

#include "../floor_walk.h"

static_assert(simdjson::SIMDJSON_PADDING == 64, "pgfloor.c pads with SBF_PADDING = 64 bytes: keep them equal");

// One parser per backend (a backend is one thread), created on first use and reused: its
// buffers grow to the largest document seen and never shrink, as in serde.
static simdjson::ondemand::parser *g_parser;

// Parses buf[0..len) (readable up to buf + cap, cap >= len + SIMDJSON_PADDING) and touches every
// value. Returns 0 and the sink of this document in *sink, or -1 with a static message in *errmsg.
extern "C" int sbf_parse(const char *buf, size_t len, size_t cap, uint64_t *sink, const char **errmsg) {
    if (!g_parser) {
        g_parser = new (std::nothrow) simdjson::ondemand::parser();
        if (!g_parser) {
            *errmsg = "out of memory for the parser";
            return -1;
        }
    }
    floor_walk::g_sink = 0;
    simdjson::error_code e =
        floor_walk::parse_one<floor_walk::TOUCH>(*g_parser, buf, len, cap);
    *sink = floor_walk::g_sink;
    if (e != simdjson::SUCCESS) {
        *errmsg = simdjson::error_message(e);
        return -1;
    }
    return 0;
}
