#!/usr/bin/env bash
# Runs a partitioned benchmark on this machine as a cluster would: one
# served embedded server, N processes with JOB_COMPLETION_INDEX set
# started one second apart (load, then run of workload D), and the merge
# of their results. Usage: scripts/parts-local.sh [N] (default 4).
# MONGOBENCH names the binary (default: built from this tree); RECORDS,
# OPS and TARGET size the run (defaults 10000, 16000, 800 ops/s in all).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-4}
dir=$(mktemp -d)
bin=${MONGOBENCH:-$dir/mongobench}
[ -n "${MONGOBENCH:-}" ] || go build -o "$bin" ./cmd/mongobench
port=$((27100 + RANDOM % 800))
url="mongodb://127.0.0.1:$port/ycsb"
"$bin" server --addr "127.0.0.1:$port" >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q listening "$dir/server.log" && break; sleep 0.1; done

# phase NAME ARGS... runs the N parts of one phase, one second apart.
phase() {
  local name=$1
  shift
  local pids=()
  for i in $(seq 0 $((n - 1))); do
    JOB_COMPLETION_INDEX=$i "$bin" "$@" -p mongodb.url="$url" --parts "$n" --no-store \
      --out "$dir/$name/part-$i.json" >"$dir/$name/part-$i.txt" 2>"$dir/$name/part-$i.err" &
    pids+=($!)
    sleep 1
  done
  for p in "${pids[@]}"; do wait "$p"; done
}
mkdir -p "$dir/load" "$dir/run"
records=${RECORDS:-10000} ops=${OPS:-16000} target=${TARGET:-800}
phase load load mongodb -P workloadd -p recordcount="$records" -threads 4
phase run run mongodb -P workloadd -p recordcount="$records" -p operationcount="$ops" -target "$target" -threads 4
echo "== load"
"$bin" merge "$dir/load" -o "$dir/load-merged.json" --no-store | grep -E '^\[(OVERALL|INSERT|PARTS)\]'
echo "== run: the parts"
grep -h 'Return=\|FAILED' "$dir"/run/part-*.txt | sort | uniq -c
echo "== run: merged"
"$bin" merge "$dir/run" -o "$dir/run-merged.json" --no-store
echo "results in $dir"
