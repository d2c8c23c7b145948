#!/usr/bin/env bash
# The C# door's overhead next to C's, in one run: the same crowd batch (NPCS NPCs of DOMAIN, one
# thread, no cache) and one plan (ℙ's hot path; the registry by name), alternating C and C#
# ROUNDS times (each side first in every other round); prints each round and the medians. Thread CPU time.
#   bindings/csharp/bench.sh path/to/libtopoplan_c.so [NPCS] [ROUNDS] [DOMAIN]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
libdir=$(cd "$(dirname "$1")" && pwd)
npcs=${2:-1000000}
rounds=${3:-3}
domain=${4:-$repo/domains/western.toml}
out=$libdir/csharp
mkdir -p "$out"
cc -std=c99 -O2 -Wall -Wextra -Werror -I"$repo/include" "$here/Tests~/bench.c" -L"$libdir" -ltopoplan_c -o "$out/bench_c"
mcs -langversion:experimental -unsafe -nologo -optimize+ -target:library -out:"$out/Topoplan.Runtime.dll" \
  "$here"/Runtime/*.cs
mcs -langversion:experimental -unsafe -nologo -optimize+ -out:"$out/bench.exe" -r:"$out/Topoplan.Runtime.dll" \
  "$here/Tests~/Bench.cs"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
results=$(mktemp)
run_c() { "$out/bench_c" "$domain" "$npcs" | tee -a "$results"; }
run_cs() { (cd "$out" && mono --optimize=all bench.exe "$domain" "$npcs") | tee -a "$results"; }
for ((r = 0; r < rounds; ++r)); do  # alternate which side goes first
  if ((r % 2 == 0)); then run_c; run_cs; else run_cs; run_c; fi
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if "checksum" not in l]
med = {}
for who, what, v in rows:
    med.setdefault((who, what), []).append(float(v))
sums = {l.split()[0]: l.split()[2:] for l in open(sys.argv[1]) if "checksum" in l}
assert sums["c"] == sums["cs"], f"C and C# answered differently: {sums}"
for what, unit in (("call", "ns per batch call of 1 NPC"), ("crowd", "ns per NPC"), ("topo", "ns per plan (hot path)"), ("plan", "ns per plan (by name)")):
    c, cs = statistics.median(med["c", what]), statistics.median(med["cs", what])
    print(f"median {what}: C {c:.1f}, C# {cs:.1f} {unit} ({100 * (cs - c) / c:+.1f} %)")
PY
rm -f "$results"
