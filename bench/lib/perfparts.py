#!/usr/bin/env python3
"""bench/lib/perfparts.py — split a profile of one workload's statement into its parts.

    perf record -e cpu-clock -F 4999 -g -p <backend pid> -o perf.data -- sleep 8   (while pgbench runs)
    perf script -i perf.data -F comm,ip,sym | python3 bench/lib/perfparts.py RAW_NS_PER_DOC

Every sample goes to the first part (in the order below) whose frame is on its stack: the
whole-row datum of count(d.*), the fetch (detoast), serde's jsonb builder, PostgreSQL's
heap_form_tuple and construct_md_array called from serde's converter, serde's walk (parse +
validate), the rest of serde's conversion, serde's call overhead, the Function Scan's composite
return, and the statement itself (scan, aggregate: mostly what the octet_length floor statement
does too). Prints each part's share of the samples and that share of RAW_NS_PER_DOC (the
statement's raw time per document from the same run's report). This is how the table "Why the
targets still missed are missed" in bench/RESULTS.md was made.
"""
import collections
import sys

PARTS = [
    ("whole-row datum for count(d.*)", ("ExecEvalWholeRowVar",)),
    ("fetch (detoast)", ("detoast_attr", "heap_tuple_untoast_attr", "pg_detoast_datum")),
    ("jsonb values (serde builder)", ("build_jsonb_prefixed", "sd_jsonb_from")),
    ("heap_form_tuple (PostgreSQL, from serde's converter)", None),
    ("construct_md_array (PostgreSQL)", ("construct_md_array",)),
    ("walk: parse + validate (serde, simdjson)", ("sd_decode_json",)),
    ("other conversion (serde)", ("conv",)),
    ("serde call overhead", ("pgs_decode", "decode_common")),
    ("composite return (Function Scan, tuplestore)", ("ExecMakeTableFunctionResult",)),
]
REST = "statement (scan, aggregate, executor)"
WALK = "walk: parse + validate (serde, simdjson)"
# serde's C++ walker is built without frame pointers: a sample taken inside it often has a
# truncated stack that names none of the parts above; its leaf frame still says it is the walk
WALK_LEAF = ("simdjson::", "(anonymous", "decode_members", "decode_object", "value_in", "sd_eng_",
             "sd_members_find", "sd_decode_json", "sd_scalar", "sd_parse")


def part_of(stack):
    def has(prefixes):
        return any(f.startswith(p) for f in stack for p in prefixes)
    for name, prefixes in PARTS:
        if prefixes is None:
            if has(("heap_form_tuple",)) and has(("conv",)):
                return name
        elif has(prefixes):
            return name
    if stack and stack[0].startswith(WALK_LEAF):
        return WALK
    return REST


def main():
    raw = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    counts = collections.Counter()
    total = 0
    stack = []

    def flush():
        nonlocal total
        if stack:
            total += 1
            counts[part_of(stack)] += 1
            stack.clear()

    for line in sys.stdin:
        parts = line.split()
        if not parts:
            flush()
            continue
        # frame lines: "<hex ip> <symbol>+off"; the sample's header line starts with the comm
        if len(parts) >= 2 and all(c in "0123456789abcdef" for c in parts[0]):
            stack.append(parts[1].split("+")[0])
    flush()
    if total == 0:
        sys.exit("perfparts: no samples on stdin (perf script -F comm,ip,sym)")
    for name, n in counts.most_common():
        share = n / total
        print(f"{100 * share:5.1f}%  {raw * share:9.0f} ns  {name}" if raw else f"{100 * share:5.1f}%  {name}")


if __name__ == "__main__":
    main()
