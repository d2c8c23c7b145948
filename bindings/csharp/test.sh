#!/usr/bin/env bash
# Compiles the C# package (Runtime/), its samples and its tests with Mono's C# compiler, then
# runs the tests against a built libtopoplan_c.so.
#   bindings/csharp/test.sh path/to/libtopoplan_c.so [OUT_DIR]
# DllImport("topoplan_c") resolves to libtopoplan_c.so through the dynamic loader: the library's
# directory goes first in LD_LIBRARY_PATH (Mono also looks beside the assembly). OUT_DIR
# (default: csharp/ beside the library) receives Topoplan.Runtime.dll, its XML docs and tests.exe.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 path/to/libtopoplan_c.so [OUT_DIR]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
libdir=$(cd "$(dirname "$1")" && pwd)
out=${2:-$libdir/csharp}
mkdir -p "$out"
out=$(cd "$out" && pwd)
mcs=(mcs -langversion:experimental -unsafe -warnaserror -nologo)

# Unity imports a package from a git URL read-only and ignores an asset without its .meta file:
# every file and folder outside the ~ folders has one, with a GUID of its own, and no .meta is
# left without its asset.
python3 - "$here" <<'PY'
import os, re, sys
root, guids, bad = sys.argv[1], {}, []
for d, dirs, files in os.walk(root):
    dirs[:] = [x for x in dirs if not x.endswith("~") and not x.startswith(".")]
    for name in dirs + [f for f in files if not f.endswith(".meta")]:
        path = os.path.join(d, name)
        if not os.path.exists(path + ".meta"):
            bad.append("no .meta for " + os.path.relpath(path, root))
            continue
        m = re.search(r"^guid: ([0-9a-f]{32})$", open(path + ".meta").read(), re.M)
        if not m or m.group(1) in guids:
            bad.append("missing or repeated guid in " + os.path.relpath(path, root) + ".meta")
        else:
            guids[m.group(1)] = path
    for f in files:
        if f.endswith(".meta") and not os.path.exists(os.path.join(d, f[:-5])):
            bad.append("a .meta without its asset: " + os.path.relpath(os.path.join(d, f), root))
if bad:
    sys.exit("bindings/csharp: " + "; ".join(bad))
PY

# The package: every public member documented (-warnaserror turns a missing comment into an error).
"${mcs[@]}" -target:library -doc:"$out/Topoplan.Runtime.xml" -out:"$out/Topoplan.Runtime.dll" \
  "$here"/Runtime/*.cs
# The engine samples, type-checked against stubs of the engine members they use.
"${mcs[@]}" -target:library -define:UNITY_5_3_OR_NEWER -out:"$out/Sample.Unity.dll" \
  -r:"$out/Topoplan.Runtime.dll" "$here/Samples~/Crowd/"*.cs "$here/Tests~/EngineStubs/UnityEngine.cs"
"${mcs[@]}" -target:library -define:UNITY_5_3_OR_NEWER -out:"$out/Sample.Village.Unity.dll" \
  -r:"$out/Topoplan.Runtime.dll" "$here/Samples~/Village/VillageDirector.cs" \
  "$here/Samples~/Village/VillageBehaviour.cs" "$here/Tests~/EngineStubs/UnityEngine.cs"
# The village as a console program: compiled and run below.
"${mcs[@]}" -out:"$out/village.exe" -r:"$out/Topoplan.Runtime.dll" "$here/Samples~/Village/VillageDirector.cs" \
  "$here/Samples~/Village/VillageConsole.cs"
# The same village loop in C, for the C# tests to compare event hashes with.
${CC:-cc} -std=c99 -O2 -Wall -Wextra -Werror -I"$repo/include" "$here/Tests~/village.c" -L"$libdir" \
  -ltopoplan_c -o "$out/village_c"
"${mcs[@]}" -target:library -define:GODOT -out:"$out/Sample.Godot.dll" \
  -r:"$out/Topoplan.Runtime.dll" "$here/Samples~/Crowd/CrowdDirector.cs" "$here/Samples~/Godot/"*.cs \
  "$here/Tests~/EngineStubs/Godot.cs"
# The tests, with the engine-agnostic sample they run.
"${mcs[@]}" -nowarn:1591 -out:"$out/tests.exe" -r:"$out/Topoplan.Runtime.dll" -r:System.Core.dll \
  "$here/Tests~/Runner.cs" "$here/Tests~/Tests.cs" "$here/Tests~/CrowdTests.cs" \
  "$here/Tests~/AgentTests.cs" "$here/Tests~/PendingTests.cs" \
  "$here/Samples~/Crowd/CrowdDirector.cs" "$here/Samples~/Village/VillageDirector.cs"

cd "$out"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
village=(2000 250 0.05 7)  # agents, frames, share sensing per frame, seed
read -r _ _ hash events < <("$out/village_c" "$repo/examples/agents/village.toml" "${village[@]}" | grep checksum) || true
if [ -z "${hash:-}" ]; then
  echo "bindings/csharp: Tests~/village.c printed no event hash" >&2
  exit 1
fi
export TOPOPLAN_VILLAGE_C="${village[*]} $hash $events"
# The console sample must run and agree with C.
sample=$(mono --debug village.exe "$repo/examples/agents/village.toml" "${village[@]}")
if ! grep -q "event hash $hash" <<<"$sample"; then
  echo "bindings/csharp: the village console sample's event hash differs from C's ($hash):" >&2
  tail -3 <<<"$sample" >&2
  exit 1
fi
echo "village sample: $(tail -2 <<<"$sample" | head -1)"
mono --debug tests.exe "$repo" "${3:-}"
