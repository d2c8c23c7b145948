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
mcs=(mcs -langversion:experimental -unsafe -warnaserror -nologo)

# The package: every public member documented (-warnaserror turns a missing comment into an error).
"${mcs[@]}" -target:library -doc:"$out/Topoplan.Runtime.xml" -out:"$out/Topoplan.Runtime.dll" \
  "$here"/Runtime/*.cs
# The engine samples, type-checked against stubs of the engine members they use.
"${mcs[@]}" -target:library -define:UNITY_5_3_OR_NEWER -out:"$out/Sample.Unity.dll" \
  -r:"$out/Topoplan.Runtime.dll" "$here/Samples~/Crowd/"*.cs "$here/Tests~/EngineStubs/UnityEngine.cs"
"${mcs[@]}" -target:library -define:GODOT -out:"$out/Sample.Godot.dll" \
  -r:"$out/Topoplan.Runtime.dll" "$here/Samples~/Crowd/CrowdDirector.cs" "$here/Samples~/Godot/"*.cs \
  "$here/Tests~/EngineStubs/Godot.cs"
# The tests, with the engine-agnostic sample they run.
"${mcs[@]}" -nowarn:1591 -out:"$out/tests.exe" -r:"$out/Topoplan.Runtime.dll" -r:System.Core.dll \
  "$here/Tests~/Runner.cs" "$here/Tests~/Tests.cs" "$here/Samples~/Crowd/CrowdDirector.cs"

cd "$out"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono --debug tests.exe "$repo" "${3:-}"
