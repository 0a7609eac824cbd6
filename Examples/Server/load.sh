#!/usr/bin/env bash
# Compares the server's throughput with an actor per session and with every session's store on
# the main actor: starts the release build twice on a loopback port, creates the same sessions
# each time, and has wrk post actions to them round-robin for a while.
#
#   ./load.sh                                   # 64 sessions, wrk -t2 -c32 -d10s
#   SESSIONS=8 DURATION=30s ACTION='{"save":{}}' ./load.sh
#   RECORDING=1 ./load.sh                       # with each session's recording on
#   ROUNDS=3 ./load.sh                          # both servers three times, alternately
#
# wrk shares the machine with the server, so one run's figures move by a quarter or more
# from one run to the next on two cores: compare several rounds, not one.
#
# Needs wrk (Debian: apt-get install wrk) and curl. Sends traffic to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")"

PORT=${PORT:-18080}
SESSIONS=${SESSIONS:-64}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10s}
# Toggling one to-do keeps every list, and so every answer, the same size for the whole run.
ACTION=${ACTION:-'{"toggle":{"id":1}}'}
RECORDING=${RECORDING:-0}
ROUNDS=${ROUNDS:-1}

for tool in wrk curl; do
  command -v "$tool" >/dev/null || { echo "load.sh: $tool is missing" >&2; exit 1; }
done

swift build -c release --product todo-server
binary="$(swift build -c release --show-bin-path)/todo-server"
work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n "$server" ]]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

base="http://127.0.0.1:$PORT"

# Starts the server with the given options and waits until it answers.
start_server() {
  local flags=("--port" "$PORT")
  [[ "$RECORDING" == 1 ]] || flags+=("--no-recording")
  "$binary" "${flags[@]}" "$@" >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do
    if curl -s -o /dev/null "$base/sessions/none"; then return; fi
    sleep 0.1
  done
  echo "load.sh: the server did not start; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
}

stop_server() {
  kill -INT "$server"
  wait "$server" || true
  server=""
}

# Creates the sessions, each with one to-do, and writes the wrk script that posts ACTION to
# them in turn.
prepare_sessions() {
  local ids=()
  for _ in $(seq 1 "$SESSIONS"); do
    local id
    id=$(curl -sf -X POST "$base/sessions" | sed -E 's/.*"id":"([0-9a-f]+)".*/\1/')
    curl -sf -o /dev/null -X POST -H 'Content-Type: application/json' \
      -d '{"add":{"title":"load"}}' "$base/sessions/$id/actions"
    ids+=("\"$id\"")
  done
  local list
  list=$(IFS=,; echo "${ids[*]}")
  cat >"$work/post.lua" <<LUA
local ids = { $list }
local body = '$ACTION'
local headers = { ["Content-Type"] = "application/json" }
local count = 0
request = function()
  count = count + 1
  return wrk.format("POST", "/sessions/" .. ids[(count % #ids) + 1] .. "/actions", headers, body)
end
LUA
}

# Runs wrk against the running server; prints its report and keeps requests/second in $rate.
measure() {
  local label=$1
  echo "== $label: $SESSIONS sessions, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ACTION"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$work/post.lua" "$base" | tee "$work/wrk.txt"
  rate=$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.txt")
  if grep -q "Non-2xx" "$work/wrk.txt"; then
    echo "load.sh: some answers were errors (see above)" >&2
    exit 1
  fi
}

own=()
main=()
for round in $(seq 1 "$ROUNDS"); do
  start_server
  prepare_sessions
  measure "round $round of $ROUNDS, an actor per session"
  own+=("$rate")
  stop_server

  start_server --main-actor
  prepare_sessions
  measure "round $round of $ROUNDS, every store on the main actor (--main-actor)"
  main+=("$rate")
  stop_server
done

echo
echo "requests/second, an actor per session:          ${own[*]}"
echo "requests/second, every store on the main actor: ${main[*]}"
