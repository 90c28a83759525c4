#!/usr/bin/env bash
# TPC-C against threads, batching on and off: the shape of the tables of
# MongoDB's TPC-C paper (Kamsky, PVLDB 2019), tpmC against threads, and the
# gain of batching a NewOrder's stock updates, at a small scale. TPCC_URL
# names the server; without it an embedded server, which has no
# multi-document transactions, so every run is tpcc.transactions=false
# (TXN=true runs them in transactions, against a replica set). The two
# configurations take turns trial by trial, so that a machine that grows
# busier over the study slows both alike.
source "$(dirname "$0")/lib.sh"

warehouses=$(scale 2 1)
items=$(scale 10000 200)
customers=$(scale 300 30)
seconds=$(scale 20 2)
threads=$(scale 1,2,4,8 1,2)
repeat=$(scale 3 2)
txn=${TXN:-false}

server tpcc TPCC_URL
say "loading $warehouses warehouse(s) ($items items, $customers customers per district)"
"$MB" tpcc load -p mongodb.url="$URL" -p warehouses="$warehouses" -p items="$items" -p customers="$customers" \
  -p threadcount="$warehouses" --drop >"$OUT/load.txt"

# The check after each run is left to the end: without transactions,
# concurrent workers may leave a condition broken (which is what
# transactions are for), and the study is about throughput.
for trial in $(seq 1 "$repeat"); do
  for batch in true false; do
    label=batch-$batch
    say "trial $trial of $repeat, $label: threads $threads, $seconds s each"
    "$MB" sweep run -p workload=tpcc -p mongodb.url="$URL" -p warehouses="$warehouses" \
      -p items="$items" -p customers="$customers" -p tpcc.transactions="$txn" -p tpcc.check=false \
      -p tpcc.batchwrites="$batch" -p maxexecutiontime="$seconds" \
      --vary threadcount="$threads" -l "$label" --out-dir "$OUT/results-$label-$trial" >"$OUT/$label-$trial.txt"
  done
done

say "checking the consistency conditions after the study"
"$MB" tpcc check -p mongodb.url="$URL" -p warehouses="$warehouses" >"$OUT/check.txt" || true

report batch-true batch-false --allow-different tpcc.batchwrites --title "TPC-C: transactions against threads, stock updates batched or not" \
  --notes "$EXAMPLES/notes/tpcc-threads.md" -o "$OUT/tpcc-threads.html"
