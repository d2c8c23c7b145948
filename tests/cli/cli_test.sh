#!/usr/bin/env bash
# End-to-end checks of the topoplan command line: outputs, exit codes, error messages.
# Usage: cli_test.sh PATH/TO/topoplan SOURCE_DIR
set -uo pipefail
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh" "$@"

hb=$src/domains/horse-breeder.toml

# plan + validate, native file, every planner that applies
for planner in auto exact astar; do
  expect "plan hb ($planner)" 0 '' -- "$bin" plan "$hb" --planner "$planner" -o "$tmp/$planner.plan"
  expect "plan hb ($planner) cost line" 0 '^; cost = 6 \(unit cost\)$' -- cat "$tmp/$planner.plan"
  expect "plan hb ($planner) writes 6 actions" 0 '' -- test "$(grep -c '^(' "$tmp/$planner.plan")" -eq 6
  expect "validate hb ($planner)" 0 '^valid plan: 6 actions, cost 6' -- "$bin" validate "$hb" "$tmp/$planner.plan"
done
expect "plan to stdout" 0 '^\(PickUpBucket\)$' -- "$bin" plan "$hb"
# horse-breeder has 18 states: auto's A* goes first (kTinyStates, src/runtime/planner/auto_hot.cpp)
expect "stats name the engine" 0 'engine: astar,' -- "$bin" plan "$hb" --stats
expect "exact stats name exact" 0 'engine: exact,' -- "$bin" plan "$hb" --planner exact --stats

# auto = ℙ, then A* within bounded limits, then kLimitReached (never the exact search)
cat >"$tmp/twin.toml" <<'EOF2'
[domain]
name = "twin"
[[variable]]
name = "a"
values = ["0", "1", "2", "3"]
[[variable]]
name = "b"
values = ["0", "1", "2", "3"]
[[action]]
name = "both-1"
pre = { a = "0", b = "0" }
post = { a = "1", b = "1" }
[[action]]
name = "both-2"
pre = { a = "1", b = "1" }
post = { a = "2", b = "2" }
[[action]]
name = "both-3"
pre = { a = "2", b = "2" }
post = { a = "3", b = "3" }
[[instance]]
name = "up"
init = { a = "0", b = "0" }
goal = { a = "3", b = "3" }
EOF2
expect "auto: A* answers what topo refuses" 0 'engine: astar,' -- "$bin" plan "$tmp/twin.toml" --stats
expect "auto: the reason is its own field" 0 '^; reason: topo unsupported' -- "$bin" plan "$tmp/twin.toml" --stats
expect "auto: A* plan is optimal" 0 '^; cost = 3 ' -- "$bin" plan "$tmp/twin.toml"
expect "auto: limit reached exits 12" 12 "default planner's limits.*the planner 'exact'" -- "$bin" plan "$tmp/twin.toml" --max-expansions 1
expect "auto: --time-limit is accepted" 0 '^; cost = 3 ' -- "$bin" plan "$tmp/twin.toml" --time-limit 5
expect "exact only when asked" 0 'engine: exact,' -- "$bin" plan "$tmp/twin.toml" --planner exact --stats

# GOAP levels: check says per instance what ℙ gives; bench goap-levels validates every plan
castle=$src/domains/goap/castle-guard.toml
expect "check: per-instance section" 0 'raise-alarm \(guard\): goal of 2 fact\(s\), partial' -- "$bin" check "$castle"
expect "check json: partial goals" 0 '"partial_goal": true' -- "$bin" check "$castle" --json
expect "castle guard: 5-action plan" 0 '^; cost = 5 ' -- "$bin" plan "$castle" --instance raise-alarm
expect "castle guard: recruit cannot sound the alarm" 11 'unsolvable' -- "$bin" plan "$castle" --instance recruit-sounds-alarm
expect "bench goap-levels" 0 'answered by topo: .*invalid plans 0' -- "$bin" bench goap-levels --levels 5
expect "bench goap-goto" 0 'GoTo chain' -- "$bin" bench goap-goto --quick --reps 1
# bench --domain FILE: the file's instances, every planner through the registry
expect "bench --domain" 0 'summary \(6 instances of western-pus, cycled\):  topo .* backstrom ' -- "$bin" bench --domain "$src/domains/western-pus.toml" --planners topo,backstrom,astar-back --reps 1
expect "bench --domain: unsolvable instance skips" 0 'skipped: exact: no plan for .*unsolvable' -- "$bin" bench --domain "$src/domains/horse-breeder.toml" --planners exact --reps 1
expect "bench --domain: missing file" 33 'cannot open' -- "$bin" bench --domain "$tmp/none.toml"
expect "bench: FAMILY or --domain" 2 'FAMILY or --domain' -- "$bin" bench

# the paper's instances, chosen by --init/--goal
expect "Prévost et al. 2023: haystack in hands needs 7" 0 '^; cost = 7 ' -- "$bin" plan "$hb" --init "haystack=inHands,bucket=none,water=inSource" --goal "haystack=inFeeder,bucket=none,water=inTrough"
expect "Prévost et al. 2022: one action" 0 '^; cost = 1 ' -- "$bin" plan "$hb" --init "haystack=inHands,bucket=none,water=inSource" --goal "haystack=inFeeder,bucket=none,water=inSource"
expect "unsolvable exits 11" 11 'unsolvable' -- "$bin" plan "$hb" --init "haystack=inFeeder,bucket=none,water=inSource" --goal "haystack=inFeeder,bucket=none,water=inTrough"
expect "exact: unsolvable exits 11" 11 '' -- "$bin" plan "$hb" --planner exact --init "haystack=inFeeder,bucket=none,water=inSource" --goal "haystack=inFeeder,bucket=none,water=inTrough"
expect "node limit exits 12" 12 'limit' -- "$bin" plan "$hb" --planner exact --max-expansions 1
expect "memory limit exits 12" 12 "memory limit" -- "$bin" plan "$src/domains/oneprv-5-m10.toml" --planner exact --max-memory 1
expect "bad memory limit is a usage error" 2 '' -- "$bin" plan "$hb" --max-memory 0
expect "partial goal" 0 '^; cost = 2 ' -- "$bin" plan "$hb" --goal "haystack=inFeeder"

# Fast Downward files: convert, plan, validate against both forms
expect "convert to sas" 0 '' -- "$bin" convert "$hb" -o "$tmp/hb.sas"
expect "plan sas" 0 '' -- "$bin" plan "$tmp/hb.sas" -o "$tmp/sas.plan"
expect "plan sas cost line" 0 '^; cost = 6 \(unit cost\)$' -- cat "$tmp/sas.plan"
expect "validate sas plan on sas" 0 '^valid plan' -- "$bin" validate "$tmp/hb.sas" "$tmp/sas.plan"
expect "validate sas plan on native" 0 '^valid plan' -- "$bin" validate "$hb" "$tmp/sas.plan"
expect "shipped sas file plans" 0 '^; cost = 6 ' -- "$bin" plan "$src/domains/horse-breeder.sas"

# invalid plans
printf '(TakeHaystack)\n(PickUpBucket)\n' >"$tmp/bad.plan"
expect "invalid plan exits 1" 1 "step 2 \(PickUpBucket\): prevail-condition 'haystack=none'" -- "$bin" validate "$hb" "$tmp/bad.plan"
printf '(TakeHaystack)\n(FillHorseFeeder)\n' >"$tmp/short.plan"
expect "goal not reached exits 1" 1 'goal is not reached' -- "$bin" validate "$hb" "$tmp/short.plan"
printf '(NoSuchAction)\n' >"$tmp/unknown.plan"
expect "unknown action in plan exits 33" 33 'unknown.plan:1:' -- "$bin" validate "$hb" "$tmp/unknown.plan"

# bad input files: file:line: message, exit 33
printf '[[variable]]\nname = "a"\nvalues = ["x", "x"]\n' >"$tmp/dup.toml"
expect "duplicate value exits 33" 33 'dup.toml:[0-9]+: ' -- "$bin" plan "$tmp/dup.toml"
printf 'begin_version\n3\nend_version\nbegin_metric\n0\nend_metric\n1000000000\nbegin_variable\n' >"$tmp/trunc.sas"
expect "truncated sas exits 33" 33 'trunc.sas:[0-9]+: ' -- "$bin" plan "$tmp/trunc.sas"
head -c 4096 /dev/urandom >"$tmp/garbage.sas"
expect "binary garbage exits 33" 33 'garbage.sas:[0-9]+: ' -- "$bin" plan "$tmp/garbage.sas"
expect "missing file exits 33" 33 'nope.toml' -- "$bin" plan "$tmp/nope.toml"
expect "unknown value in --goal" 33 "haystack" -- "$bin" plan "$hb" --goal "haystack=onTheMoon"

# usage errors exit 2
expect "unknown planner exits 2" 2 'unknown planner' -- "$bin" plan "$hb" --planner nope
expect "missing argument exits 2" 2 '' -- "$bin" plan
expect "unknown subcommand exits 2" 2 '' -- "$bin" frobnicate
expect "help exits 0" 0 'plan' -- "$bin" --help

# class analysis
expect "check json" 0 '"class": *"C2\*"' -- "$bin" check "$hb" --json
# check's output grows with the domain, not with its edge lists per class (--graphs prints them):
# on a dense 2,631-action domain the unbounded lists were 33 MB of text and 317 MB of JSON.
/usr/bin/python3 "$src/scripts/gen-forage.py" >"$tmp/forage.toml"
forage_bytes=$(wc -c <"$tmp/forage.toml")
expect "check on a dense domain: output within 8x the file" 0 '' -- bash -c '[ "$("$0" check "$1" | wc -c)" -le $((8 * $2)) ]' "$bin" "$tmp/forage.toml" "$forage_bytes"
expect "check --json on a dense domain: within 8x the file" 0 '' -- bash -c '[ "$("$0" check "$1" --json | wc -c)" -le $((8 * $2)) ]' "$bin" "$tmp/forage.toml" "$forage_bytes"
expect "check text" 0 'C2\*' -- "$bin" check "$hb"
expect "check dot" 0 '' -- "$bin" check "$hb" --dot "$tmp/hb.dot"
expect "check dot is graphviz" 0 'digraph' -- cat "$tmp/hb.dot"
expect "check unknown class exits 33" 33 '' -- "$bin" check "$hb" --class nope

# crowd: built-in towns by name, any domain file, errors
crowd_small=(--npcs 200 --frames 1 --reps 1)
expect "crowd on a domain file" 0 '^crowd .*horse-breeder.toml: 200 NPCs' -- "$bin" crowd --domain "$hb" "${crowd_small[@]}"
expect "crowd goap-level town" 0 '^crowd goap-level: 200 NPCs' -- "$bin" crowd --domain goap-level "${crowd_small[@]}"
expect "crowd goap-level: chain shares, no \"no plan\"" 0 "no plan 0\.0%" -- "$bin" crowd --domain goap-level "${crowd_small[@]}"
expect "crowd unknown fallback exits 2" 2 "unknown planner .nope." -- "$bin" crowd --domain goap-level --fallback nope "${crowd_small[@]}"
# --class-fallback CLASS=PLANNERS: one class's own chain (CrowdDef::class_fallback). In the
# castle-guard town the guards' NPCs ℙ gives up on are solved by A*; with ℙ only for guards they
# have no plan. (Not the goap-level town: ℙ's relaxed reachability proofs, docs/algorithm.md,
# answer all its NPCs, so no chain would run.)
expect "crowd --class-fallback: the chain line names it" 0 'chain astar \(guard=none, recruit=astar\): .*no plan [1-9]' -- "$bin" crowd --domain "$src/domains/goap/castle-guard.toml" --class-fallback guard=none --class-fallback recruit=astar "${crowd_small[@]}"
expect "crowd --class-fallback: json" 0 '"class_fallback":\["guard=astar,astar-back"\]' -- "$bin" crowd --domain goap-level --class-fallback guard=astar,astar-back --json "${crowd_small[@]}"
expect "crowd --class-fallback unknown class exits 2" 2 "no NPC class .nobody." -- "$bin" crowd --domain goap-level --class-fallback nobody=astar "${crowd_small[@]}"
expect "crowd --class-fallback unknown planner exits 2" 2 "unknown planner .nope." -- "$bin" crowd --domain goap-level --class-fallback guard=astar,nope "${crowd_small[@]}"
expect "crowd --class-fallback without = exits 2" 2 "^topoplan crowd: --class-fallback: expected CLASS=PLANNER" -- "$bin" crowd --domain goap-level --class-fallback guard "${crowd_small[@]}"
expect "crowd unknown town exits 2" 2 'unknown town .atlantis.' -- "$bin" crowd --domain atlantis "${crowd_small[@]}"
expect "crowd missing file exits 33" 33 'cannot open' -- "$bin" crowd --domain "$tmp/none.toml" "${crowd_small[@]}"
# Every corpus domain runs with the default flags: no refusal, every NPC with a plan or a proof,
# none "buffer too small" (the action room is the town's longest plan: dogoap-miner's A* plans
# run past 12 actions); an explicit --actions-per-npc still wins.
for f in "$src"/domains/real/*.toml; do
  expect "crowd $(basename "$f"): default flags, no refusal" 0 '"buffer_too_small":0\.0,.*"no_plan":0\.0,' -- "$bin" crowd --domain "$f" --json "${crowd_small[@]}"
done
expect "crowd dogoap-miner: the room grows past 12" 0 '"actions_per_npc":(1[3-9]|[2-9][0-9]|1[0-9][0-9]),"actions_per_npc_given":false' -- "$bin" crowd --domain "$src/domains/real/dogoap-miner.toml" --json "${crowd_small[@]}"
expect "crowd dogoap-miner: --actions-per-npc 12 wins" 0 '"actions_per_npc":12,"actions_per_npc_given":true,.*"buffer_too_small":0\.[0-9]*[1-9]' -- "$bin" crowd --domain "$src/domains/real/dogoap-miner.toml" --actions-per-npc 12 --json "${crowd_small[@]}"

# show
expect "show lists actions" 0 'PickUpBucket' -- "$bin" show "$hb"

# agents: the village's scripted senses, records, file:line errors
village=$src/examples/agents/village.toml
expect "agents on the village" 0 'replans by reason' -- "$bin" agents "$village" --agents 200 --frames 150
expect "agents: same events on 2 threads" 0 'hash ' -- "$bin" agents "$village" --agents 200 --frames 60 --threads 2
bad_village=$(mktemp)
sed 's/set = { bakeryDoor = "closed" }/set = { bakeryDoorz = "closed" }/' "$village" > "$bad_village"
expect "agents: unknown variable in an event" 33 ":[0-9]+: \\[\\[event\\]\\] set: no variable 'bakeryDoorz'" -- "$bin" agents "$bad_village" --agents 10 --frames 5
rm -f "$bad_village"

summary
