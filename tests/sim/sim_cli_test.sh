#!/usr/bin/env bash
# End-to-end checks of `topoplan sim`: exit codes, outputs, replay files, bad scenario files
# reported as file:line with exit 33.
set -uo pipefail
BIN="$1"
SRC="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fails=0
check() {  # check NAME EXPECTED_RC ACTUAL_RC
  if [[ "$2" != "$3" ]]; then
    echo "FAIL $1: exit $3, expected $2"
    fails=$((fails + 1))
  fi
}
expect_grep() {  # expect_grep NAME PATTERN FILE
  if ! grep -qE -- "$2" "$3"; then
    echo "FAIL $1: no /$2/ in:"
    head -5 "$3"
    fails=$((fails + 1))
  fi
}

# Arena: a few episodes per selector, the table and the tests.
"$BIN" sim "$SRC/domains/sim/arena.toml" --episodes 4 --quiet > "$TMP/a.txt" 2> "$TMP/a.err"
check arena 0 $?
expect_grep arena-table '^udgoap ' "$TMP/a.txt"
expect_grep arena-kw 'Kruskal-Wallis: H = ' "$TMP/a.txt"
[[ -s "$TMP/a.err" ]] && { echo "FAIL arena: --quiet wrote to stderr"; fails=$((fails + 1)); }
# Same seed, same JSON; any thread count.
"$BIN" sim "$SRC/domains/sim/arena.toml" --episodes 6 --json --seed 5 > "$TMP/j1.json"
"$BIN" sim "$SRC/domains/sim/arena.toml" --episodes 6 --json --seed 5 --threads 3 > "$TMP/j2.json"
cmp -s "$TMP/j1.json" "$TMP/j2.json" || {
  # CPU timings differ between runs; compare everything else.
  if ! diff <(grep -v cpu_us "$TMP/j1.json") <(grep -v cpu_us "$TMP/j2.json") > /dev/null; then
    echo "FAIL arena-json: --threads changed the results"
    fails=$((fails + 1))
  fi
}
/usr/bin/python3 -c "import json,sys; json.load(open('$TMP/j1.json'))" || {
  echo "FAIL arena-json: not JSON"; fails=$((fails + 1)); }
# Replay: header first, end last, every line JSON.
"$BIN" sim "$SRC/domains/sim/arena.toml" --selector goap --replay "$TMP/r.jsonl" --replay-every 2 > /dev/null
check replay 0 $?
head -1 "$TMP/r.jsonl" | grep -q '^{"type":"header","version":1,"scenario":"arena","selector":"goap","seed":1,"dt":0.05,"world":{"width":40,"height":40},"spots":\[{"name":"north"' ||
  { echo "FAIL replay: header"; head -c 300 "$TMP/r.jsonl"; fails=$((fails + 1)); }
tail -1 "$TMP/r.jsonl" | grep -q '^{"type":"end","tick":' || { echo "FAIL replay: end"; fails=$((fails + 1)); }
/usr/bin/python3 -c "
import json,sys
for i,l in enumerate(open('$TMP/r.jsonl')):
    json.loads(l)
" || { echo "FAIL replay: a line is not JSON"; fails=$((fails + 1)); }
# Trace.
"$BIN" sim "$SRC/domains/sim/arena.toml" --selector fsm --trace > "$TMP/t.txt"
check trace 0 $?
expect_grep trace 'replan \(no_plan\)' "$TMP/t.txt"
# House: both selectors and the ratio.
"$BIN" sim "$SRC/domains/sim/sims-house.toml" > "$TMP/h.txt"
check house 0 $?
expect_grep house 'UDGOAP / GOAP = ' "$TMP/h.txt"
"$BIN" sim "$SRC/domains/sim/sims-house.toml" --selector fsm > /dev/null 2>&1
check house-fsm 2 $?

# Hospital: a short run of the three selectors and a small crowd.
sed -e 's/^max_seconds = 240 .*/max_seconds = 20/' -e 's/^npcs = \[10000, 1000000\]/npcs = [1000]/' \
  -e 's/^seconds = 10 .*/seconds = 2/' "$SRC/domains/sim/hospital.toml" > "$TMP/hospital.toml"
"$BIN" sim "$TMP/hospital.toml" --quiet > "$TMP/hos.txt"
check hospital 0 $?
expect_grep hospital '^utility ' "$TMP/hos.txt"
expect_grep hospital-crowd '^ +1000 ' "$TMP/hos.txt"
# A run shorter than a second is reported as such, not rounded to "0 simulated s".
sed -e 's/^max_seconds = 240 .*/max_seconds = 0.05/' -e 's/^npcs = \[10000, 1000000\]/npcs = [10]/' \
  -e 's/^seconds = 10 .*/seconds = 0.05/' "$SRC/domains/sim/hospital.toml" > "$TMP/hospital-short.toml"
"$BIN" sim "$TMP/hospital-short.toml" --quiet > "$TMP/hos-short.txt"
check hospital-short 0 $?
expect_grep hospital-short-seconds '^; hospital: 32 NPCs, 0\.05 simulated s,' "$TMP/hos-short.txt"
expect_grep hospital-short-crowd-seconds 'thread\(s\)\), 0\.05 simulated s:$' "$TMP/hos-short.txt"

# Bad files: file:line and exit 33.
bad() {  # bad NAME LINE TEXT...
  local name="$1" line="$2"
  shift 2
  printf '%s\n' "$@" > "$TMP/$name.toml"
  "$BIN" sim "$TMP/$name.toml" --episodes 1 > /dev/null 2> "$TMP/$name.err"
  check "bad-$name" 33 $?
  expect_grep "bad-$name" "^$TMP/$name.toml:$line: " "$TMP/$name.err"
}
bad syntax 2 '[scenario]' 'kind = ' 
bad no-kind 1 '[scenario]' 'name = "x"'
bad kind 2 '[scenario]' 'kind = "zoo"'
bad unknown-key 3 '[scenario]' 'kind = "arena"' 'colour = 3'
bad dt 3 '[scenario]' 'kind = "arena"' 'dt = 0' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0'
bad spot-outside 6 '[scenario]' 'kind = "arena"' '[[spot]]' 'name = "a"' 'x = 0' 'y = 99'
bad dup-spot 9 '[scenario]' 'kind = "arena"' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0' '[[spot]]' '' 'name = "a"' 'x = 1' 'y = 0'
bad interval 4 '[scenario]' 'kind = "arena"' '[spawning]' 'antlion_interval = [5, 2]' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0'
bad prob 4 '[scenario]' 'kind = "arena"' '[wizard]' 'melee = { hit = 1.5 }' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0'
bad template 4 '[scenario]' 'kind = "arena"' '[udgoap]' 'template = "nope.toml"' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0'
bad house-gain 8 '[scenario]' 'kind = "house"' '[house]' 'start = "a"' '[[drive]]' 'name = "fun"' '[[action]]' 'gain = { nofun = 1 }' 'name = "x"' 'duration = 1' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0'
bad house-start 4 '[scenario]' 'kind = "house"' '[house]' 'start = "b"' '[[drive]]' 'name = "fun"' '[[spot]]' 'name = "a"' 'x = 0' 'y = 0'
bad hospital-crowd 4 '[scenario]' 'kind = "hospital"' '[crowd]' 'npcs = [10, -1]'
"$BIN" sim "$TMP/does-not-exist.toml" > /dev/null 2>&1
check missing-file 33 $?

if ((fails > 0)); then
  echo "$fails failure(s)"
  exit 1
fi
echo "sim cli: all checks passed"
