# Sourced by every example: the binary, the scale, the output directory,
# and one server per configuration.
#
#   MONGOBENCH  the mongobench binary (default: mongobench on the PATH)
#   SCALE       full (default: a few minutes on a laptop) or small (seconds,
#               for CI: tiny record and operation counts, fewer points)
#   OUT         where the results, the store and the page go
#               (default: out/<example name>)
#
# A configuration's server is the URL in its variable (SSD_URL, ENGINE_A_URL,
# ...) when it is set; otherwise the example starts an embedded server for
# it, so that every configuration has a server of its own, as on the real
# machines the field reports compared. Against the embedded server the
# configurations are alike: the page shows how a study reads, not which disk
# or engine is faster.

set -euo pipefail

EXAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORKLOADS=$(cd "$EXAMPLES/../workloads" && pwd)
MB=${MONGOBENCH:-mongobench}
SCALE=${SCALE:-full}
case "$SCALE" in
  full | small) ;;
  *) echo "SCALE=$SCALE: expected full or small" >&2; exit 2 ;;
esac
NAME=$(basename "$0" .sh)
OUT=${OUT:-out/$NAME}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export MONGOBENCH_STORE="$OUT/mongobench.db"
# A second run starts afresh: the store and the sweeps' results
# directories are the example's own, and a sweep refuses a directory that
# holds results already.
rm -rf "$MONGOBENCH_STORE" "$OUT"/results-*

# scale FULL SMALL prints the value for the current scale.
scale() {
  if [ "$SCALE" = small ]; then echo "$2"; else echo "$1"; fi
}

servers=()
stop_servers() {
  local pid
  for pid in "${servers[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap stop_servers EXIT

# server NAME VAR sets URL to configuration NAME's server: $VAR when set,
# else an embedded server started for it (its data and log under
# $OUT/NAME-server), stopped when the example ends. DATA_DIR is where an
# embedded server keeps its data, on this machine's disk; empty for a
# server named by its URL, whose disk may be another machine's.
server() {
  local name=$1 var=$2
  if [ -n "${!var:-}" ]; then
    URL=${!var}
    DATA_DIR=""
    return
  fi
  local dir="$OUT/$name-server"
  DATA_DIR="$dir/data"
  rm -rf "$dir"
  mkdir -p "$dir"
  "$MB" server --addr 127.0.0.1:0 --data-dir "$dir/data" >"$dir/server.log" 2>&1 &
  servers+=($!)
  local url="" i
  for i in $(seq 1 300); do
    url=$(grep -o 'mongodb://[^ ]*' "$dir/server.log" | head -n 1 || true)
    [ -n "$url" ] && break
    if ! kill -0 "${servers[-1]}" 2>/dev/null; then
      echo "the embedded server for $name did not start:" >&2
      cat "$dir/server.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "the embedded server for $name did not say where it listens" >&2
    exit 1
  fi
  URL="${url%/}/ycsb"
}

# start_servers NAME... gives each configuration its server, NAME_URL's when
# that is set (NAME in capitals), else an embedded one, and sets urls[NAME]
# to its URL.
declare -A urls
start_servers() {
  local name
  for name in "$@"; do
    server "$name" "$(echo "$name" | tr a-z A-Z)_URL"
    urls[$name]=$URL
  done
}

# say prints what the example does next.
say() { echo "== $NAME: $*" >&2; }

# report runs mongobench report in $OUT, where the only names are the
# examples' own: a label such as "ssd" is looked up in the store, never
# taken for a directory of the same name in the caller's directory. The
# sweeps' results files go to $OUT/results-LABEL for the same reason.
report() {
  (cd "$OUT" && "$MB" report "$@")
}
