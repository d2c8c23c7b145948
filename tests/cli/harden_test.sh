#!/usr/bin/env bash
# Hardening checks of the topoplan command line (issue 14): numeric options are validated with a
# one-line message naming the option and its range (exit 2); no crash, hang or false success.
# Usage: harden_test.sh PATH/TO/topoplan SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# expect NAME EXIT_CODE PATTERN -- command...   (PATTERN: grep -E over stdout+stderr, or "")
# Every command runs under a 60 s timeout: a hang is a failure (exit 124), not a stuck CI.
expect() {
  local name=$1 code=$2 pattern=$3
  shift 4
  local out
  out=$(timeout 60 "$@" 2>&1)
  local got=$?
  if [[ $got -ne $code ]]; then
    echo "FAIL $name: exit $got, expected $code"
    echo "$out" | sed 's/^/    /' | head -20
    failed=$((failed + 1))
    return
  fi
  if [[ -n $pattern ]] && ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output does not match /$pattern/"
    echo "$out" | sed 's/^/    /' | head -20
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + 1))
}
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
expect "crowd --threads 0" 2 '--threads: must be an integer in \[1, 256\]' -- "$bin" crowd "${small[@]}" --threads 0
expect "crowd --npcs 0" 2 '--npcs: must be an integer in \[1, ' -- "$bin" crowd --npcs 0
expect "crowd --npcs 3e9 (int overflow)" 2 '--npcs: ' -- "$bin" crowd --npcs 3000000000
expect "crowd --frames 0" 2 '--frames: ' -- "$bin" crowd "${small[@]}" --frames 0
expect "crowd --reps 0" 2 '--reps: ' -- "$bin" crowd --npcs 200 --reps 0
expect "crowd --seed -1" 2 '--seed: must be an integer in \[0, 18446744073709551615\]' -- "$bin" crowd "${small[@]}" --seed -1
one_line "crowd usage error is one line" -- "$bin" crowd "${small[@]}" --churn nan
expect "crowd 1 NPC, 1 thread: singular" 0 '1 NPC, 1 thread \(' -- "$bin" crowd --npcs 1 --frames 1 --reps 1 --situations 1
expect "crowd smallest valid options run" 0 'crowd western: 200 NPCs' -- "$bin" crowd "${small[@]}" --situations 1 --churn 1 --cache-entries 1 --memo-entries 0

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
