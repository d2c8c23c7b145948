#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (clang, ASan + UBSan) and runs each for SECONDS
# (default 60) on a corpus seeded from domains/. Crashes are written to build/fuzz/crashes/
# and make the script fail; the corpora grow in build/fuzz/corpus/ between runs (under
# FUZZ_BUILD instead of build/fuzz when it is set, below).
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]     e.g. scripts/fuzz.sh 600 fuzz_sas fuzz_native
#
# FUZZ_NICE (default 15) is the nice level: the machines this runs on are shared. FUZZ_JOBS
# (default 1) runs that many fuzzing processes per harness. FUZZ_RUNS (default: unlimited) stops
# a harness after that many executions (e.g. 10000000), whichever of the two limits comes first.
# FUZZ_CORPUS (default build/fuzz/corpus) is where the corpora grow, one directory per harness;
# FUZZ_LOG (default build/fuzz/HARNESS.log) is the log of a run of one harness.
# FUZZ_BUILD names a tree configured with -DTOPOPLAN_FUZZ=ON to take the harnesses from instead
# (CI's clang ASan + UBSan test tree, scripts/test.sh); build/fuzz, the default, is configured
# here at -O2 for long runs. Logs, corpora and crashes go under the tree used.
# Inputs are at most 64 KiB, except fuzz_native's 2 KiB: a TOML input costs that harness three
# toml++ parses (in chunks, whole, and the round trip) and its seeds are up to 20 KB, so at
# 64 KiB it ran 6 times slower (707 against 4,233 exec/s in the same conditions) while a 2 KiB
# document still holds every reader path (every table kind, sub-tables, multi-line strings).
# fuzz_capi takes 2 KiB too (8 calls need far fewer bytes) and checks for leaks when it exits,
# not after each input: it keeps the objects it makes for later inputs (fuzz/capi/session.h,
# "Cost"), so an input that fills a pool has more allocations than frees, and each such input
# made libFuzzer scan the whole heap (45 % of the time in a profile).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
all=(fuzz_native fuzz_sas fuzz_plan fuzz_scenario fuzz_ambiance fuzz_planner fuzz_capi)
harnesses=("$@")
((${#harnesses[@]})) || harnesses=("${all[@]}")
nice_level=${FUZZ_NICE:-15}
jobs=${FUZZ_JOBS:-1}

tree=${FUZZ_BUILD:-build/fuzz}
if [[ -z ${FUZZ_BUILD:-} ]]; then
  cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DTOPOPLAN_FUZZ=ON -DTOPOPLAN_WERROR=ON -DTOPOPLAN_BUILD_TESTS=OFF -DTOPOPLAN_BUILD_TOOLS=OFF \
    -DTOPOPLAN_BUILD_BENCHMARKS=OFF >/dev/null
fi
nice -n "$nice_level" cmake --build "$tree" -j"$(nproc)" --target "${harnesses[@]}"

corpus=${FUZZ_CORPUS:-$tree/corpus}

seed() {  # seed HARNESS FILES...: copies the files into the harness's corpus
  local dir=$corpus/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do [[ -f $f ]] && cp -n "$f" "$dir/" || true; done
}
seed fuzz_native domains/*.toml
seed fuzz_sas domains/*.sas
seed fuzz_scenario domains/udgoap/wizard.toml
seed fuzz_ambiance domains/udgoap/ambiance-*.toml
mkdir -p "$corpus/fuzz_plan" "$corpus/fuzz_planner" "$corpus/fuzz_capi" "$tree/crashes"
printf '(Sleep)\n(GoToRanch)\n; cost = 2 (unit cost)\n' >"$corpus/fuzz_plan/seed.plan"
printf '\x03\x01\x02\x00\x04\x02\x00\x00\x01\x01\x01\x00\x02\x01\x01\x00\x00\x01\x02\x00\x01' \
  >"$corpus/fuzz_planner/seed.bin"
# fuzz_capi: a few byte strings that reach the crowd, the handles and the towns early.
for i in 1 2 3 4; do
  [[ -e $corpus/fuzz_capi/seed-$i.bin ]] ||
    head -c 2048 /dev/urandom >"$corpus/fuzz_capi/seed-$i.bin"
done

status=0
printf '%-15s %12s %10s %s\n' harness executions exec/s result
for h in "${harnesses[@]}"; do
  log=${FUZZ_LOG:-$tree/$h.log}
  parallel=()
  ((jobs > 1)) && parallel=(-jobs="$jobs" -workers="$jobs")
  max_len=65536
  [[ $h == fuzz_native || $h == fuzz_capi ]] && max_len=2048
  runs=()
  [[ -n ${FUZZ_RUNS:-} ]] && runs=(-runs="$FUZZ_RUNS")
  # fuzz_capi without the entropic schedule: an input reaches tens of thousands of features, and
  # updating their frequencies after every run took 37 % of its time (perf, corpus replay).
  [[ $h == fuzz_capi ]] && runs+=(-entropic=0 -detect_leaks=0)
  set +e
  # 8 frames of each allocation's stack (30 by default): recording them took 10 % of fuzz_capi.
  # fuzz_capi records none, fills no new block and keeps 64 MB of freed blocks (256 by default):
  # 8 % less CPU and half the memory; rerun an artifact with the defaults for the stacks.
  asan=malloc_context_size=8
  [[ $h == fuzz_capi ]] && asan=malloc_context_size=0:max_malloc_fill_size=0:quarantine_size_mb=64
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:$asan \
    UBSAN_OPTIONS=print_stacktrace=1 \
    nice -n "$nice_level" "$tree/fuzz/$h" "$corpus/$h" \
    -max_total_time="$seconds" -max_len="$max_len" "${runs[@]}" -timeout=20 -rss_limit_mb=2048 \
    "${parallel[@]}" -artifact_prefix="$tree/crashes/$h-" \
    -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  execs=$({ grep -h 'stat::number_of_executed_units' "$log" fuzz-*.log 2>/dev/null || true; } |
    awk '{s += $2} END {print s + 0}')
  rate=$({ grep -h 'stat::average_exec_per_sec' "$log" fuzz-*.log 2>/dev/null || true; } |
    awk '{s += $2} END {print s + 0}')
  rm -f fuzz-*.log
  result=ok
  if ((rc != 0)); then
    result="FAILED (exit $rc, see $log and $tree/crashes/)"
    status=1
  fi
  printf '%-15s %12s %10s %s\n' "$h" "$execs" "$rate" "$result"
done
exit $status
