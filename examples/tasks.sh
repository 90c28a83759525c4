#!/usr/bin/env bash
# The task study of field report 004 as a native workload (the built-in
# tasks.yaml): one thread inserts N blog posts, finds N of them at random
# by _id, then deletes every one of them once in random _id order, each
# task timed per configuration, with the disk the loaded posts take. The
# configurations are two document sizes, posts with a 20-character text
# and posts with a 2,000-character one, each on a server of its own
# (SMALL_URL and LARGE_URL; without them an embedded server each). Each
# task is repeated, the configurations taking turns trial by trial.
source "$(dirname "$0")/lib.sh"

documents=$(scale 20000 300)
repeat=$(scale 3 2)
declare -A text=([small]=20 [large]=2000)
configs=(small large)

start_servers "${configs[@]}"

for trial in $(seq 1 "$repeat"); do
  for config in "${configs[@]}"; do
    args=(-P "$WORKLOADS/tasks.yaml" -p mongodb.url="${urls[$config]}" -p documents="$documents"
      -p text="${text[$config]}" -l "$config")
    say "trial $trial of $repeat, $config posts (text ${text[$config]}): insert, query and delete $documents"
    # task=insert names the load's task in its results (native.task),
    # as the runs' name theirs.
    "$MB" load "${args[@]}" -p task=insert --drop >"$OUT/$config-insert-$trial.txt"
    "$MB" run "${args[@]}" -p task=query >"$OUT/$config-query-$trial.txt"
    "$MB" run "${args[@]}" -p task=delete >"$OUT/$config-delete-$trial.txt"
  done
done

report "${configs[@]}" --allow-different native.text --title "Single-thread insert, random query and random delete of blog posts, two sizes" \
  --notes "$EXAMPLES/notes/tasks.md" -o "$OUT/tasks.html"
