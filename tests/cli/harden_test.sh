#!/usr/bin/env bash
# Hardening checks of the topoplan command line: numeric options are validated with a
# one-line message naming the option and its range (exit 2); no crash, hang or false success.
# Usage: harden_test.sh PATH/TO/topoplan SOURCE_DIR
set -uo pipefail
expect_timeout=60  # a hang is a failure (exit 124), not a stuck CI
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh" "$@"
# one_line NAME -- command...: the command's stderr is exactly one line.
one_line() {
  local name=$1
  shift 2
  local lines
  lines=$(timeout 60 "$@" 2>&1 >/dev/null | wc -l)
  if [[ $lines -ne 1 ]]; then
    echo "FAIL $name: $lines lines on stderr, expected 1"
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + 1))
}

hb=$src/domains/horse-breeder.toml

# --- crowd: every numeric option (was: SIGFPE on --situations 0, hang on 2e9, nan accepted)
small=(--npcs 200 --frames 1 --reps 1 --no-baseline)
expect "crowd --situations 0" 2 '^topoplan crowd: --situations: must be an integer in \[1, 10000\], got .0.' -- "$bin" crowd "${small[@]}" --situations 0
expect "crowd --situations -1" 2 '--situations: must be an integer in \[1, ' -- "$bin" crowd "${small[@]}" --situations -1
expect "crowd --situations 2e9" 2 '--situations: ' -- "$bin" crowd "${small[@]}" --situations 2000000000
expect "crowd --situations overflow" 2 "--situations: must be an integer in \[1, 10000\], got '[0-9]{24}\.\.\.'" -- "$bin" crowd "${small[@]}" --situations 123456789012345678901234567890123456789012345678901234567890
expect "crowd --churn -1" 2 '--churn: must be a number in \[0, 1\]' -- "$bin" crowd "${small[@]}" --churn -1
expect "crowd --churn nan" 2 "--churn: must be a number in \[0, 1\], got 'nan'" -- "$bin" crowd "${small[@]}" --churn nan
expect "crowd --churn inf" 2 '--churn: ' -- "$bin" crowd "${small[@]}" --churn inf
expect "crowd --churn 1e400" 2 '--churn: ' -- "$bin" crowd "${small[@]}" --churn 1e400
expect "crowd --churn 0.5x" 2 '--churn: ' -- "$bin" crowd "${small[@]}" --churn 0.5x
expect "crowd --cache-entries -1" 2 '--cache-entries: must be an integer in \[1, ' -- "$bin" crowd "${small[@]}" --cache-entries -1
expect "crowd --memo-entries -1" 2 '--memo-entries: must be an integer in \[0, ' -- "$bin" crowd "${small[@]}" --memo-entries -1
expect "crowd --threads 0" 2 '--threads: must be an integer in \[1, 1024\]' -- "$bin" crowd "${small[@]}" --threads 0
expect "crowd --npcs 0" 2 '--npcs: must be an integer in \[1, ' -- "$bin" crowd --npcs 0
expect "crowd --npcs 3e9 (int overflow)" 2 '--npcs: ' -- "$bin" crowd --npcs 3000000000
expect "crowd --frames 0" 2 '--frames: ' -- "$bin" crowd "${small[@]}" --frames 0
expect "crowd --reps 0" 2 '--reps: ' -- "$bin" crowd --npcs 200 --reps 0
expect "crowd --seed -1" 2 '--seed: must be an integer in \[0, 18446744073709551615\]' -- "$bin" crowd "${small[@]}" --seed -1
one_line "crowd usage error is one line" -- "$bin" crowd "${small[@]}" --churn nan
expect "crowd 1 NPC, 1 thread: singular" 0 '1 NPC, 1 thread \(' -- "$bin" crowd --npcs 1 --frames 1 --reps 1 --situations 1
expect "crowd smallest valid options run" 0 'crowd western: 200 NPCs' -- "$bin" crowd "${small[@]}" --situations 1 --churn 1 --cache-entries 1 --memo-entries 0

# --- other commands' numeric options go through the same checker
expect "plan --max-seconds nan" 2 "^topoplan plan: --time-limit: must be a number in \[0, 1e\+09\], got 'nan'" -- "$bin" plan "$hb" --max-seconds nan
expect "plan --max-expansions 0" 2 '--max-expansions: must be an integer in \[1, ' -- "$bin" plan "$hb" --max-expansions 0
expect "plan --max-expansions overflow" 2 '--max-expansions: ' -- "$bin" plan "$hb" --max-expansions 99999999999999999999999
expect "plan --max-memory 0: no 300-digit range" 2 '^topoplan plan: --max-memory: must be an integer in \[1, 1073741824\], got .0. \(--help for usage\)$' -- "$bin" plan "$hb" --max-memory 0
one_line "plan usage error is one line" -- "$bin" plan "$hb" --max-memory 0
expect "bench --reps 0" 2 '--reps: must be an integer in \[1, 1000\]' -- "$bin" bench oneprv-5 --reps 0
expect "bench --max-point-seconds -1" 2 '--max-point-seconds: ' -- "$bin" bench oneprv-5 --max-point-seconds -1
expect "agent --max-plan-length 0" 2 '--max-plan-length: must be an integer in \[1, 10000\]' -- "$bin" agent "$src/domains/udgoap/wizard.toml" --max-plan-length 0
expect "goals --seed -3" 2 '--seed: ' -- "$bin" goals --seed -3
expect "goals --threads 1e3" 2 '--threads: must be an integer in \[1, 256\]' -- "$bin" goals --threads 1e3
expect "sim --episodes 0" 2 '^topoplan sim: --episodes: must be an integer in \[1, 1000000\]' -- "$bin" sim "$src/domains/sim/arena.toml" --episodes 0
expect "sim --threads nan" 2 '--threads: ' -- "$bin" sim "$src/domains/sim/arena.toml" --threads nan
if [[ -w /dev/full ]]; then
  expect "sim --replay /dev/full exits 33" 33 'No space left on device' -- "$bin" sim "$src/domains/sim/arena.toml" --episodes 1 --selector fsm --quiet --replay /dev/full
fi
expect "--max-input-mib 0" 2 '--max-input-mib: must be an integer in \[1, 65536\]' -- "$bin" plan "$hb" --max-input-mib 0

# --- false success: outputs
cp "$hb" "$tmp/x.toml"
expect "plan x.toml -o x.toml refused" 33 'refusing to write the output over the input file' -- "$bin" plan "$tmp/x.toml" -o "$tmp/x.toml"
expect "... and the domain is intact" 0 '' -- cmp "$hb" "$tmp/x.toml"
ln -s "$tmp/x.toml" "$tmp/link.toml"
expect "plan x.toml -o link-to-x refused" 33 'refusing' -- "$bin" plan "$tmp/x.toml" -o "$tmp/link.toml"
expect "convert x.toml -o x.toml refused" 33 'refusing' -- "$bin" convert "$tmp/x.toml" -o "$tmp/x.toml" --to native
expect "check --dot over the input refused" 33 'refusing' -- "$bin" check "$tmp/x.toml" --dot "$tmp/x.toml"
expect "... still intact" 0 '' -- cmp "$hb" "$tmp/x.toml"
if [[ -w /dev/full ]]; then
  expect "plan -o /dev/full exits 33" 33 'dev/full: cannot write the file: No space left on device' -- "$bin" plan "$hb" -o /dev/full
  expect "convert -o /dev/full exits 33" 33 'No space left on device' -- "$bin" convert "$hb" -o /dev/full
  expect "plan to stdout on /dev/full exits 33" 33 'cannot write to standard output: No space left on device' -- bash -c '"$0" plan "$1" >/dev/full' "$bin" "$hb"
  expect "show to stdout on /dev/full exits 33" 33 'standard output' -- bash -c '"$0" show "$1" >/dev/full' "$bin" "$hb"
  expect "check --dot /dev/full exits 33" 33 'No space left' -- "$bin" check "$hb" --dot /dev/full
fi
expect "plan -o /dev/null is fine" 0 '' -- "$bin" plan "$hb" -o /dev/null
expect "plan -o into a missing directory exits 33" 33 'nodir/p.plan: cannot write the file: ' -- "$bin" plan "$hb" -o "$tmp/nodir/p.plan"
mkdir "$tmp/ro" && printf 'old\n' >"$tmp/ro/p.plan" && chmod 555 "$tmp/ro"
if [[ ! -w "$tmp/ro" ]]; then  # (root writes anywhere)
  expect "plan -o in a read-only directory exits 33" 33 'cannot write the file' -- "$bin" plan "$hb" -o "$tmp/ro/p.plan"
  expect "... and the old file is untouched" 0 '^old$' -- cat "$tmp/ro/p.plan"
fi
chmod 755 "$tmp/ro"
expect "plan -o over an old plan replaces it" 0 '' -- "$bin" plan "$hb" -o "$tmp/ro/p.plan"
expect "... with the new plan" 0 '^; cost = 6' -- cat "$tmp/ro/p.plan"
expect "no temporary file left behind" 0 '' -- test -z "$(ls "$tmp/ro" | grep tmp)"

# --- false success: inputs that are not files
expect "a directory as the plan file exits 33" 33 "$tmp: is a directory, not a file" -- "$bin" validate "$hb" "$tmp"
expect "a directory as the task exits 33" 33 'is a directory' -- "$bin" plan "$tmp"
expect "missing plan file gives the reason" 33 'nope.plan: cannot open the file: No such file or directory' -- "$bin" validate "$hb" "$tmp/nope.plan"
expect "/dev/zero as the task: capped, fast" 33 'larger than the input limit of 64 MiB \(raise it with --max-input-mib\)' -- "$bin" plan /dev/zero
expect "/dev/zero with a 1 MiB cap" 33 'limit of 1 MiB' -- "$bin" plan /dev/zero --max-input-mib 1
expect "/dev/zero as the plan file" 33 'limit of 1 MiB' -- "$bin" validate "$hb" /dev/zero --max-input-mib 1
mkfifo "$tmp/fifo"
expect "named pipe without a writer: no hang" 33 'no data from a pipe within 5 s' -- "$bin" plan "$tmp/fifo"
expect "a pipe with data is read" 0 '^; cost = 6' -- bash -c '"$0" plan <(cat "$1") --planner exact' "$bin" "$src/domains/horse-breeder.sas"
head -c 2000000 /dev/zero | tr '\0' '#' >"$tmp/big.toml"
expect "a 2 MB file over a 1 MiB cap" 33 'big.toml: the file is larger than the input limit of 1 MiB' -- "$bin" plan "$tmp/big.toml" --max-input-mib 1
expect "agent scenario over the cap" 33 'larger than the input limit of 1 MiB' -- "$bin" agent "$tmp/big.toml" --max-input-mib 1
expect "ambiance scenario over the cap" 33 'larger than the input limit of 1 MiB' -- "$bin" ambiance "$tmp/big.toml" --max-input-mib 1

# --- agent: a misspelled attribute was interned silently and changed the plan
sed 's/{ fact = "consumer.mana", op = ">=", value = 20 }/{ fact = "consumer.manna", op = ">=", value = 20 }/' \
  "$src/domains/udgoap/wizard.toml" >"$tmp/manna.toml"
expect "agent: consumer.manna is an unknown attribute" 33 "manna.toml:[0-9]+: unknown attribute 'manna' in 'consumer.manna'" -- "$bin" agent "$tmp/manna.toml"

# --- messages
expect "show: 1 NPC class, not 1 NPC classes" 0 '' -- bash -c '! "$0" show "$1" | grep -q "1 NPC classes"' "$bin" "$hb"
printf '\xef\xbb\xbf' >"$tmp/bom.sas" && cat "$src/domains/horse-breeder.sas" >>"$tmp/bom.sas"
expect "SAS file with a byte-order mark" 0 '^; cost = 6' -- "$bin" plan "$tmp/bom.sas"

summary
