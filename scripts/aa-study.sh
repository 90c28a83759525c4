#!/usr/bin/env bash
# The live A/A study: one configuration run as three labelled groups (a
# thread sweep with repeats, each group against a fresh embedded server),
# compared and drawn, STUDIES times. Every difference, "best" line or
# fastest task that compare or the page states is a false finding: the
# three groups are the same configuration. It prints one line per study
# and, last, the false-finding count.
#
#   MONGOBENCH  the binary (default: go build into a temporary directory)
#   STUDIES     how many studies (default 10)
#   THREADS     the sweep's thread counts (default 1,2,4,8,16,32)
#   REPEAT      trials per point (default 2)
#   OPS         operations per run (default 3000)
#   KEEP        a directory to keep the stores and pages in (default: none)
#
# Run it on a quiet machine and again beside other work (for example two
# `yes > /dev/null` loops): a verdict must not depend on the noise.
set -euo pipefail
cd "$(dirname "$0")/.."

STUDIES=${STUDIES:-10}
THREADS=${THREADS:-1,2,4,8,16,32}
REPEAT=${REPEAT:-2}
OPS=${OPS:-3000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${MONGOBENCH:-}" ]; then
  go build -o "$work/mongobench" ./cmd/mongobench
  MONGOBENCH="$work/mongobench"
fi

# The sentences that state a difference between configurations.
findings='<li class="(better|worse)">|has the best|took the least time|significantly better in [1-9]|worse in [1-9]'

false_findings=0
knees=0
for s in $(seq 1 "$STUDIES"); do
  dir="$work/study-$s"
  mkdir -p "$dir"
  store="$dir/mongobench.db"
  # The groups take turns trial by trial, as a study of real
  # configurations should: a machine that grows busier (or quieter) during
  # the study then slows each group alike, instead of passing for a
  # difference between whichever groups ran before and after.
  for trial in $(seq 1 "$REPEAT"); do
    for label in v1 v2 v3; do
      "$MONGOBENCH" sweep run mongodb -P workloads/workloadc -p recordcount=1000 -p operationcount="$OPS" \
        --vary threadcount="$THREADS" -l "$label" \
        --store "$store" --out-dir "$dir/$label-$trial" >"$dir/$label.out" 2>"$dir/$label.err" || {
        echo "study $s: sweep $label, trial $trial failed:" >&2
        tail -5 "$dir/$label.err" >&2
        exit 1
      }
    done
  done
  "$MONGOBENCH" compare label:v1 label:v2 label:v3 --store "$store" >"$dir/compare.txt" 2>"$dir/compare.err"
  "$MONGOBENCH" report label:v1 label:v2 label:v3 --store "$store" -o "$dir/report.html" 2>"$dir/report.err"
  stated=$(cat "$dir/compare.txt" "$dir/report.html" | grep -oE "$findings" | sort | uniq -c | tr -s ' ' | paste -sd ';' - || true)
  k=$(grep -cE '<p class="finding">v[123]: knee: ' "$dir/report.html" || true)
  knees=$((knees + k))
  if [ -n "$stated" ]; then
    false_findings=$((false_findings + 1))
    echo "study $s: states a difference:$stated"
  else
    echo "study $s: no difference stated; $k of 3 lines state a knee"
  fi
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP"
    cp "$dir/report.html" "$KEEP/study-$s.html"
    cp "$dir/compare.txt" "$KEEP/study-$s-compare.txt"
  fi
done
echo "A/A studies: $STUDIES; stating a difference: $false_findings; knees stated: $knees of $((3 * STUDIES)) lines"
[ "$false_findings" -le $((STUDIES / 10)) ]
