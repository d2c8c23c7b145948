#!/usr/bin/env python3
# Generates a large native domain for the memory figure of docs/formats.md (peak RSS of the
# native reader): 2,000 variables and N actions (default 351,600: 50.0 MB).
#   scripts/gen-big-native.py [N] > big.toml
import random, sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 351600
r = random.Random(1)
out = sys.stdout
out.write('[domain]\nname = "big"\n')
V = 2000
for v in range(V):
    out.write(f'\n[[variable]]\nname = "var{v}"\nvalues = ["a", "b", "c", "d"]\n')
for a in range(n):
    x, y, z = r.sample(range(V), 3)
    out.write(f'\n[[action]]\nname = "action-number-{a:07d}"\ncost = {1 + a % 5}\n'
              f'pre = {{ var{x} = "a" }}\npost = {{ var{x} = "b" }}\n'
              f'prevail = {{ var{y} = "c", var{z} = "d" }}\n')
out.write('\n[[class]]\nname = "all"\nactions = ["action-number-0000000"]\n')
out.write('\n[[instance]]\nname = "i"\ninit = { ' + ', '.join(f'var{v} = "a"' for v in range(V)) + ' }\ngoal = { var0 = "b" }\n')
