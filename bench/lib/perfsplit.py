#!/usr/bin/env python3
"""bench/lib/perfsplit.py — split the time under one function by its direct callees.

    perf script -i perf.data -F comm,sym | python3 bench/lib/perfsplit.py pgs_decode [depth]

For every sample whose stack contains FUNCTION, attribute it to the frame called directly by
FUNCTION (or 'self'), up to DEPTH levels below (default 1). Prints percentages of all samples
and of the samples under FUNCTION. Stacks come from `perf record -g`.
"""
import collections
import sys

target = sys.argv[1]
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 1
total = 0
under = 0
split = collections.Counter()
stack = []


def flush():
    global total, under
    if not stack:
        return
    total += 1
    # stack[0] is the leaf
    for i, s in enumerate(stack):
        if s == target:
            under += 1
            path = stack[max(0, i - depth):i][::-1]
            split[" > ".join(path) if path else "(self)"] += 1
            break


for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        flush()
        stack = []
        continue
    if line.startswith((" ", "\t")):
        parts = line.strip().split(None, 1)
        sym = parts[1] if len(parts) > 1 else parts[0]
        sym = sym.split("+0x")[0].strip()
        if sym.endswith(")") and " (" in sym:
            sym = sym[:sym.rindex(" (")]
        stack.append(sym)
flush()
print(f"{under} of {total} samples ({100.0 * under / max(total, 1):.1f}%) under {target}")
try:
  for k, v in split.most_common(40):
    print(f"{100.0 * v / max(total, 1):6.2f}% {100.0 * v / max(under, 1):6.2f}%  {k}")
except BrokenPipeError:
  pass
