#!/usr/bin/env python3
"""gen.py — regenerate fixtures/jsontestsuite/test_parsing.tsv from JSONTestSuite's test_parsing/.

    python3 test/conformance/gen.py [SOURCE_DIR]

SOURCE_DIR defaults to ../shared/data/JSONTestSuite/test_parsing (relative to the repository
root), i.e. nst/JSONTestSuite commit 1ef36fa, MIT license (fixtures/jsontestsuite/LICENSE).

Output: one line per file, sorted by name (byte order), `name<TAB>base64(content)`, no header, no
line wrapping inside the base64 — a file psql's \\copy reads as text format (neither column can
contain a tab, newline or backslash).  sql/conformance.sql decodes the base64 back into the exact
bytes with decode(b64, 'base64') and feeds them to serde_errors(NULL::json, doc bytea).
"""
import base64
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_SRC = os.path.join(ROOT, "..", "shared", "data", "JSONTestSuite", "test_parsing")
OUT = os.path.join(ROOT, "fixtures", "jsontestsuite", "test_parsing.tsv")


def main() -> int:
    src = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SRC
    names = sorted(n for n in os.listdir(src) if n.endswith(".json"))
    if not names:
        print(f"gen.py: no .json files in {src}", file=sys.stderr)
        return 1
    counts = {"y": 0, "n": 0, "i": 0}
    lines = []
    for name in names:
        prefix = name[:1]
        if name[1:2] != "_" or prefix not in counts:
            print(f"gen.py: unexpected file name {name}", file=sys.stderr)
            return 1
        if any(c in name for c in "\t\n\\"):
            print(f"gen.py: file name not COPY-safe: {name!r}", file=sys.stderr)
            return 1
        counts[prefix] += 1
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        lines.append(f"{name}\t{base64.b64encode(data).decode('ascii')}\n")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="ascii", newline="\n") as f:
        f.writelines(lines)
    print(f"gen.py: wrote {OUT}: {len(names)} files "
          f"(y_ {counts['y']}, n_ {counts['n']}, i_ {counts['i']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
