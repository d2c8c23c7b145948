#!/usr/bin/env bash
# One command on a fresh Debian machine: install what is missing, build, and plan the Horse
# Breeder's morning (seed 000's instance) with the default planner.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build/release
echo "== topoplan plan domains/horse-breeder.toml --stats"
build/release/tools/topoplan plan domains/horse-breeder.toml --stats
