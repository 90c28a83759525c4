#!/usr/bin/env bash
# Working set against cache (field report 001): 16 threads of uniform
# reads while the record count grows past what the cache holds, with the
# regime table (data and index size, cache fill and hit ratio, MB read
# into cache, disk IOPS, await and utilisation) beside throughput and p99.
# DB_URL names the server; give it a small WiredTiger cache to see the
# regimes change.
source "$(dirname "$0")/lib.sh"

records=$(scale 10000,40000,160000,320000 300,1200,4800)
ops=$(scale 40000 600)
repeat=$(scale 3 2)

server db DB_URL
say "record counts $records, 16 threads of uniform reads, $repeat trials each"
"$MB" sweep -P "$WORKLOADS/workloadc" -p mongodb.url="$URL" -p requestdistribution=uniform \
  -p operationcount="$ops" -threads 16 --vary recordcount="$records" --repeat "$repeat" \
  -l working-set --out-dir "$OUT/results-sweep" >"$OUT/sweep.txt"

report working-set --title "Working set against cache: uniform reads, 16 threads" \
  --notes "$EXAMPLES/notes/working-set.md" -o "$OUT/working-set.html"
