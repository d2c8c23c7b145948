# Shared by the command-line checks (cli_test.sh, harden_test.sh): source it after `set -uo
# pipefail` with the arguments PATH/TO/topoplan SOURCE_DIR. It sets bin, src and a temporary
# folder tmp (removed on exit), counts passed and failed checks, and defines expect and summary.
# expect_timeout: seconds each command may run (0: no limit); a hang is then a failure (exit 124).
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
expect_timeout=${expect_timeout:-0}

# expect NAME EXIT_CODE PATTERN -- command...   (PATTERN: grep -E over stdout+stderr, or "")
expect() {
  local name=$1 code=$2 pattern=$3
  shift 4
  local out
  if ((expect_timeout > 0)); then
    out=$(timeout "$expect_timeout" "$@" 2>&1)
  else
    out=$("$@" 2>&1)
  fi
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

# The last line of a check script: the counts, and its exit status.
summary() {
  echo "$passed passed, $failed failed"
  [[ $failed -eq 0 ]]
}
