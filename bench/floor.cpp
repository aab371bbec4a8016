// bench/floor.cpp — the physical floor: simdjson On-Demand over the same bytes serde decodes.
//
// For every input file, parse it with simdjson On-Demand and touch every value: walk every
// object and array, unescape every key, get_string() every string, take the raw token of every
// number (mode "touch") or parse it with get_number() (mode "parse"), read every bool and null,
// and check that nothing follows the root value (full validation of what is read, as serde
// must do).  Repeat until a run lasts --min-ms, take the median ns/document over --runs runs.
//
//   g++ -O2 -march=native -std=c++17 -DNDEBUG -o bench/out/floor bench/floor.cpp -lsimdjson
//   bench/out/floor [--runs 7] [--min-ms 150] NAME=FILE ...        (or just FILE ...)
//
// Output: one TSV line per file
//   name  bytes  touch_ns_median  touch_ns_min  touch_ns_max  parse_ns_median  touch_GBps  status
// (status "ok", or the simdjson error for a malformed document — its time is then the time to
// reach the error).  A file may hold a JSON array (a batch); it is one document here, and the
// caller divides by the number of records if it wants ns/record.
//
// This is a measuring tool, not the extension: -march=native is fine, so the On-Demand value
// code is compiled for the running CPU (the extension dispatches to the same kernel at run time).
//
// The walk itself (walk<M>, parse_one<M>, the sink) is in bench/floor_walk.h, shared with the
// in-backend floor bench/pgfloor (serde_bench_floor.so, competitor floor_simdjson): same code.
#include <simdjson.h>

#include "floor_walk.h"  // walk<M>, parse_one<M>, g_sink: the same code as the in-backend floor

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace simdjson;
using floor_walk::g_sink;
using floor_walk::Mode;
using floor_walk::PARSE;
using floor_walk::TOUCH;
using floor_walk::parse_one;

static double now_ns() {
    return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

template <Mode M>
static std::vector<double> measure(ondemand::parser &parser, const padded_string &json, int runs,
                                   double min_ns, error_code *status) {
    // calibrate iterations per run
    *status = parse_one<M>(parser, json);
    long iters = 1;
    for (;;) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) parse_one<M>(parser, json);
        double dt = now_ns() - t0;
        if (dt >= min_ns / 4 || iters > (1L << 30)) {
            iters = std::max(1L, (long)(iters * (min_ns / std::max(dt, 1.0))));
            break;
        }
        iters *= 4;
    }
    std::vector<double> per_doc;
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) parse_one<M>(parser, json);
        per_doc.push_back((now_ns() - t0) / iters);
    }
    std::sort(per_doc.begin(), per_doc.end());
    return per_doc;
}

int main(int argc, char **argv) {
    int runs = 7;
    double min_ms = 150;
    std::vector<std::pair<std::string, std::string>> inputs;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--min-ms") && i + 1 < argc) min_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fprintf(stderr, "usage: %s [--runs N] [--min-ms MS] [NAME=]FILE ...\n", argv[0]);
            return 0;
        } else {
            std::string a = argv[i];
            auto eq = a.find('=');
            if (eq == std::string::npos) {
                auto slash = a.rfind('/');
                inputs.emplace_back(slash == std::string::npos ? a : a.substr(slash + 1), a);
            } else {
                inputs.emplace_back(a.substr(0, eq), a.substr(eq + 1));
            }
        }
    }
    if (runs < 1) runs = 1;
    fprintf(stderr, "floor: simdjson %s, active implementation %s, on-demand kernel compiled in: %s\n",
            SIMDJSON_STRINGIFY(SIMDJSON_VERSION), get_active_implementation()->name().c_str(),
            SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION));
    printf("name\tbytes\ttouch_ns\ttouch_ns_min\ttouch_ns_max\tparse_ns\ttouch_GBps\tstatus\n");
    ondemand::parser parser;
    for (auto &in : inputs) {
        padded_string json;
        if (auto e = padded_string::load(in.second).get(json)) {
            fprintf(stderr, "floor: %s: %s\n", in.second.c_str(), error_message(e));
            return 1;
        }
        error_code st1, st2;
        auto t = measure<TOUCH>(parser, json, runs, min_ms * 1e6, &st1);
        auto p = measure<PARSE>(parser, json, std::max(3, runs / 2), min_ms * 1e6 / 2, &st2);
        double med = t[t.size() / 2];
        printf("%s\t%zu\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\t%s\n", in.first.c_str(), json.size(), med,
               t.front(), t.back(), p[p.size() / 2], json.size() / med,
               st1 == SUCCESS ? "ok" : error_message(st1));
        fflush(stdout);
    }
    fprintf(stderr, "floor: sink %llu\n", (unsigned long long)g_sink);
    return 0;
}
