#!/usr/bin/env bash
# The command line's doors: empty and selecting options of convert, unknown bench planners,
# sim options a scenario kind has no use for, outputs over any file a command reads (the
# scenario's UDGOAP template too), empty output names, the house's drive cap.
# Usage: doors_test.sh PATH/TO/topoplan SOURCE_DIR
set -uo pipefail
expect_timeout=120
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh" "$@"

hb=$src/domains/horse-breeder.toml

# --- empty goals: an error everywhere, as in the files
expect "plan --goal ' ' (empty goal)" 33 "--goal: the goal is empty" -- "$bin" plan "$hb" --goal ' '
expect "plan --goal '' is not 'not given'" 33 "--goal: " -- "$bin" plan "$hb" --goal ''
expect "convert --goal ' '" 33 "--goal: the goal is empty" -- "$bin" convert "$hb" --goal ' ' -o "$tmp/e.sas"
expect "... writes nothing" 1 '' -- test -e "$tmp/e.sas"
expect "plan --class ''" 33 "--class: empty name" -- "$bin" plan "$hb" --class ''

# --- convert --to native follows the selecting flags as plan does
expect "convert --to native --class Nobody" 33 "--class: no NPC class named 'Nobody'" -- "$bin" convert "$hb" --to native --class Nobody
expect "convert --to native --instance nope" 33 "no instance named 'nope'" -- "$bin" convert "$hb" --to native --instance nope
expect "convert --to native --goal" 0 '' -- "$bin" convert "$hb" --to native --goal haystack=inFeeder -o "$tmp/g.toml"
expect "... one instance, the goal given" 0 '^1$' -- bash -c 'grep -c "^\[\[instance\]\]" "$0"' "$tmp/g.toml"
want=$("$bin" plan "$hb" --goal haystack=inFeeder --planner exact | grep '^; cost')
expect "... plans as plan --goal does" 0 '' -- bash -c '[ "$("$0" plan "$1" --planner exact | grep "^; cost")" = "$2" ]' "$bin" "$tmp/g.toml" "$want"
expect "convert --to native without flags keeps every instance" 0 '' -- bash -c '[ "$("$0" convert "$1" --to native | grep -c "^\[\[instance\]\]")" = "$(grep -c "^\[\[instance\]\]" "$1")" ]' "$bin" "$hb"

# --- bench: an unknown planner is a usage error, as for plan
expect "bench --planners bogus" 2 "--planners: unknown planner 'bogus'" -- "$bin" bench --domain "$hb" --planners bogus
expect "bench --planners topo,bogus" 2 "unknown planner 'bogus'" -- "$bin" bench oneprv-5 --quick --planners topo,bogus

# --- sim: options a scenario kind has no use for
hosp=$src/domains/sim/hospital.toml
house=$src/domains/sim/sims-house.toml
expect "hospital --replay" 2 "--replay does not apply to a hospital scenario" -- "$bin" sim "$hosp" --replay "$tmp/h.jsonl"
expect "... writes nothing" 1 '' -- test -e "$tmp/h.jsonl"
expect "hospital --histogram" 2 "--histogram does not apply to a hospital scenario" -- "$bin" sim "$hosp" --histogram "$tmp/h.svg"
expect "hospital --trace" 2 "--trace does not apply to a hospital scenario" -- "$bin" sim "$hosp" --trace
expect "hospital --episodes 5" 2 "--episodes does not apply to a hospital scenario" -- "$bin" sim "$hosp" --episodes 5
expect "house --episodes 5" 2 "--episodes does not apply to a house scenario" -- "$bin" sim "$house" --episodes 5
expect "house --histogram" 2 "--histogram does not apply to a house scenario" -- "$bin" sim "$house" --histogram "$tmp/x.svg"
expect "arena --replay-every without --replay" 2 "--replay-every does not apply" -- "$bin" sim "$src/domains/sim/arena.toml" --replay-every 3 --episodes 1
expect "sim --replay ''" 2 "empty file name" -- "$bin" sim "$src/domains/sim/arena.toml" --replay '' --episodes 1
expect "sim --replay and --histogram on one file" 2 "name the same file" -- "$bin" sim "$src/domains/sim/arena.toml" --replay "$tmp/same" --histogram "$tmp/same" --episodes 1

# --- sim: no output over the UDGOAP template the scenario reads (nor the scenario)
cp "$src/domains/sim/arena.toml" "$src/domains/sim/arena-udgoap.toml" "$tmp/"
before=$(md5sum <"$tmp/arena-udgoap.toml")
expect "sim --replay onto the UDGOAP template" 33 "refusing to write the output over the input file .*arena-udgoap.toml" -- "$bin" sim "$tmp/arena.toml" --selector goap --replay "$tmp/arena-udgoap.toml"
expect "sim --histogram onto the UDGOAP template" 33 "refusing to write the output over the input file" -- "$bin" sim "$tmp/arena.toml" --selector goap --episodes 2 --histogram "$tmp/arena-udgoap.toml"
ln -s arena-udgoap.toml "$tmp/link.jsonl"
expect "... nor through a symbolic link" 33 "refusing to write the output over the input file" -- "$bin" sim "$tmp/arena.toml" --selector goap --replay "$tmp/link.jsonl"
expect "... the template is unchanged" 0 '' -- test "$before" = "$(md5sum <"$tmp/arena-udgoap.toml")"
expect "sim --replay onto the scenario" 33 "refusing to write the output over the input file" -- "$bin" sim "$tmp/arena.toml" --replay "$tmp/arena.toml"

# --- sim: the streamed replay is whole (header first, end last) and nothing is left beside it
expect "arena replay" 0 '' -- "$bin" sim "$tmp/arena.toml" --selector goap --replay "$tmp/r.jsonl" --quiet
expect "... header first" 0 '' -- bash -c 'head -1 "$0" | grep -q "^{\"type\":\"header\",\"version\":1,.*\"agents\":\[{\"id\":0,\"name\":\"wizard\""' "$tmp/r.jsonl"
expect "... end last" 0 '' -- bash -c 'tail -1 "$0" | grep -q "^{\"type\":\"end\""' "$tmp/r.jsonl"
expect "... every antlion of the lines is in the header" 0 '' -- bash -c 'for id in $(grep -o "\"npc\":[0-9]*" "$0" | sort -u | cut -d: -f2); do head -1 "$0" | grep -q "{\"id\":$id," || exit 1; done' "$tmp/r.jsonl"
expect "... no temporary file left" 0 '' -- bash -c '! ls -A "$0" | grep -q "tmp\|topoplan-replay"' "$tmp"
expect "house replay" 0 '' -- "$bin" sim "$house" --selector goap --replay "$tmp/house.jsonl" --quiet
expect "... header first, end last" 0 '' -- bash -c 'head -1 "$0" | grep -q "^{\"type\":\"header\"" && tail -1 "$0" | grep -q "^{\"type\":\"end\""' "$tmp/house.jsonl"

# --- empty output names are errors, not standard output
expect "plan -o ''" 2 "empty file name" -- "$bin" plan "$hb" -o ''
expect "convert -o ''" 2 "empty file name" -- "$bin" convert "$hb" -o ''

# --- the house's drives are capped
{
  sed -n '1,/^\[\[drive\]\]/p' "$house" | sed '$d'
  for i in $(seq 1 65); do printf '[[drive]]\nname = "d%d"\ndecay = 0.1\ninitial = 50\n\n' "$i"; done
} >"$tmp/drives.toml"
expect "a house with 65 drives" 33 "too many \[\[drive\]\] tables: at most 64" -- "$bin" sim "$tmp/drives.toml"

# --- a plan file with a UTF-8 byte-order mark reads as without it
"$bin" plan "$hb" -o "$tmp/p.plan" >/dev/null
printf '\xef\xbb\xbf' >"$tmp/bom.plan" && cat "$tmp/p.plan" >>"$tmp/bom.plan"
expect "validate a plan file with a byte-order mark" 0 '' -- "$bin" validate "$hb" "$tmp/bom.plan"

summary
