#!/usr/bin/env bash
# A custom workload, sharded and not (field report 003): workload_s6 (60%
# reads, 40% inserts, zipfian) with one 1 KB field, over a thread sweep,
# once on a sharded cluster (hashed _id, as the field report shards it)
# and once on a plain replica set. SHARDED_URL (a mongos; several mongos
# hosts and credentials are fine: passwords are never printed) and
# UNSHARDED_URL name them; without them each is an embedded server.
#
# Every point reloads its data (--reload): workload_s6 inserts 40% of its
# operations, so without it each point would start with the data the
# points before it inserted, and thread count and data size would be
# mixed. On the sharded configuration the reload drops the collection and
# shards it again on the key before loading. The configurations take
# turns trial by trial, so that a machine that grows busier over the study
# slows both alike.
#
# The embedded server has no mongos, so it cannot be sharded: without
# SHARDED_URL the "sharded" configuration is an unsharded embedded server
# like the other, and the page says so.
source "$(dirname "$0")/lib.sh"

records=$(scale 20000 300)
ops=$(scale 20000 300)
threads=$(scale 1,10,50,100,200,300 1,2,4)
repeat=$(scale 3 2)
shardkey=_id:hashed

notes="$OUT/notes.md"
cp "$EXAMPLES/notes/sharded-vs-not.md" "$notes"

key=()
for topology in sharded unsharded; do
  var=$(echo "$topology" | tr a-z A-Z)_URL
  if [ "$topology" = sharded ]; then
    if [ -n "${!var:-}" ]; then
      key=(-p mongodb.shardkey="$shardkey")
    else
      say "no $var: the embedded server has no mongos; the sharded configuration runs unsharded"
      cat >>"$notes" <<NOTE

**Simulated:** no \`$var\` was given, and the embedded server has no mongos, so the
"sharded" configuration ran on an unsharded embedded server, the same program on the same
machine as "unsharded". Nothing here compares sharding: the page can only show how the study
reads, and should find no difference between the two.
NOTE
    fi
  fi
  server "$topology" "$var"
  urls[$topology]=$URL
done

for trial in $(seq 1 "$repeat"); do
  for topology in sharded unsharded; do
    sharding=()
    if [ "$topology" = sharded ]; then
      sharding=("${key[@]}")
    fi
    say "trial $trial of $repeat, $topology: workload_s6, threads $threads, data reloaded per point"
    "$MB" sweep -P "$WORKLOADS/workload_s6" -p mongodb.url="${urls[$topology]}" \
      -p recordcount="$records" -p operationcount="$ops" -p fieldcount=1 -p fieldlength=1024 "${sharding[@]}" \
      --vary threadcount="$threads" --reload \
      -l "$topology" --out-dir "$OUT/results-$topology-$trial" >"$OUT/$topology-$trial.txt"
  done
done

report sharded unsharded --title "workload_s6 sharded and not: where throughput stops rising" \
  --notes "$notes" -o "$OUT/sharded-vs-not.html"
