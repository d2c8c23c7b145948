#!/usr/bin/env bash
# The whole test suite, as CI runs it: a warnings-as-errors build and its tests, the C API's
# exported symbols, the C# package under Mono and the C snippets of the docs, then the
# tests again under AddressSanitizer + UndefinedBehaviorSanitizer (clang) and each libFuzzer
# harness briefly from the same tree, the crowd tests under ThreadSanitizer (gcc), then an
# install and a find_package(topoplan)
# consumer build, an add_subdirectory(topoplan) consumer build, then the
# WebAssembly build and its pages in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
# Each part says when it starts, so a slow CI run shows where its minutes went.
step() { printf '\n== %s (%d s elapsed)\n' "$1" "$SECONDS"; }

step format
scripts/check-format.sh

step "warnings-as-errors build and tests"
# Line tables only (-g1) in CI's trees: enough for every stack trace the suite prints, and a
# quarter less compile time than full debug information. The Python module is built in this tree
# too, so pip reuses its libraries instead of compiling them again.
# In this tree and the sanitizer trees the test files share one precompiled gtest.h
# (tests/CMakeLists.txt): 14 to 32 % less compile time per test file. TOPOPLAN_UNITY_TESTS
# compiles the files of each test executable in unity batches of up to 4: 71 test files are 31
# compiles, about 35 % less compile time for the tests (bench/results/2026-11-27-ci-time.md).
g1=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 -DTOPOPLAN_UNITY_TESTS=ON)
cmake -S . -B build/ci -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTOPOPLAN_WERROR=ON "${g1[@]}" \
  -DTOPOPLAN_BUILD_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3
cmake --build build/ci -j"$jobs"
ctest --test-dir build/ci --output-on-failure -j"$jobs"
step "C door: ABI, C#, doc snippets"
# The C door: each C API library's exports against its list (src/capi/*.symbols), the C# package
# and its tests under Mono against the game's library, and every C snippet of the C API's docs.
scripts/check-abi.sh build/ci
bindings/csharp/test.sh build/ci/src/capi/libtopoplan_c.so
/usr/bin/python3 tests/docs/check_snippets.py build/ci/src/capi

step "AddressSanitizer + UndefinedBehaviorSanitizer (clang)"
# The random differentials and the TopoChecksum probe plan an eighth of their instances here
# (testing::sanitized_share); the release tree above plans them all. One clang tree serves the
# sanitized tests and the libFuzzer harnesses (TOPOPLAN_FUZZ adds -fsanitize=fuzzer-no-link to
# every target): one compile of the libraries instead of a gcc ASan tree and a clang fuzz tree
# (bench/results/2026-11-27-ci-time.md). gcc keeps -Werror in the release and TSan trees.
CC=clang CXX=clang++ cmake -S . -B build/casan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DTOPOPLAN_WERROR=ON -DTOPOPLAN_SANITIZE=ON -DTOPOPLAN_FUZZ=ON -DTOPOPLAN_BUILD_BENCHMARKS=OFF \
  "${g1[@]}"
cmake --build build/casan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/casan --output-on-failure -j"$jobs"
step libFuzzer
# Each harness 10 s from that tree; scripts/fuzz.sh SECONDS runs them longer in an -O2 tree.
FUZZ_NICE=0 FUZZ_BUILD=build/casan scripts/fuzz.sh 10

step ThreadSanitizer
# ThreadSanitizer, lean: only the crowd tests (batch threads, shared plan cache, thread pool).
cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTOPOPLAN_WERROR=ON \
  -DTOPOPLAN_TSAN=ON -DTOPOPLAN_BUILD_TOOLS=OFF -DTOPOPLAN_BUILD_BENCHMARKS=OFF "${g1[@]}"
cmake --build build/tsan -j"$jobs" --target test_crowd
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build/tsan/tests/test_crowd

step "install and consumers"
prefix=$(mktemp -d)
cmake --install build/ci --prefix "$prefix" >/dev/null
cmake -S examples/hello -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
cmake --build build/consumer
build/consumer/hello
tests/readme/build_snippet.sh "$prefix" build/readme  # README.md's library example, verbatim
rm -rf "$prefix"

# topoplan as a subproject (add_subdirectory) of a game that ships the runtime only, without io.
cmake -S examples/subproject -B build/subproject -G Ninja -DTOPOPLAN_WITH_IO=OFF
cmake --build build/subproject -j"$jobs" --target hello
build/subproject/hello

step Python
# The Python package (docs/python.md): pip installs it from this checkout into a venv that sees
# Debian's numpy, pybind11, pytest and hypothesis (no PyPI; setup.py takes the extension module
# built in build/ci), then its tests run. pytest's exit code 5 (no tests collected) fails too.
/usr/bin/python3 -m venv --system-site-packages build/venv
TOPOPLAN_PYTHON_BUILD_DIR=build/ci build/venv/bin/pip install --no-build-isolation --no-index --quiet .
pytest_rc=0
# test_limits_table.py compares the package's words with the C API's and the CLI's.
(cd build && TOPOPLAN_CLI="$PWD/ci/cli/topoplan" \
  TOPOPLAN_C_LIBRARY="$PWD/ci/src/capi/libtopoplan_c.so" \
  venv/bin/python -m pytest -q ../tests/python) || pytest_rc=$?
if [ "$pytest_rc" -ne 0 ]; then
  [ "$pytest_rc" -ne 5 ] || echo "pytest: no tests collected" >&2
  exit 1
fi

step "WebAssembly and browser"
# The WebAssembly build and its pages in headless Chromium (docs/web.md); screenshots go to
# build/web-screenshots/.
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j"$jobs"
for t in tests/web/test_*.py; do /usr/bin/python3 "$t"; done
step done
