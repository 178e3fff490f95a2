#!/usr/bin/env bash
# clang-format (LLVM style, .clang-format) over the project's C and C++ sources.
#   scripts/format.sh          reformat in place
#   scripts/format.sh --check  exit non-zero if a file is not formatted
# The inputs of the lit tests are excluded: their CHECK lines follow the text.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
fmt="${CLANG_FORMAT:-clang-format-19}"
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.cc' '*.h' | grep -v '^test/lit/')
if [ "${1:-}" = "--check" ]; then
  "$fmt" --dry-run -Werror "${files[@]}"
  echo "format: ${#files[@]} files formatted"
else
  "$fmt" -i "${files[@]}"
fi
