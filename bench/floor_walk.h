// bench/floor_walk.h — the simdjson On-Demand "touch every value" walk of the physical floor,
// shared by the standalone floor program (bench/floor.cpp) and the in-backend floor module
// (bench/pgfloor/pgfloor_walk.cpp), so that both floors run exactly the same code.
//
// parse_one<M>(parser, json): iterate the document, walk every object and array, unescape every
// key, get_string() every string, take the raw token of every number (TOUCH) or parse it with
// get_number() (PARSE), read every bool and null, and check that nothing follows the root value.
// `json` is a simdjson::padded_string_view: a padded_string converts to one, and a caller's own
// buffer is passed as padded_string_view(buf, len, capacity) — capacity >= len + SIMDJSON_PADDING,
// else the result is INSUFFICIENT_PADDING.
//
// Everything read is folded into floor_walk::g_sink, a static of each translation unit that
// includes this header (the caller reads or resets it), so nothing is optimised away.
//
// Build with -DNDEBUG (simdjson's SIMDJSON_ASSUME is assert() otherwise) and -march=native (else
// the On-Demand value code compiles to the fallback kernel). Works with and without exceptions.
#ifndef SERDE_BENCH_FLOOR_WALK_H
#define SERDE_BENCH_FLOOR_WALK_H

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace floor_walk {

using namespace simdjson;

static uint64_t g_sink;  // everything we read is folded in here

enum Mode { TOUCH, PARSE };

template <Mode M>
static error_code walk(ondemand::value v, int depth);

template <Mode M>
static error_code walk_number(ondemand::value &v) {
    if (M == TOUCH) {
        std::string_view tok = v.raw_json_token();  // a plain string_view on a value
        g_sink += tok.size() + (unsigned char)tok[0];
        return SUCCESS;
    }
    ondemand::number n;
    auto e = v.get_number().get(n);
    if (e == NUMBER_ERROR) {  // 24-digit integers, 1e400: the exact-decimal path
        std::string_view tok = v.raw_json_token();
        g_sink += tok.size();
        return SUCCESS;
    }
    if (e) return e;
    switch (n.get_number_type()) {
    case ondemand::number_type::signed_integer: g_sink += (uint64_t)n.get_int64(); break;
    case ondemand::number_type::unsigned_integer: g_sink += n.get_uint64(); break;
    default: {
        double d = n.get_double();
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        g_sink += b;
    }
    }
    return SUCCESS;
}

template <Mode M>
static error_code walk(ondemand::value v, int depth) {
    if (depth > 1024) return DEPTH_ERROR;
    ondemand::json_type t;
    if (auto e = v.type().get(t)) return e;
    switch (t) {
    case ondemand::json_type::object: {
        ondemand::object obj;
        if (auto e = v.get_object().get(obj)) return e;
        for (auto field : obj) {
            ondemand::field f;
            if (auto e = std::move(field).get(f)) return e;
            std::string_view key;
            if (auto e = f.unescaped_key().get(key)) return e;
            g_sink += key.size();
            if (auto e = walk<M>(f.value(), depth + 1)) return e;
        }
        return SUCCESS;
    }
    case ondemand::json_type::array: {
        ondemand::array arr;
        if (auto e = v.get_array().get(arr)) return e;
        for (auto elem : arr) {
            ondemand::value ev;
            if (auto e = std::move(elem).get(ev)) return e;
            if (auto e = walk<M>(ev, depth + 1)) return e;
        }
        return SUCCESS;
    }
    case ondemand::json_type::string: {
        std::string_view s;
        if (auto e = v.get_string().get(s)) return e;
        g_sink += s.size();
        return SUCCESS;
    }
    case ondemand::json_type::number: return walk_number<M>(v);
    case ondemand::json_type::boolean: {
        bool b;
        if (auto e = v.get_bool().get(b)) return e;
        g_sink += b;
        return SUCCESS;
    }
    case ondemand::json_type::null: {
        bool isnull;
        if (auto e = v.is_null().get(isnull)) return e;
        if (!isnull) return INCORRECT_TYPE;
        g_sink += 7;
        return SUCCESS;
    }
    }
    return TAPE_ERROR;
}

// One full document: iterate, walk the root, check that nothing follows it.
template <Mode M>
static error_code parse_one(ondemand::parser &parser, padded_string_view json) {
    ondemand::document doc;
    if (auto e = parser.iterate(json).get(doc)) return e;
    ondemand::json_type t;
    if (auto e = doc.type().get(t)) return e;
    if (t == ondemand::json_type::object || t == ondemand::json_type::array) {
        ondemand::value root;
        if (auto e = doc.get_value().get(root)) return e;
        if (auto e = walk<M>(root, 1)) return e;
    } else {
        // scalar root: read it through the document
        std::string_view tok;
        if (auto e = doc.raw_json_token().get(tok)) return e;
        g_sink += tok.size();
        return SUCCESS;  // scalar documents end with the token
    }
    // Nothing may follow the root value: current_location() is OUT_OF_BOUNDS at the end.
    const char *loc = nullptr;
    auto e = doc.current_location().get(loc);
    if (e == OUT_OF_BOUNDS) return SUCCESS;
    if (e) return e;
    return TRAILING_CONTENT;
}

// The same for a caller's buffer: buf[0..len), readable up to buf + capacity.
template <Mode M>
static error_code parse_one(ondemand::parser &parser, const char *buf, size_t len, size_t capacity) {
    return parse_one<M>(parser, padded_string_view(buf, len, capacity));
}

}  // namespace floor_walk

#endif
