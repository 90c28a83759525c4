#!/usr/bin/env bash
# An insert matrix (field report 002): 1 KB documents inserted by
# goroutines (threads) over a pool of connections (sessions), on several
# instances, each cell of the matrix repeated so that its docs/s has an
# interval and the instances' cells a verdict. SMALL_URL and LARGE_URL name
# the instances; without them each is an embedded server. The instances
# take turns trial by trial, so that a machine that grows busier over the
# study slows both alike.
source "$(dirname "$0")/lib.sh"

inserts=$(scale 20000 400)
sessions=$(scale 1,4,16 1,4)
goroutines=$(scale 1,4,16,64 1,4)
repeat=$(scale 3 2)

start_servers small large

for trial in $(seq 1 "$repeat"); do
  for instance in small large; do
    say "trial $trial of $repeat, $instance: $inserts inserts of 1 KB, sessions $sessions × goroutines $goroutines"
    "$MB" sweep load -P "$WORKLOADS/workloada" -p mongodb.url="${urls[$instance]}" \
      -p recordcount="$inserts" -p fieldcount=1 -p fieldlength=1024 \
      --vary mongodb.maxconnections="$sessions" --vary threadcount="$goroutines" \
      -l "$instance" --out-dir "$OUT/results-$instance-$trial" >"$OUT/$instance-$trial.txt"
  done
done

report small large --title "Inserts of 1 KB documents: sessions × goroutines per instance" \
  --notes "$EXAMPLES/notes/insert-matrix.md" -o "$OUT/insert-matrix.html"
