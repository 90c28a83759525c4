#!/usr/bin/env bash
# Peak resident memory of the client at 1,000 threads against the
# wire-protocol null server: `mongobench run -P workloadc` on each wire path
# (mongodb.path=driver and lean), as the operation count grows, each run a
# process of its own measured by /usr/bin/time (its Maximum resident set
# size); then `mongobench calibrate` at the same thread count, which puts
# the bare driver loop beside both paths in one process.
#
# Memory does not depend on how busy the machine is, so the figures can be
# taken on a shared machine; the time each run takes does.
#
#   scripts/memory.sh                      # 10^5, 10^6 and 10^7 operations
#   OPS="100000" scripts/memory.sh         # one size only
#   THREADS=500 PATHS=lean scripts/memory.sh
#   BIN=./mongobench scripts/memory.sh     # a binary already built
set -euo pipefail
cd "$(dirname "$0")/.."

threads=${THREADS:-1000}
ops_list=${OPS:-"100000 1000000 10000000"}
paths=${PATHS:-"driver lean"}
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

bin=${BIN:-}
if [ -z "$bin" ]; then
  bin="$work/mongobench"
  go build -o "$bin" ./cmd/mongobench
fi
if ! /usr/bin/time -f %M true 2>/dev/null; then
  echo "memory.sh: needs GNU time at /usr/bin/time (package time)" >&2
  exit 2
fi

# The null server's first line on stdout is its URI.
"$bin" server --null --addr 127.0.0.1:0 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 100); do
  [ -s "$work/server.out" ] && break
  sleep 0.1
done
uri=$(head -n 1 "$work/server.out")
if [ -z "$uri" ]; then
  echo "memory.sh: the null server did not start: $(cat "$work/server.err")" >&2
  exit 1
fi
url="${uri%%/\?*}/ycsb?${uri#*\?}"

printf '%-8s %12s %14s %10s\n' path operations peak_rss_MiB seconds
for ops in $ops_list; do
  for path in $paths; do
    start=$(date +%s.%N)
    /usr/bin/time -f %M -o "$work/rss" "$bin" run -P workloadc -threads "$threads" --no-store \
      -p mongodb.url="$url" -p recordcount=20000 -p operationcount="$ops" -p mongodb.path="$path" \
      >"$work/run.out" 2>"$work/run.err" || {
      echo "memory.sh: run failed (path $path, $ops operations):" >&2
      tail -n 5 "$work/run.err" >&2
      exit 1
    }
    end=$(date +%s.%N)
    kib=$(tail -n 1 "$work/rss")
    printf '%-8s %12s %14.1f %10.1f\n' "$path" "$ops" "$(echo "$kib / 1024" | bc -l)" "$(echo "$end - $start" | bc -l)"
  done
done

echo
echo "calibrate at $threads threads (bare driver loop, driver path, lean path; one process):"
"$bin" calibrate -threads "$threads" --no-extras -p mongodb.url="$url" 2>/dev/null |
  sed -n '/^point/,/^$/p'
