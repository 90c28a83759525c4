#!/usr/bin/env bash
# The whole test suite: every package's tests (including each fuzz target's
# seed corpus), then a short fuzzing run of the input parsers.
# FUZZTIME=0 skips the fuzzing; FUZZTIME=1m fuzzes longer.
set -euo pipefail
cd "$(dirname "$0")/.."

go test ./...

fuzztime="${FUZZTIME:-5s}"
[ "$fuzztime" = "0" ] && exit 0
# The parsers of what users and servers hand us.
targets=(
  "./internal/workload FuzzParse"
  "./internal/cli FuzzCommandLine"
  "./internal/export FuzzReadJSON"
  "./internal/redact FuzzURL"
  "./internal/generator FuzzParseHistogram"
  "./internal/nullserver FuzzParseMessage"
)
for t in "${targets[@]}"; do
  set -- $t
  echo "== fuzz $2 ($1) for $fuzztime"
  go test -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" "$1"
done
