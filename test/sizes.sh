#!/usr/bin/env bash
# sizes.sh — honest file sizes in src/core, src/pg and sqlite/: no source file over 1,500 lines,
# where a header that is a fragment of one translation unit (only one source file includes it and
# it defines functions, e.g. json_walk_keys.h inside json_walk.cpp) counts toward its includer's total;
# and no header defines an extern function (one neither static nor inline nor inside an anonymous
# namespace at every place it is included): such a header is a .c in disguise and fails.
# Reads the sources only (comments, strings and preprocessor lines aside); needs no build.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - "${SERDE_MAX_LINES:-1500}" <<'PY'
import glob, os, re, sys

LIMIT = int(sys.argv[1])
files = sorted(f for d in ("src/core", "src/pg", "sqlite")
               for ext in ("c", "cpp", "h") for f in glob.glob("%s/*.%s" % (d, ext)))

def strip(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j)); i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)

ATTR = re.compile(r"__attribute__\s*\(\(.*?\)\)|\[\[.*?\]\]", re.S)
TRAIL = re.compile(r"\)\s*(const|noexcept|override|final|\s)*$")

def scan(path):
    """(functions, includes): functions as (name, internal linkage?), includes as
    (name, inside an anonymous namespace?)."""
    text = strip(open(path, encoding="utf-8", errors="replace").read())
    funcs, incs, stack, head = [], [], [], []
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.lstrip().startswith("#"):
            m = re.match(r'\s*#\s*include\s*"', line)
            if m:
                # the name was blanked with the string: read it from the raw line
                raw = open(path, encoding="utf-8", errors="replace").read().split("\n")[k]
                name = re.search(r'#\s*include\s*"([^"]+)"', raw)
                if name:
                    incs.append((name.group(1), "anon" in stack))
            while line.endswith("\\") and k + 1 < len(lines):
                k += 1; line = lines[k]
            k += 1
            continue
        for ch in line + "\n":
            depth = stack.count("block")
            if ch == "{":
                if depth == 0:
                    h = " ".join("".join(head).split())
                    if re.fullmatch(r'extern\s*""', h) or re.fullmatch(r"namespace\s+[\w:]+", h):
                        stack.append("open")
                    elif re.fullmatch(r"namespace", h):
                        stack.append("anon")
                    else:
                        body = ATTR.sub(" ", h)
                        if TRAIL.search(body) and "(" in body and not body.rstrip().endswith("="):
                            m = re.search(r"([A-Za-z_]\w*)\s*\(", body)
                            pre = body[:m.start()] if m else body
                            words = set(re.findall(r"\w+", pre))
                            internal = bool(words & {"static", "inline", "template"}) or "anon" in stack
                            funcs.append((m.group(1) if m else body, internal))
                        stack.append("block")
                    head = []
                else:
                    stack.append("block")
            elif ch == "}":
                if stack:
                    stack.pop()
                if stack.count("block") == 0:
                    head = []
            elif ch == ";" and depth == 0:
                head = []
            elif depth == 0:
                head.append(ch)
        k += 1
    return funcs, incs

info = {f: scan(f) for f in files}
size = {f: sum(1 for _ in open(f, encoding="utf-8", errors="replace")) for f in files}

def resolve(includer, name):
    for d in (os.path.dirname(includer), "src/core"):
        p = os.path.normpath(os.path.join(d, name))
        if p in info:
            return p
    return None

includers = {}
for f in files:
    for name, anon in info[f][1]:
        p = resolve(f, name)
        if p:
            includers.setdefault(p, []).append((f, anon))

fail = 0
owner = {}
for h in (f for f in files if f.endswith(".h")):
    funcs = info[h][0]
    inc = includers.get(h, [])
    all_anon = bool(inc) and all(a for _, a in inc)
    ext = [n for n, internal in funcs if not internal and not all_anon]
    if ext:
        print("FAIL: %s defines extern function(s) %s: it becomes a .c" % (h, ", ".join(ext)))
        fail = 1
    if funcs and len(set(f for f, _ in inc)) == 1:
        owner[h] = inc[0][0]

def unit_of(h):
    seen = set()
    while h in owner and h not in seen:
        seen.add(h); h = owner[h]
    return h

total, parts = dict(size), {}
for h in owner:
    u = unit_of(h)
    if u != h:
        total[u] += size[h]
        parts.setdefault(u, []).append(h)

units = [f for f in files if f not in owner or unit_of(f) == f]
for u in sorted(units, key=lambda f: -total[f]):
    if total[u] > LIMIT:
        what = " + ".join(["%s (%d)" % (u, size[u])] + ["%s (%d)" % (p, size[p]) for p in sorted(parts.get(u, []))])
        print("FAIL: %s = %d lines, over %d" % (what, total[u], LIMIT))
        fail = 1
print("%d files (%d headers counted as fragments of one translation unit: %s); largest: %s"
      % (len(files), len(owner),
         ", ".join("%s in %s" % (os.path.basename(h), os.path.basename(unit_of(h))) for h in sorted(owner)),
         ", ".join("%s %d" % (u, total[u]) for u in sorted(units, key=lambda f: -total[f])[:5])))
print("FAIL: file sizes" if fail else "ok: no file over %d lines, no header defines an extern function" % LIMIT)
sys.exit(fail)
PY
