#!/usr/bin/env bash
# The insert benchmark of field report 002 as a native workload: documents
# of about 1 KB with an ObjectId _id and ten generated fields (the built-in
# insert1k.yaml), inserted by 1 to 16 goroutines on two instances, each
# point repeated so that its docs/s has an interval and the instances a
# verdict. SMALL_URL and LARGE_URL name the instances; without them each is
# an embedded server. The instances take turns trial by trial.
source "$(dirname "$0")/lib.sh"

documents=$(scale 20000 300)
goroutines=$(scale 1,4,16 1,4)
repeat=$(scale 3 2)

start_servers small large

for trial in $(seq 1 "$repeat"); do
  for instance in small large; do
    say "trial $trial of $repeat, $instance: $documents documents of 1 KB, goroutines $goroutines"
    "$MB" sweep load -P "$WORKLOADS/insert1k.yaml" -p mongodb.url="${urls[$instance]}" \
      -p documents="$documents" --vary threadcount="$goroutines" \
      -l "$instance" --out-dir "$OUT/results-$instance-$trial" >"$OUT/$instance-$trial.txt"
  done
done

report small large --title "Inserts of 1 KB native documents (ObjectId _id) per instance" \
  --notes "$EXAMPLES/notes/insert-1k.md" -o "$OUT/insert-1k.html"
