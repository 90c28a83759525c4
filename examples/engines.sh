#!/usr/bin/env bash
# Engines A, B and C (field report 004, WiredTiger against MMAPv1 and
# versions): single-thread insert, random query and random delete of the
# same documents timed per engine, their disk use, and thread sweeps of
# 95:5 and 90:10 reads and inserts drawn as overlays. ENGINE_A_URL,
# ENGINE_B_URL and ENGINE_C_URL name the servers; without them each is an
# embedded server.
source "$(dirname "$0")/lib.sh"

records=$(scale 20000 300)
threads=$(scale 1,5,10,20,50 1,4)
ops=$(scale 20000 300)

groups=()
for engine in A B C; do
  server "engine-$engine" "ENGINE_${engine}_URL"
  single=(-P "$WORKLOADS/workloada" -p mongodb.url="$URL" -p recordcount="$records" -p operationcount="$records"
    -p readproportion=0 -p updateproportion=0 -threads 1 -l "$engine")
  say "engine $engine: single-thread insert, query and delete of $records documents"
  "$MB" load "${single[@]}" --drop >"$OUT/$engine-insert.txt"
  "$MB" run "${single[@]}" -p readproportion=1 -p requestdistribution=uniform >"$OUT/$engine-query.txt"
  "$MB" run "${single[@]}" -p deleteproportion=1 >"$OUT/$engine-delete.txt"
  for mix in 95:5 90:10; do
    read=${mix%:*} insert=${mix#*:}
    say "engine $engine: $mix reads and inserts, threads $threads"
    "$MB" sweep -P "$WORKLOADS/workloada" -p mongodb.url="$URL" -p recordcount="$records" -p operationcount="$ops" \
      -p readproportion="0.$read" -p updateproportion=0 -p insertproportion="0.$(printf %02d "$insert")" \
      --vary threadcount="$threads" --reload -l "$engine-$read" --out-dir "$OUT/results-$engine-$read" >"$OUT/$engine-$read.txt"
  done
  groups+=("$engine")
done

report "${groups[@]}" A-95 B-95 C-95 A-90 B-90 C-90 \
  --title "Engines A, B and C: single-thread tasks, disk use, 95:5 and 90:10 thread sweeps" \
  --notes "$EXAMPLES/notes/engines.md" -o "$OUT/engines.html"
