#!/usr/bin/env bash
# Builds the server and its tests with every warning an error, then runs the tests.
set -euo pipefail
cd "$(dirname "$0")"

swift build -Xswiftc -warnings-as-errors --build-tests
swift test
