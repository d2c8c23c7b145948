#!/usr/bin/env bash
# `topoplan agent`: the wizard's plan, the trace, and the exit codes (0 plan, 12 no plan or
# limit, 33 input error, 2 usage). Usage: agent_cli_test.sh TOPOPLAN SOURCE_DIR
set -u
bin=$1
src=$2
wizard=$src/domains/udgoap/wizard.toml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$("$bin" agent "$wizard") || fail "wizard: exit $?"
expected=$'(goto mana_potion)\n(drink_mana_potion mana_potion)\n(lightning goblin)\n; utility = 0.4500 (initial 0.0500)'
[[ "$out" == "$expected" ]] || fail "wizard plan: got '$out'"

trace=$("$bin" agent "$wizard" --trace) || fail "trace: exit $?"
grep -q '^; state  2 (parent 1) \[melee(goblin)\] utility 0.3833' <<<"$trace" || fail "trace: melee"
grep -q '^; state  3 (parent 1) \[lightning(goblin)\] utility 0.3833' <<<"$trace" || fail "trace: lightning"
grep -q '^; state  4 (parent 1) \[drink_mana_potion(mana_potion)\] utility 0.1833' <<<"$trace" || fail "trace: drink"
grep -q '^; state  5 (parent 2) \[goto(goblin), melee(goblin)\] utility 0.0000' <<<"$trace" || fail "trace: goto+melee"
grep -q '^; chosen 7 ' <<<"$trace" || fail "trace: decision"
[[ $(grep -v '^;' <<<"$trace") == $(grep -v '^;' <<<"$out") ]] || fail "trace changes the plan"

"$bin" agent "$wizard" --max-expansions 1 >/dev/null 2>"$tmp/err"; rc=$?
[[ $rc == 12 ]] || fail "limit: exit $rc"
grep -q 'node limit' "$tmp/err" || fail "limit: message"

printf '[scenario]\nagent = "x"\n[[entity]]\nname = "x"\nbogus = 1\n' >"$tmp/bad.toml"
"$bin" agent "$tmp/bad.toml" >/dev/null 2>"$tmp/err"; rc=$?
[[ $rc == 33 ]] || fail "bad file: exit $rc"
grep -q "bad.toml:5: unknown key 'bogus'" "$tmp/err" || fail "bad file: message $(cat "$tmp/err")"

"$bin" agent "$tmp/missing.toml" >/dev/null 2>&1; rc=$?
[[ $rc == 33 ]] || fail "missing file: exit $rc"

"$bin" agent >/dev/null 2>&1; rc=$?
[[ $rc == 2 ]] || fail "usage: exit $rc"
echo "agent CLI: ok"
