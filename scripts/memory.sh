#!/usr/bin/env bash
# Peak resident memory of the client at 1,000 threads against the
# wire-protocol null server: `mongobench run -P workloadc` on each wire path
# (mongodb.path=driver and lean), as the operation count grows, each run a
# process of its own measured by /usr/bin/time (its Maximum resident set
# size); then `mongobench calibrate` at the same thread count, which puts
# the bare driver loop beside both paths in one process.
#
# Memory does not depend on how busy the machine is, so the figures can be
# taken on a shared machine; the time each run takes does, which is why the
# load average is printed before and after.
#
# Each size is run REPS times, the paths interleaved within a repetition so
# that a drift of the machine falls on both alike; the last column is the
# operation count's median over the repetitions, the curve to read.
#
#   scripts/memory.sh                      # 10^5, 10^6 and 10^7 operations, 3 times each
#   OPS="100000" REPS=1 scripts/memory.sh  # one size, once
#   THREADS=500 PATHS=lean scripts/memory.sh
#   BIN=./mongobench scripts/memory.sh     # a binary already built
#   CALIBRATE=0 scripts/memory.sh          # without calibrate's comparison
set -euo pipefail
cd "$(dirname "$0")/.."

threads=${THREADS:-1000}
ops_list=${OPS:-"100000 1000000 10000000"}
paths=${PATHS:-"driver lean"}
reps=${REPS:-3}
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

bin=${BIN:-}
if [ -z "$bin" ]; then
  # The linker's own output file maps about 10 MiB more of itself into
  # every process that runs it than a copy does (its pages sit in the page
  # cache in larger pieces), which would count in the resident set: the
  # runs use a copy, as an installed binary is.
  go build -o "$work/built" ./cmd/mongobench
  cp "$work/built" "$work/mongobench"
  bin="$work/mongobench"
fi
if ! /usr/bin/time -f %M true 2>/dev/null; then
  echo "memory.sh: needs GNU time at /usr/bin/time (package time)" >&2
  exit 2
fi

# shellcheck source=scripts/lib.sh
. scripts/lib.sh
start_null_server "$bin" memory.sh


echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
printf '%-8s %12s %4s %14s %10s %12s\n' path operations rep peak_rss_MiB seconds median_MiB
for ops in $ops_list; do
  for path in $paths; do : >"$work/peaks.$path"; done
  for rep in $(seq "$reps"); do
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
      mib=$(echo "$(tail -n 1 "$work/rss") / 1024" | bc -l)
      echo "$mib" >>"$work/peaks.$path"
      med=""
      if [ "$rep" -eq "$reps" ]; then med=$(printf '%.1f' "$(median <"$work/peaks.$path")"); fi
      printf '%-8s %12s %4s %14.1f %10.1f %12s\n' "$path" "$ops" "$rep" "$mib" "$(echo "$end - $start" | bc -l)" "$med"
    done
  done
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"

if [ "${CALIBRATE:-1}" = 0 ]; then exit 0; fi

echo
echo "calibrate at $threads threads (bare driver loop, driver path, lean path; one process):"
"$bin" calibrate -threads "$threads" --no-extras -p mongodb.url="$url" 2>/dev/null |
  sed -n '/^point/,/^$/p'
