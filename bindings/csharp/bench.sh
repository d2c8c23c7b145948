#!/usr/bin/env bash
# The C# door's overhead next to C's, in one run: the same crowd batch (NPCS NPCs of DOMAIN, one
# thread, no cache), one plan (ℙ's hot path; the registry by name) and the agents village
# (AGENTS agents of examples/agents/village.toml, 5 % of them sensing a random fact per frame,
# FRAMES frames of which the first fifth are not timed: Tests~/village.c against
# Samples~/Village/VillageDirector.cs), alternating C and C# ROUNDS times (each side first in every
# other round); prints each round and the medians. Thread CPU time.
#   bindings/csharp/bench.sh path/to/libtopoplan_c.so [NPCS] [ROUNDS] [DOMAIN] [AGENTS] [FRAMES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
libdir=$(cd "$(dirname "$1")" && pwd)
npcs=${2:-1000000}
rounds=${3:-3}
domain=$(realpath "${4:-$repo/domains/western.toml}")  # C# runs in OUT_DIR
agents=${5:-1000000}
frames=${6:-60}
village=("$repo/examples/agents/village.toml" "$agents" "$frames" 0.05 1 1 $((frames / 5)))
out=$libdir/csharp
mkdir -p "$out"
cc -std=c99 -O2 -Wall -Wextra -Werror -I"$repo/include" "$here/Tests~/bench.c" -L"$libdir" -ltopoplan_c -o "$out/bench_c"
cc -std=c99 -O2 -Wall -Wextra -Werror -I"$repo/include" "$here/Tests~/village.c" -L"$libdir" -ltopoplan_c -o "$out/village_c"
mcs -langversion:experimental -unsafe -nologo -optimize+ -target:library -out:"$out/Topoplan.Runtime.dll" \
  "$here"/Runtime/*.cs
mcs -langversion:experimental -unsafe -nologo -optimize+ -out:"$out/bench.exe" -r:"$out/Topoplan.Runtime.dll" \
  "$here/Tests~/Bench.cs" "$here/Samples~/Village/VillageDirector.cs"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
results=$(mktemp)
run_c() {
  "$out/bench_c" "$domain" "$npcs" | tee -a "$results"
  "$out/village_c" "${village[@]}" | tee -a "$results"
}
run_cs() {
  (cd "$out" && mono --optimize=all bench.exe "$domain" "$npcs") | tee -a "$results"
  (cd "$out" && mono --optimize=all bench.exe agents "${village[@]}") | tee -a "$results"
}
for ((r = 0; r < rounds; ++r)); do  # alternate which side goes first
  if ((r % 2 == 0)); then run_c; run_cs; else run_cs; run_c; fi
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if "checksum" not in l]
med = {}
for who, what, v in rows:
    med.setdefault((who, what), []).append(float(v))
sums = {}
for l in open(sys.argv[1]):
    if "checksum" in l:
        who, what, *rest = l.split()
        sums.setdefault(what, {}).setdefault(who, set()).add(tuple(rest))
for what, by in sums.items():
    assert len(by["c"]) == 1 and by["c"] == by["cs"], f"C and C# answered differently ({what}): {by}"
for what, unit in (("call", "ns per batch call of 1 NPC"), ("crowd", "ns per NPC"), ("topo", "ns per plan (hot path)"), ("plan", "ns per plan (by name)"),
                   ("agents", "ns per agent per update"), ("agents-frame", "ns per agent per frame, engine calls included")):
    c, cs = statistics.median(med["c", what]), statistics.median(med["cs", what])
    print(f"median {what}: C {c:.1f}, C# {cs:.1f} {unit} ({100 * (cs - c) / c:+.1f} %)")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$results"
