#!/usr/bin/env bash
# The longest functions and files of the C and C++ sources (cli, src, include, bench, tests,
# examples, python/src, fuzz), for the size rule of docs/architecture.md: no function over
# about 100 lines and no file over about 600 outside a documented hot loop.
#
#   scripts/structure.sh [FUNCTION_LINES [FILE_LINES]]     (defaults 80 and 500)
#
# Functions are counted by universal-ctags (their first to their last line, comments and blank
# lines included); files by wc -l. Prints two Markdown tables, longest first. Always exits 0.
# A function marked as a documented hot loop is not listed: the marker `// hot loop: kept whole`
# in the comment lines (or template / attribute lines) just above its signature, followed by the
# measured reason it is not split.
set -euo pipefail
cd "$(dirname "$0")/.."
fn_min=${1:-80}
file_min=${2:-500}
dirs=(cli src include bench tests examples python/src fuzz)
marker='// hot loop: kept whole'

# True when the lines just above line $2 of file $1 (comments, template and attribute lines)
# hold the marker.
hot_marked() {
  local file=$1 line=$2 text
  while ((--line >= 1)); do
    text=$(sed -n "${line}p" "$file")
    [[ $text =~ ^[[:space:]]*(//|template|\[\[) ]] || return 1
    [[ $text == *"$marker"* ]] && return 0
  done
  return 1
}

echo "| lines | function | where |"
echo "|---:|---|---|"
ctags -R --languages=C,C++ --kinds-C++=f --kinds-C=f --fields=+ne --extras=-F -f - "${dirs[@]}" \
    2>/dev/null |
  awk -F'\t' -v min="$fn_min" '{
      s = ""; e = ""
      for (i = 4; i <= NF; i++) {
        if ($i ~ /^line:/) s = substr($i, 6)
        if ($i ~ /^end:/) e = substr($i, 5)
      }
      if (s != "" && e != "" && e - s + 1 >= min) printf "%d\t%s\t%s:%s\n", e - s + 1, $1, $2, s
    }' |
  sort -t$'\t' -k1,1nr -k3,3 |
  while IFS=$'\t' read -r lines name where; do
    hot_marked "${where%:*}" "${where##*:}" || printf '| %d | `%s` | %s |\n' "$lines" "$name" "$where"
  done

echo
echo "| lines | file |"
echo "|---:|---|"
find "${dirs[@]}" -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o \
    -name '*.hpp' \) -print0 | xargs -0 wc -l |
  awk -v min="$file_min" '$2 != "total" && $1 >= min { printf "%d\t%s\n", $1, $2 }' |
  sort -t$'\t' -k1,1nr -k2,2 | awk -F'\t' '{ printf "| %d | %s |\n", $1, $2 }'
