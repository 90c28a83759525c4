#!/usr/bin/env bash
# The whole test suite: every package's tests (including each fuzz target's
# seed corpus), then a short fuzzing run of the input parsers.
# FUZZTIME=0 skips the fuzzing; FUZZTIME=1m fuzzes longer.
# A failing step does not stop the others: every step runs, a summary says
# which failed, and the exit status is non-zero if any did.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
passed=0

# step NAME COMMAND... runs one step and records how it went.
step() {
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed+=("$name (exit $?)")
  fi
}

step "go test ./..." go test ./...

fuzztime="${FUZZTIME:-5s}"
# The parsers of what users and servers hand us.
targets=(
  "./internal/workload FuzzParse"
  "./internal/cli FuzzCommandLine"
  "./internal/results FuzzReadJSON"
  "./internal/redact FuzzURL"
  "./internal/generator FuzzParseHistogram"
  "./internal/nullserver FuzzParseMessage"
  "./internal/embedded FuzzCommandName"
)
if [ "$fuzztime" != "0" ]; then
  for t in "${targets[@]}"; do
    set -- $t
    echo "== fuzz $2 ($1) for $fuzztime"
    step "fuzz $2 ($1)" go test -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" "$1"
  done
fi

echo
if [ ${#failed[@]} -eq 0 ]; then
  echo "== all $passed steps passed"
  exit 0
fi
echo "== ${#failed[@]} of $((passed + ${#failed[@]})) steps FAILED:"
for f in "${failed[@]}"; do
  echo "   $f"
done
exit 1
