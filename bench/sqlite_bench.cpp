// bench/sqlite_bench.cpp — the SQLite group of the benchmarks (issue 14 point 7; bench/README.md): the
// SQLite extension against what SQLite users write today, in one process, same bytes, warm.
//
//   stripe     the Stripe invoice (fixtures/json/stripe_invoice.json, 10 KB), DOCS distinct
//              copies (the id differs, so JSON1's parse cache cannot reuse a row's parse):
//                vtab             SELECT count(r.id), … (the 29 columns json_extract reads) FROM
//                                 w_stripe, invs(w_stripe.body) r   (invs: USING serde(StripeInvoice))
//                serde_decode     SELECT count(serde_decode('StripeInvoice', body)) FROM w_stripe
//                json_extract     one json_extract(body, p1, …, p29) of the invoice's 29 fields
//                                 that have a document path (received_at is `skip`)
//                ->>              body ->> p1, …, body ->> p29 (JSON1 caches the parse per row)
//   records    1,000 Kafka/MSK records (fixtures/json/msk_record.json, offset and key varied):
//                vtab             SELECT count(r.topic), … (all 8 columns) FROM w_rec, recs(w_rec.body) r
//                json_each        the same 1,000 records as one JSON array: json_each + 8 json_extract
//                json_extract     per row of w_rec: json_extract(body, p1, …, p8)
//   floor      simdjson On-Demand touching every value (bench/floor_walk.h, the same walk as the
//              PostgreSQL floors): as an SQL function bench_floor(body) in the same statement
//              shape (the floor of a statement), and as a plain loop over the bytes (the physical
//              floor, no SQLite at all).
// Rounds alternate the order (A B C … then … C B A; the plain-loop floor first, then last), each
// competitor runs ~TARGET/10 ms per round; results are medians of per-round ratios.  Output: a markdown report on stdout.
//
//   bench/sqlite [--rounds N] [--target-ms MS]      (builds this and sqlite/serde.so first)
//   bench/out/sqlite_bench --only GROUP/NAME --runs N   one statement N times, no report (for
//                                                       callgrind: valgrind --tool=callgrind ...)
#include <simdjson.h>
#include <sqlite3.h>

#include "floor_walk.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace simdjson;

static sqlite3 *db;

static double now_ns() {
    return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void die(const char *what) {
    fprintf(stderr, "sqlite_bench: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static void exec(const std::string &sql) {
    char *err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite_bench: %s\n  in: %.200s\n", err, sql.c_str());
        exit(1);
    }
}

static std::string slurp(const char *path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "sqlite_bench: cannot read %s\n", path); exit(1); }
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// bench_floor(doc): the floor walk inside SQLite (padded copy into a reused buffer, as serde does)
static std::vector<char> floor_buf;
static ondemand::parser floor_parser;
static void fn_floor(sqlite3_context *ctx, int, sqlite3_value **argv) {
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]);
    if (floor_buf.size() < n + SIMDJSON_PADDING) floor_buf.resize(n + SIMDJSON_PADDING);
    memcpy(floor_buf.data(), s, n);
    error_code e = floor_walk::parse_one<floor_walk::TOUCH>(floor_parser, floor_buf.data(), n, floor_buf.size());
    sqlite3_result_int64(ctx, e == SUCCESS ? (sqlite3_int64)(floor_walk::g_sink & 1) : -1);
}

struct Stmt {
    const char *group, *name;
    std::string sql;
    int docs;                    // documents per execution
    std::vector<double> ns;      // ns per document, per round
};

__attribute__((noinline)) static double run_once(sqlite3_stmt *st) {
    double t0 = now_ns();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {}
    if (rc != SQLITE_DONE) die("step");
    sqlite3_reset(st);
    return now_ns() - t0;
}

static double measure(Stmt &s, double target_ns) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, s.sql.c_str(), -1, &st, nullptr) != SQLITE_OK) die(s.name);
    run_once(st);                                          // warm: plans compiled, pages cached
    double total = 0;
    long n = 0;
    while (total < target_ns || n < 3) { total += run_once(st); n++; }
    sqlite3_finalize(st);
    return total / n / s.docs;
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char **argv) {
    int rounds = 7;
    double target_ms = 300;
    const char *ext = "./sqlite/serde";
    const int DOCS = 100, RECORDS = 1000;
    const char *only = nullptr;
    int only_runs = 10;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--target-ms") && i + 1 < argc) target_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--ext") && i + 1 < argc) ext = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) only_runs = atoi(argv[++i]);
    }
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
    sqlite3_enable_load_extension(db, 1);
    char *err = nullptr;
    if (sqlite3_load_extension(db, ext, nullptr, &err) != SQLITE_OK) { fprintf(stderr, "%s\n", err); return 1; }
    sqlite3_create_function(db, "bench_floor", 1, SQLITE_UTF8, nullptr, fn_floor, nullptr, nullptr);

    // ---- data -------------------------------------------------------------------------------
    std::string stripe = slurp("fixtures/json/stripe_invoice.json");
    std::string descs = slurp("fixtures/descriptors/stripe_invoice.json");
    std::string record = slurp("fixtures/json/msk_record.json");
    sqlite3_stmt *st;
    exec("CREATE TABLE docs(name TEXT PRIMARY KEY, body TEXT)");
    sqlite3_prepare_v2(db, "INSERT INTO docs VALUES (?1, ?2)", -1, &st, nullptr);
    const std::pair<const char *, std::string *> ins[] = {{"stripe", &stripe}, {"descs", &descs}, {"record", &record}};
    for (auto &p : ins) {
        sqlite3_bind_text(st, 1, p.first, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, p.second->c_str(), (int)p.second->size(), SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE) die("insert");
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec("SELECT serde_register(key, value) FROM json_each((SELECT body FROM docs WHERE name = 'descs'))");
    exec("SELECT serde_register('MskRecord', '{\"rename\": \"camel\", \"fields\": {"
         "\"topic\": {\"type\": \"text\", \"nullable\": false}, \"partition\": {\"type\": \"integer\", \"nullable\": false},"
         "\"record_offset\": {\"type\": \"integer\", \"name\": \"offset\", \"nullable\": false},"
         "\"record_time\": {\"type\": \"timestamp\", \"name\": \"timestamp\", \"format\": \"unix_ms\", \"nullable\": false},"
         "\"timestamp_type\": {\"type\": {\"enum\": [\"CREATE_TIME\", \"LOG_APPEND_TIME\"]}},"
         "\"key\": {\"type\": \"blob\", \"optional\": true}, \"value\": {\"type\": \"blob\"},"
         "\"headers\": {\"type\": \"json\", \"default\": []}}}')");
    exec("CREATE VIRTUAL TABLE recs USING serde(MskRecord)");
    exec("CREATE VIRTUAL TABLE invs USING serde(StripeInvoice)");
    // distinct copies, same length: the invoice id and the record's offset/key vary
    exec("CREATE TABLE w_stripe(body TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
         std::to_string(DOCS) + ") INSERT INTO w_stripe SELECT replace(body, 'in_1PBqT9Jt8WcQm2Zp0hF4kLwE', printf('in_%024d', i)) "
         "FROM n, docs WHERE name = 'stripe'");
    exec("CREATE TABLE w_rec(body TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
         std::to_string(RECORDS) + ") INSERT INTO w_rec SELECT replace(replace(body, '902331', printf('%6d', i)), "
         "'b3JkXzhIUTJLNw==', printf('b3JkX%08dw==', i)) FROM n, docs WHERE name = 'record'");
    exec("CREATE TABLE w_batch(body TEXT); INSERT INTO w_batch SELECT '[' || group_concat(body, ',') || ']' FROM w_rec");
    exec("SELECT count(serde_decode('StripeInvoice', body)) FROM w_stripe");   // all valid

    // the paths of the invoice's fields (its document names), from serde_describe
    std::vector<std::string> paths, vcols;
    sqlite3_prepare_v2(db, "SELECT json_extract(f.value, '$.column'), coalesce((SELECT '$.' || group_concat(j.value, '.') FROM json_each(f.value, '$.path') j), "
                           "'$.' || json_extract(f.value, '$.name')) FROM json_each(serde_describe('StripeInvoice'), '$.fields') f "
                           "WHERE json_extract(f.value, '$.name') IS NOT NULL", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) {
        vcols.push_back((const char *)sqlite3_column_text(st, 0));
        paths.push_back((const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    std::string extract_all = "json_extract(body", arrows, vtab_cols;
    for (auto &c : vcols) vtab_cols += std::string(vtab_cols.empty() ? "" : ", ") + "count(r.\"" + c + "\")";
    for (auto &p : paths) {
        extract_all += ", '" + p + "'";
        arrows += std::string(arrows.empty() ? "" : ", ") + "count(body ->> '" + p + "')";
    }
    extract_all += ")";
    const char *rpaths[] = {"$.topic", "$.partition", "$.offset", "$.timestamp", "$.timestampType", "$.key", "$.value", "$.headers"};
    std::string each_cols, rec_extract = "json_extract(body";
    for (auto p : rpaths) {
        each_cols += std::string(each_cols.empty() ? "" : ", ") + "count(json_extract(e.value, '" + p + "'))";
        rec_extract += std::string(", '") + p + "'";
    }
    rec_extract += ")";

    std::vector<Stmt> stmts = {
        {"stripe", "vtab", "SELECT " + vtab_cols + " FROM w_stripe, invs(w_stripe.body) r", DOCS, {}},
        {"stripe", "serde_decode", "SELECT count(serde_decode('StripeInvoice', body)) FROM w_stripe", DOCS, {}},
        {"stripe", "json_extract", "SELECT count(" + extract_all + ") FROM w_stripe", DOCS, {}},
        {"stripe", "->>", "SELECT " + arrows + " FROM w_stripe", DOCS, {}},
        {"stripe", "floor", "SELECT count(bench_floor(body)) FROM w_stripe", DOCS, {}},
        {"records", "vtab", "SELECT count(r.topic), count(r.partition), count(r.record_offset), count(r.record_time), "
                            "count(r.timestamp_type), count(r.key), count(r.value), count(r.headers) FROM w_rec, recs(w_rec.body) r", RECORDS, {}},
        {"records", "json_each", "SELECT " + each_cols + " FROM w_batch, json_each(w_batch.body) e", RECORDS, {}},
        {"records", "json_extract", "SELECT count(" + rec_extract + ") FROM w_rec", RECORDS, {}},
        {"records", "floor", "SELECT count(bench_floor(body)) FROM w_rec", RECORDS, {}},
    };

    if (only) {                  // one statement, only_runs times (profiling)
        for (auto &s : stmts)
            if (std::string(s.group) + "/" + s.name == only) {
                sqlite3_stmt *q;
                if (sqlite3_prepare_v2(db, s.sql.c_str(), -1, &q, nullptr) != SQLITE_OK) die(s.name);
                for (int i = 0; i < only_runs; i++) run_once(q);
                sqlite3_finalize(q);
                sqlite3_close(db);
                return 0;
            }
        fprintf(stderr, "sqlite_bench: no statement %s\n", only);
        return 1;
    }

    // ---- the physical floor: no SQLite (measured in every round too) ---------------------------
    padded_string p_stripe(stripe), p_record(record);
    ondemand::parser raw_parser;
    auto raw_floor = [&](const padded_string &p, double budget_ns) {
        long n = 0;
        double t0 = now_ns(), dt = 0;
        while (dt < budget_ns || n < 10) {
            floor_walk::parse_one<floor_walk::TOUCH>(raw_parser, p);
            n++;
            dt = now_ns() - t0;
        }
        return dt / n;
    };
    std::vector<double> raw_s, raw_r;

    // ---- rounds, alternating order --------------------------------------------------------------
    for (int r = 0; r < rounds; r++) {
        double share = target_ms * 1e6 / (double)(stmts.size() + 2);
        if (r % 2 == 0) { raw_s.push_back(raw_floor(p_stripe, share)); raw_r.push_back(raw_floor(p_record, share)); }
        for (size_t k = 0; k < stmts.size(); k++) {
            Stmt &s = stmts[r % 2 ? stmts.size() - 1 - k : k];
            s.ns.push_back(measure(s, share));
        }
        if (r % 2 == 1) { raw_s.push_back(raw_floor(p_stripe, share)); raw_r.push_back(raw_floor(p_record, share)); }
    }

    // ---- report --------------------------------------------------------------------------------
    double load[3] = {0, 0, 0};
    if (FILE *f = fopen("/proc/loadavg", "r")) { if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1; fclose(f); }
    printf("SQLite %s, serde kernel chosen at load time; %d rounds x ~%.0f ms; load %.2f at the end\n\n",
           sqlite3_libversion(), rounds, target_ms, load[0]);
    printf("| group | statement | ns/doc (median) | serde is x faster (median of rounds) | min | max | / statement floor | / physical floor |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (const char *g : {"stripe", "records"}) {
        Stmt *serde = nullptr, *floor = nullptr;
        for (auto &s : stmts)
            if (!strcmp(s.group, g)) {
                if (!serde) serde = &s;
                if (!strcmp(s.name, "floor")) floor = &s;
            }
        const std::vector<double> &rawv = !strcmp(g, "stripe") ? raw_s : raw_r;
        double raw = median(rawv);
        for (auto &s : stmts) {
            if (strcmp(s.group, g)) continue;
            std::vector<double> ratio, vs_floor, vs_raw;
            for (int r = 0; r < rounds; r++) {
                ratio.push_back(s.ns[r] / serde->ns[r]);
                vs_floor.push_back(s.ns[r] / floor->ns[r]);
                vs_raw.push_back(s.ns[r] / rawv[r]);
            }
            double mn = *std::min_element(ratio.begin(), ratio.end()), mx = *std::max_element(ratio.begin(), ratio.end());
            printf("| %s | `%s` | %.0f | %s | %s | %s | %.2f | %.2f |\n", g, s.name, median(s.ns),
                   &s == serde ? "—" : (std::to_string(median(ratio)).substr(0, 5) + "x").c_str(),
                   &s == serde ? "" : std::to_string(mn).substr(0, 4).c_str(),
                   &s == serde ? "" : std::to_string(mx).substr(0, 4).c_str(), median(vs_floor), median(vs_raw));
        }
        printf("| %s | physical floor (simdjson walk, no SQLite) | %.0f | | | | | 1.00 |\n", g, raw);
    }
    printf("\nstripe: %zu fields extracted by json_extract / ->> (the invoice's columns, by document path); "
           "records: 8 fields. ns/doc = statement time / documents.\n", paths.size());
    sqlite3_close(db);
    return 0;
}
