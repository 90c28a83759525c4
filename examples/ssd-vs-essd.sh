#!/usr/bin/env bash
# SSD against ESSD cloud disks (field report 000): YCSB's 90:10 read/update
# mix over record count and client threads, repeated, on one server per
# disk. SSD_URL and ESSD_URL name the two servers; without them each disk
# is an embedded server. The disks take turns trial by trial, so that a
# machine that grows busier over the study slows both alike.
source "$(dirname "$0")/lib.sh"

records=$(scale 20000,100000 300,1500)
threads=$(scale 1,8,32,100 1,4)
ops=$(scale 20000 300)
repeat=$(scale 3 2)

start_servers ssd essd

for trial in $(seq 1 "$repeat"); do
  for disk in ssd essd; do
    say "trial $trial of $repeat, $disk: record counts $records × threads $threads"
    "$MB" sweep -P "$WORKLOADS/workloada" -p mongodb.url="${urls[$disk]}" \
      -p readproportion=0.9 -p updateproportion=0.1 -p operationcount="$ops" \
      --vary recordcount="$records" --vary threadcount="$threads" \
      -l "$disk" --out-dir "$OUT/results-$disk-$trial" >"$OUT/$disk-$trial.txt"
  done
done

report ssd essd --title "SSD against ESSD: 90:10 reads and updates" \
  --notes "$EXAMPLES/notes/ssd-vs-essd.md" -o "$OUT/ssd-vs-essd.html"
