#!/usr/bin/env bash
# Builds the README's library example verbatim: the first ```cpp block and the first ```cmake
# block of README.md's "## Library" section become morning.cpp and CMakeLists.txt, configured
# against an installed topoplan (PREFIX), built, and run on the Horse Breeder (6 actions).
# Usage: tests/readme/build_snippet.sh PREFIX BUILD_DIR   (from the repository root)
set -euo pipefail
prefix=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir/src"
section() { awk '/^## Library$/ {on=1; next} /^## / {on=0} on' README.md; }
# No early `exit` in the reader: with pipefail, section's awk could then die of SIGPIPE (exit 141).
block() { section | awk -v lang="$1" '$0 == "```" lang && !done {on=1; next} /^```$/ && on {on=0; done=1} on'; }
block cpp >"$dir/src/morning.cpp"
block cmake >"$dir/src/CMakeLists.txt"
[ -s "$dir/src/morning.cpp" ] && [ -s "$dir/src/CMakeLists.txt" ] || {
  echo "README.md: no \`\`\`cpp or \`\`\`cmake block under '## Library'" >&2
  exit 1
}
cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$dir/build"
out=$("$dir/build/morning" domains/horse-breeder.toml)
echo "$out"
[ "$(grep -c '^(' <<<"$out")" -eq 6 ] || { echo "README snippet: expected 6 actions" >&2; exit 1; }
