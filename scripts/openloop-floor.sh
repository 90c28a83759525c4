#!/usr/bin/env bash
# The open loop's cost beside its floor: client CPU time per operation at
# -target RATE with THREADS threads, and in a closed loop with as many,
# for mongobench's two wire paths and for openloop-floor.c (raw sockets, a
# thread per connection, clock_nanosleep: the least any client can spend
# on this machine), all against the wire-protocol null server. The ratio
# open ÷ closed is what the kernel and the machine charge for waking from
# idle once or twice per operation, which a closed loop never does.
#
# Each repetition runs every client once, in turn; the last lines are the
# medians. Run it on an idle machine: the wake-up costs it measures are
# what a busy machine hides.
#
#   scripts/openloop-floor.sh                 # -target 2000, 4 threads, 3 repetitions
#   RATE=500 THREADS=8 REPS=5 scripts/openloop-floor.sh
#   BIN=./mongobench scripts/openloop-floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."

rate=${RATE:-2000}
threads=${THREADS:-4}
reps=${REPS:-3}
secs=${SECONDS_OPEN:-15}
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

for tool in cc /usr/bin/time bc; do
  if ! command -v "$tool" >/dev/null; then
    echo "openloop-floor.sh: needs $tool (packages gcc, time, bc)" >&2
    exit 2
  fi
done
cc -O2 -o "$work/floor" scripts/openloop-floor.c -lpthread
bin=${BIN:-}
if [ -z "$bin" ]; then
  go build -o "$work/mongobench" ./cmd/mongobench
  bin="$work/mongobench"
fi

# shellcheck source=scripts/lib.sh
. scripts/lib.sh
start_null_server "$bin" openloop-floor.sh
port=${uri##*:}
port=${port%%/*}

# mongobench's CPU per operation: (user + system) of the whole process over
# its operations, start-up included, as /usr/bin/time sees it.
mb() { # path, extra flags, seconds
  /usr/bin/time -f "%U %S" -o "$work/time" "$bin" run -P workloadc -threads "$threads" $2 --no-store \
    -p mongodb.url="$url" -p recordcount=1000 -p operationcount=1000000000 -p maxexecutiontime="$3" \
    -p mongodb.path="$1" >"$work/run.out" 2>"$work/run.err" || {
    echo "openloop-floor.sh: mongobench failed: $(tail -n 3 "$work/run.err")" >&2
    exit 1
  }
  ops=$(awk -F', ' '/^\[READ\], Operations/ {print $3}' "$work/run.out")
  read -r user sys <"$work/time"
  lag=$(awk -F', ' '/ScheduleLagP50/ {p50=$3} /ScheduleLagP99/ {p99=$3} END {if (p50 != "") printf "lag p50 %s µs, p99 %s µs", p50, p99}' "$work/run.out")
  printf '%.1f %s\n' "$(echo "($user + $sys) * 1000000 / $ops" | bc -l)" "$lag"
}
floor() { # closed|open
  "$work/floor" "$port" "$1" "$threads" "$rate" "$2" | sed -E 's/.*cpu_per_op_us=([0-9.]+)( lag_p50_us=([0-9.]+) lag_p99_us=([0-9.]+))?.*/\1 \3 \4/'
}

echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
printf '%-22s %4s %12s %12s %8s  %s\n' client rep closed_µs open_µs ratio "open loop's schedule lag"
for rep in $(seq "$reps"); do
  for client in floor lean driver; do
    if [ "$client" = floor ]; then
      closed=$(floor closed 5 | cut -d ' ' -f 1)
      read -r open p50 p99 <<<"$(floor open "$secs")"
      lag="lag p50 $p50 µs, p99 $p99 µs"
    else
      closed=$(mb "$client" "" 10 | cut -d ' ' -f 1)
      line=$(mb "$client" "-target $rate" "$secs")
      open=${line%% *}
      lag=${line#* }
    fi
    echo "$closed" >>"$work/closed.$client"
    echo "$open" >>"$work/open.$client"
    printf '%-22s %4s %12s %12s %7.1f×  %s\n' "$client" "$rep" "$closed" "$open" "$(echo "$open / $closed" | bc -l)" "$lag"
  done
done
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "medians (CPU per operation, µs; $threads threads; open loop at -target $rate):"
for client in floor lean driver; do
  c=$(median <"$work/closed.$client")
  o=$(median <"$work/open.$client")
  printf '%-22s %12s %12s %7.1f×\n' "$client" "$c" "$o" "$(echo "$o / $c" | bc -l)"
done
