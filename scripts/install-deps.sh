#!/usr/bin/env bash
# Installs the Debian packages topoplan needs to build and test, if any is missing.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libgtest-dev libgmock-dev libbenchmark-dev
          libtomlplusplus-dev libcli11-dev nlohmann-json3-dev clang-format git)
packages+=(emscripten chromium chromium-driver python3-selenium)  # web/: WebAssembly + browser tests
# The Python package (pybind11 module, tests, example plot; pip drives setuptools in a venv).
packages+=(python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pytest
           python3-hypothesis python3-matplotlib python3-setuptools python3-pip python3-venv)
packages+=(python3-distributed)  # Dask: the arena's tuning sweeps on a cluster (scripts/arena-tune.py)
packages+=(clang libclang-rt-14-dev)  # the ASan + UBSan tree and fuzz/ libFuzzer harnesses
packages+=(mono-devel)  # bindings/csharp/: the C# package's compiler (mcs) and runtime (mono)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
