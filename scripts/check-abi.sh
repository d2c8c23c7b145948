#!/usr/bin/env bash
# Checks the C API libraries' exported symbols against their lists in the repository.
#   scripts/check-abi.sh BUILD_DIR            fails when a library's exports differ from
#                                             src/capi/<library>.symbols
#   scripts/check-abi.sh --update BUILD_DIR   rewrites the lists from the built libraries
# A list records the TOPOPLAN_C_ABI_VERSION it belongs to (first line). Adding a function keeps
# the version; removing one (or changing a struct or a signature) is an ABI break: --update
# refuses to drop a symbol from a list while the header's version equals the list's, and the
# check fails when the header's version is not the one its lists record.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
if [ "${1:-}" = "--update" ]; then
  update=1
  shift
fi
if [ $# -ne 1 ]; then
  echo "usage: $0 [--update] BUILD_DIR" >&2
  exit 2
fi
build=$1
abi=$(sed -n 's/^#define TOPOPLAN_C_ABI_VERSION \([0-9]*\).*/\1/p' include/topoplan/c/topoplan_c.h)
[ -n "$abi" ] || { echo "check-abi: no TOPOPLAN_C_ABI_VERSION in topoplan_c.h" >&2; exit 1; }
status=0
for lib in topoplan_c topoplan_c_research; do
  so=$build/src/capi/lib$lib.so
  list=src/capi/$lib.symbols
  [ -f "$so" ] || { echo "check-abi: $so is not built" >&2; exit 1; }
  actual=$(nm -D --defined-only "$so" | awk '{print $3}' | LC_ALL=C sort)
  recorded_abi=$(sed -n '1s/.*abi \([0-9]*\)$/\1/p' "$list" 2>/dev/null || true)
  listed=$(grep -v '^#' "$list" 2>/dev/null | LC_ALL=C sort || true)
  added=$(LC_ALL=C comm -13 <(echo "$listed") <(echo "$actual") | sed '/^$/d')
  removed=$(LC_ALL=C comm -23 <(echo "$listed") <(echo "$actual") | sed '/^$/d')
  if ((update)); then
    if [ -n "$removed" ] && [ "$recorded_abi" = "$abi" ]; then
      echo "check-abi: lib$lib.so no longer exports:" $removed >&2
      echo "  an ABI break: bump TOPOPLAN_C_ABI_VERSION (now $abi) before updating $list" >&2
      status=1
      continue
    fi
    { echo "# Exported symbols of lib$lib.so (scripts/check-abi.sh); abi $abi"; echo "$actual"; } >"$list"
    echo "check-abi: $list: $(echo "$actual" | wc -l) symbols, abi $abi"
    continue
  fi
  if [ -n "$added$removed" ]; then
    echo "check-abi: lib$lib.so's exports differ from $list (abi $recorded_abi)" >&2
    [ -z "$added" ] || echo "  added:" $added >&2
    [ -z "$removed" ] || echo "  removed:" $removed "(an ABI break: bump TOPOPLAN_C_ABI_VERSION)" >&2
    echo "  then record them: scripts/check-abi.sh --update $build" >&2
    status=1
  elif [ "$recorded_abi" != "$abi" ]; then
    echo "check-abi: TOPOPLAN_C_ABI_VERSION is $abi but $list records abi $recorded_abi:" \
      "scripts/check-abi.sh --update $build" >&2
    status=1
  else
    echo "check-abi: lib$lib.so: $(echo "$actual" | wc -l) symbols as listed (abi $abi)"
  fi
done
exit $status
