#!/usr/bin/env bash
# Engines A, B and C (field report 004, WiredTiger against MMAPv1 and
# versions): single-thread insert, random query and random delete of the
# same documents timed per engine, their disk use, and thread sweeps of
# 95:5 and 90:10 reads and inserts drawn as overlays. ENGINE_A_URL,
# ENGINE_B_URL and ENGINE_C_URL name the servers; without them each is an
# embedded server.
#
# Every run of an engine carries the engine's label, so that the page sets
# each engine's tasks and sweeps against engine A's kind by kind: the
# insert against the insert, the 95:5 sweep against the 95:5 sweep. Each
# task and each sweep point is repeated, so that a difference can be
# tested rather than read off one run of each, and the engines take turns
# trial by trial (A, B, C, then A, B, C again), so that a machine that
# grows busier over the study slows every engine alike rather than the
# last one.
source "$(dirname "$0")/lib.sh"

records=$(scale 20000 300)
threads=$(scale 1,5,10,20,50 1,4)
ops=$(scale 20000 300)
repeat=$(scale 3 3)
engines=(A B C)

for engine in "${engines[@]}"; do
  server "engine-$engine" "ENGINE_${engine}_URL"
  urls[$engine]=$URL
done

for trial in $(seq 1 "$repeat"); do
  for engine in "${engines[@]}"; do
    single=(-P "$WORKLOADS/workloada" -p mongodb.url="${urls[$engine]}" -p recordcount="$records" -p operationcount="$records"
      -p readproportion=0 -p updateproportion=0 -threads 1 -l "$engine")
    say "trial $trial of $repeat, engine $engine: single-thread insert, query and delete of $records documents"
    "$MB" load "${single[@]}" --drop >"$OUT/$engine-insert-$trial.txt"
    # Random reads of the loaded documents, as many as there are.
    "$MB" run "${single[@]}" -p readproportion=1 -p requestdistribution=uniform >"$OUT/$engine-query-$trial.txt"
    # Every document deleted once: a sequential chooser hands out each key
    # number of the load once, and the keys are hashed (insertorder=hashed),
    # so the deletes visit the _id index in random order, as the field
    # report's "random delete of 1M documents" does. A zipfian chooser
    # would delete some keys again and time NOT_FOUND answers.
    "$MB" run "${single[@]}" -p deleteproportion=1 -p requestdistribution=sequential >"$OUT/$engine-delete-$trial.txt"
  done
done

for trial in $(seq 1 "$repeat"); do
  for mix in 95:5 90:10; do
    read=${mix%:*} insert=${mix#*:}
    for engine in "${engines[@]}"; do
      say "trial $trial of $repeat, engine $engine: $mix reads and inserts, threads $threads"
      "$MB" sweep -P "$WORKLOADS/workloada" -p mongodb.url="${urls[$engine]}" -p recordcount="$records" -p operationcount="$ops" \
        -p readproportion="0.$read" -p updateproportion=0 -p insertproportion="0.$(printf %02d "$insert")" \
        --vary threadcount="$threads" --reload -l "$engine" \
        --out-dir "$OUT/results-$engine-$read-$trial" >"$OUT/$engine-$read-$trial.txt"
    done
  done
done

report "${engines[@]}" \
  --title "Engines A, B and C: single-thread tasks, disk use, 95:5 and 90:10 thread sweeps" \
  --notes "$EXAMPLES/notes/engines.md" -o "$OUT/engines.html"
