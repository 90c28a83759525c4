# Shared by the measurement scripts (memory.sh, openloop-floor.sh): source it
# after setting work (a scratch directory) and server_pid="" (which the
# caller's cleanup kills).

# start_null_server BIN NAME starts BIN's wire-protocol null server on a
# free loopback port and sets uri (its URI, the server's first line on
# stdout) and url (the same server with the database ycsb); NAME prefixes
# the error when it does not start.
start_null_server() {
  "$1" server --null --addr 127.0.0.1:0 >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
  for _ in $(seq 100); do
    [ -s "$work/server.out" ] && break
    sleep 0.1
  done
  uri=$(head -n 1 "$work/server.out")
  if [ -z "$uri" ]; then
    echo "$2: the null server did not start: $(cat "$work/server.err")" >&2
    exit 1
  fi
  url="${uri%%/\?*}/ycsb?${uri#*\?}"
}

# median prints the median of the numbers on standard input, one a line.
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
