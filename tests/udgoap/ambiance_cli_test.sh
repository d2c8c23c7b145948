#!/usr/bin/env bash
# `topoplan ambiance`: the three smart ambiance demonstrations (Sloan 2015, chapter 7) with and
# without ambiance, the trace, and the exit codes (0, 33 input error, 2 usage).
# Usage: ambiance_cli_test.sh TOPOPLAN SOURCE_DIR
# References: docs/references.md.
set -u
bin=$1
dir=$2/domains/udgoap
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
actions() { grep -v '^;' | tr '\n' ' '; }

out=$("$bin" ambiance "$dir/ambiance-library.toml") || fail "library: exit $?"
[[ $(actions <<<"$out") == "(enter_library) (check_social_network) " ]] || fail "library: $out"
out=$("$bin" ambiance "$dir/ambiance-library.toml" --no-ambiance) || fail "library off: exit $?"
[[ $(actions <<<"$out") == "(enter_library) (chat) " ]] || fail "library off: $out"
trace=$("$bin" ambiance "$dir/ambiance-library.toml" --trace) || fail "trace: exit $?"
grep -q '^;     active modifiers: library_hush@1$' <<<"$trace" || fail "trace: modifiers"
grep -q '^;     costs: enter_library 1, chat 2 -> 12, check_social_network 5$' <<<"$trace" ||
  fail "trace: costs"
grep -q '^;     plan \[check_social_network\] cost 5 -> do check_social_network$' <<<"$trace" ||
  fail "trace: decision"

out=$("$bin" ambiance "$dir/ambiance-road-crossing.toml") || fail "crossing: exit $?"
[[ $(actions <<<"$out") == "(walk) (run) (run) (run) (run) (run) " ]] || fail "crossing: $out"
out=$("$bin" ambiance "$dir/ambiance-spy.toml") || fail "spy: exit $?"
[[ $(actions <<<"$out") == "(walk_0_1) (walk_1_2) (run_2_3) " ]] || fail "spy: $out"
out=$("$bin" ambiance "$dir/ambiance-spy.toml" --no-ambiance) || fail "spy off: exit $?"
[[ $(actions <<<"$out") == "(run_0_1) (run_1_2) (run_2_3) " ]] || fail "spy off: $out"

sed 's/^name = "watched"$/name = "watched"\nbogus = 1/' "$dir/ambiance-spy.toml" >"$tmp/bad.toml"
"$bin" ambiance "$tmp/bad.toml" >/dev/null 2>"$tmp/err"; rc=$?
[[ $rc == 33 ]] || fail "bad file: exit $rc"
grep -q "bad.toml:[0-9]*: unknown key 'bogus' in \[\[modifier\]\]" "$tmp/err" ||
  fail "bad file: message $(cat "$tmp/err")"
# A number out of range: the limits table's words (limits::kAmbianceActionTime), at its line.
sed 's/^action_time = 1.0$/action_time = -2/' "$dir/ambiance-spy.toml" >"$tmp/slow.toml"
"$bin" ambiance "$tmp/slow.toml" >/dev/null 2>"$tmp/err"; rc=$?
[[ $rc == 33 ]] || fail "action_time -2: exit $rc"
grep -qF "slow.toml:12: [scenario]: 'action_time' (seconds per executed action) must be a number in [0, 1e+09], found -2" \
  "$tmp/err" || fail "action_time -2: message $(cat "$tmp/err")"
"$bin" ambiance "$tmp/missing.toml" >/dev/null 2>&1; rc=$?
[[ $rc == 33 ]] || fail "missing file: exit $rc"
"$bin" ambiance >/dev/null 2>&1; rc=$?
[[ $rc == 2 ]] || fail "usage: exit $rc"
echo "ambiance CLI: ok"
