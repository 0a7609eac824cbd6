#!/usr/bin/env bash
# Compiles each file in .ci/compile-fail against the library as built by `swift build`, and
# fails unless the compiler rejects it with the diagnostic its first line names
# (`// expect: ...`). `compiles.swift` is the control: the same calls written right, which must
# compile, so that a file rejected for another reason (a typo, a changed API) cannot pass.
set -euo pipefail
cd "$(dirname "$0")/.."
modules="$(swift build --show-bin-path)/Modules"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for file in .ci/compile-fail/*.swift; do
  expect=$(sed -n '1s|^// expect: ||p' "$file")
  if swiftc -swift-version 6 -parse-as-library -I "$modules" -c "$file" -o "$out/x.o" \
    >"$out/log" 2>&1; then
    if [ "$(basename "$file")" = compiles.swift ]; then
      echo "ok: $file compiles"
    else
      echo "error: $file compiled; it must fail with: $expect"
      failed=1
    fi
  elif [ "$(basename "$file")" = compiles.swift ]; then
    echo "error: $file must compile:"
    cat "$out/log"
    failed=1
  elif grep -q "error: .*$expect" "$out/log"; then
    echo "ok: $file is rejected: $(grep -m1 "error: .*$expect" "$out/log" | sed 's/^.*error: //')"
  else
    echo "error: $file failed without the expected diagnostic ($expect):"
    grep "error:" "$out/log" || cat "$out/log"
    failed=1
  fi
done
exit $failed
