#!/usr/bin/env bash
# One command on a fresh Debian machine: install what is missing, build, and plan the Horse
# Breeder's morning (the instance of Prévost et al. 2023) with the default planner.
# References: docs/references.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build/release
echo "== topoplan plan domains/horse-breeder.toml --stats"
build/release/cli/topoplan plan domains/horse-breeder.toml --stats
