#!/usr/bin/env bash
# An insert matrix (field report 002): 1 KB documents inserted by
# goroutines (threads) over a pool of connections (sessions), on several
# instances, each cell of the matrix repeated so that its docs/s has an
# interval and the instances' cells a verdict. SMALL_URL and LARGE_URL name
# the instances; without them each is an embedded server.
source "$(dirname "$0")/lib.sh"

inserts=$(scale 20000 400)
sessions=$(scale 1,4,16 1,4)
goroutines=$(scale 1,4,16,64 1,4)
repeat=$(scale 3 2)

for instance in small large; do
  var=$(echo "$instance" | tr a-z A-Z)_URL
  server "$instance" "$var"
  say "$instance: $inserts inserts of 1 KB, sessions $sessions × goroutines $goroutines, $repeat trials each"
  "$MB" sweep load -P "$WORKLOADS/workloada" -p mongodb.url="$URL" \
    -p recordcount="$inserts" -p fieldcount=1 -p fieldlength=1024 \
    --vary mongodb.maxconnections="$sessions" --vary threadcount="$goroutines" --repeat "$repeat" \
    -l "$instance" --out-dir "$OUT/results-$instance" >"$OUT/$instance.txt"
done

report small large --title "Inserts of 1 KB documents: sessions × goroutines per instance" \
  --notes "$EXAMPLES/notes/insert-matrix.md" -o "$OUT/insert-matrix.html"
