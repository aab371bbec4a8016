#!/usr/bin/env bash
# circles.sh — no call circle between source files.  From `nm` over the built objects it draws the
# graph "file A calls (or takes the address of) a function defined in file B", for the PostgreSQL
# library (src/core + src/pg) and the SQLite library (src/core + sqlite/), computes its strongly
# connected components (Tarjan) and fails on every component of more than one file, listing the
# files and, for each edge inside it, the symbols that tie them.  The JSON walker's per-kernel
# objects (json_walk_<kernel>.o, json_dispatch.o) are one node, "json_walk".  Only functions count
# (a symbol of type T, W or i in the defining object); data and outside libraries do not.
set -euo pipefail
cd "$(dirname "$0")/.."

# The objects: the PostgreSQL build (core, walker kernels, adapter) and the SQLite adapter's own
# objects (its copy of the core is the same code as src/core/*.o).  Incremental: nothing is
# rebuilt when it is up to date.
make -s all >/dev/null
sq_objs=()
for c in sqlite/*.c; do sq_objs+=("sqlite/build/$(basename "${c%.c}").o"); done
make -s "${sq_objs[@]}" >/dev/null

python3 - "$@" <<'PY'
import glob, os, subprocess, sys

def node_of(obj):
    base = os.path.basename(obj)
    if base.startswith("json_walk_") or base == "json_dispatch.o":
        return "json_walk"
    if obj.startswith("sqlite/build/"):
        return "sqlite/" + base[:-2] + ".c"
    return obj[:-2] + ".c"

# Objects from the sources (a stale object of a deleted source is not read).
core = [c[:-2] + ".o" for c in sorted(glob.glob("src/core/*.c"))]
core += sorted(glob.glob("src/core/json_walk_*.o")) + ["src/core/json_dispatch.o"]
pg = [c[:-2] + ".o" for c in sorted(glob.glob("src/pg/*.c"))]
sq = ["sqlite/build/" + os.path.basename(c)[:-2] + ".o" for c in sorted(glob.glob("sqlite/*.c"))]
for o in core + pg + sq:
    if not os.path.exists(o):
        sys.exit("FAIL: object %s is missing after the build" % o)

defined, undefined = {}, {}
for o in core + pg + sq:
    d, u = set(), set()
    out = subprocess.run(["nm", o], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] in ("U", "w"):
            u.add(f[1])
        elif len(f) == 3 and f[1] in ("T", "W", "i"):
            d.add(f[2])
    defined[o], undefined[o] = d, u

# edges[a][b] = symbols a uses that b defines, resolved within each library.
edges, nodes = {}, set()
for lib in (core + pg, core + sq):
    owner = {}
    for o in lib:
        for s in defined[o]:
            owner.setdefault(s, set()).add(node_of(o))
    for o in lib:
        a = node_of(o)
        nodes.add(a)
        for s in undefined[o]:
            for b in owner.get(s, ()):
                if b != a:
                    edges.setdefault(a, {}).setdefault(b, set()).add(s)

nodes = sorted(nodes)
nedges = sum(len(v) for v in edges.values())
nrefs = sum(len(s) for v in edges.values() for s in v.values())

# Tarjan's strongly connected components (iterative).
index, low, onstack, stack, comps = {}, {}, set(), [], []
counter = 0
for root in nodes:
    if root in index:
        continue
    work = [(root, iter(sorted(edges.get(root, {}))))]
    index[root] = low[root] = counter; counter += 1
    stack.append(root); onstack.add(root)
    while work:
        v, it = work[-1]
        advanced = False
        for w in it:
            if w not in index:
                index[w] = low[w] = counter; counter += 1
                stack.append(w); onstack.add(w)
                work.append((w, iter(sorted(edges.get(w, {})))))
                advanced = True
                break
            if w in onstack:
                low[v] = min(low[v], index[w])
        if advanced:
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); onstack.discard(w); comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))

print("call graph: %d files, %d file-to-file edges, %d symbol references" % (len(nodes), nedges, nrefs))
bad = sorted((c for c in comps if len(c) > 1), key=lambda c: (-len(c), c))
for c in bad:
    print("\nFAIL: call circle of %d files: %s" % (len(c), " ".join(c)))
    inside = set(c)
    for a in c:
        for b in sorted(edges.get(a, {})):
            if b in inside:
                print("  %s -> %s: %s" % (a, b, " ".join(sorted(edges[a][b]))))
if bad:
    print("\nFAIL: %d call circle(s), %d files in them" % (len(bad), sum(len(c) for c in bad)))
    sys.exit(1)
print("ok: no call circle between files")
PY
