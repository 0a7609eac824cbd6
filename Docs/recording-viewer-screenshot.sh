#!/usr/bin/env bash
# Regenerates the recording viewer's screenshot in "Debugging with recordings"
# (Sources/Arboreal/Arboreal.docc/Resources/recording-viewer.png) from a session of today's
# `todos`: records the session, makes its page with `todos --inspect`, and photographs it in
# headless Chromium at step 9, with the why of `Todo#2.isDone` and a search of the state.
# Usage: bash Docs/recording-viewer-screenshot.sh (needs `chromium` on the PATH).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build --package-path "$root" --product todos
todos="$(swift build --package-path "$root" --show-bin-path)/todos"
cd "$work"
printf '%s\n' 'add milk' 'add eggs' 'add bread' 'add coffee beans' 'done 2' 'filter active' \
  'edit 1' 'oat milk' 'done 4' 'undone 2' 'remove 3' 'filter all' 'add tea' 'done 1' 'quit' |
  "$todos" --file list.json --record session.jsonl > /dev/null
"$todos" --inspect session.jsonl --html session.html
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,800 \
  --screenshot="$root/Sources/Arboreal/Arboreal.docc/Resources/recording-viewer.png" \
  "file://$work/session.html#step=9&why=Todo%232.isDone&search=oat%20milk"
