#!/usr/bin/env bash
# Working set against cache (field report 001): 16 threads of uniform
# reads while the record count grows past what the cache holds, with the
# regime table (data and index size, cache fill and hit ratio, MB read
# into cache, disk IOPS, await and utilisation) beside throughput and p99.
# DB_URL names the server; give it a small WiredTiger cache to see the
# regimes change.
#
# As the field report does, the disk is measured first (fio, through
# mongobench disk), so that each point's IOPS can be read against what the
# disk can do; DB_DIR names a directory on the database's disk when the
# server is on this machine (with the embedded server, its data directory
# is used). Without fio, or with a server elsewhere and no DB_DIR, the
# study runs without the baseline and the page says so. Each trial warms
# the cache up before it is measured: the figures are of a cache that
# holds what it can, not of the first reads after a load.
source "$(dirname "$0")/lib.sh"

records=$(scale 10000,40000,160000,320000 300,1200,4800)
ops=$(scale 40000 600)
repeat=$(scale 3 2)
warmup=$(scale 10 1)

server db DB_URL

notes="$OUT/notes.md"
cp "$EXAMPLES/notes/working-set.md" "$notes"
dir=${DB_DIR:-$DATA_DIR}
nobaseline=""
if [ -z "$dir" ]; then
  nobaseline="DB_URL names a server whose disk this machine cannot measure: run \`mongobench disk --dir DIR\` on the server's machine, or set DB_DIR when it is this one"
elif ! command -v fio >/dev/null 2>&1; then
  nobaseline="fio is not installed (\`apt-get install fio\`)"
else
  say "disk baseline of $dir (fio)"
  mkdir -p "$dir"
  if ! "$MB" disk --dir "$dir" --size "$(scale 1G 32M)" --runtime "$(scale 10s 1s)" >"$OUT/disk.txt" 2>"$OUT/disk.err"; then
    nobaseline="mongobench disk failed: $(tail -n 1 "$OUT/disk.err")"
  else
    cat >>"$notes" <<NOTE

**Disk baseline** (\`mongobench disk\`, fio, before the sweep), $(grep '^ceiling:' "$OUT/disk.txt"). Each
run's disk figures are read against it: see "The disk's measured ceiling" under each run.
NOTE
  fi
fi
if [ -n "$nobaseline" ]; then
  say "no disk baseline: $nobaseline"
  cat >>"$notes" <<NOTE

**No disk baseline:** $nobaseline. The disk figures below are judged by %util alone, which
cannot tell a saturated SSD from a busy one.
NOTE
fi

say "record counts $records, 16 threads of uniform reads, $repeat trials each, ${warmup} s warm-up per trial"
"$MB" sweep -P "$WORKLOADS/workloadc" -p mongodb.url="$URL" -p requestdistribution=uniform \
  -p operationcount="$ops" -p warmuptime="$warmup" -threads 16 --vary recordcount="$records" --repeat "$repeat" \
  -l working-set --out-dir "$OUT/results-sweep" >"$OUT/sweep.txt"

report working-set --title "Working set against cache: uniform reads, 16 threads" \
  --notes "$notes" -o "$OUT/working-set.html"
