#!/usr/bin/env bash
# A custom workload, sharded and not (field report 003): workload_s6 (60%
# reads, 40% inserts, zipfian) with one 1 KB field, over a thread sweep,
# once on a sharded cluster and once on a plain replica set. SHARDED_URL
# and UNSHARDED_URL name them (several mongos hosts and credentials are
# fine: passwords are never printed); without them each is an embedded
# server.
source "$(dirname "$0")/lib.sh"

records=$(scale 20000 300)
ops=$(scale 20000 300)
threads=$(scale 1,10,50,100,200,300 1,2,4)
repeat=$(scale 2 2)

for topology in sharded unsharded; do
  var=$(echo "$topology" | tr a-z A-Z)_URL
  server "$topology" "$var"
  say "$topology: workload_s6, threads $threads, $repeat trials each"
  "$MB" sweep -P "$WORKLOADS/workload_s6" -p mongodb.url="$URL" \
    -p recordcount="$records" -p operationcount="$ops" -p fieldcount=1 -p fieldlength=1024 \
    --vary threadcount="$threads" --repeat "$repeat" \
    -l "$topology" --out-dir "$OUT/results-$topology" >"$OUT/$topology.txt"
done

report sharded unsharded --title "workload_s6 sharded and not: where throughput stops rising" \
  --notes "$EXAMPLES/notes/sharded-vs-not.md" -o "$OUT/sharded-vs-not.html"
