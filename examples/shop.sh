#!/usr/bin/env bash
# A realistic application as a native workload (the built-in shop.yaml):
# customers, products and orders with secondary indexes; product pages, a
# category listing, a customer's order history a page at a time, a sales
# report and a checkout, on two servers compared operation by operation:
# the current one and a candidate (a new version, a new machine).
# CURRENT_URL and CANDIDATE_URL name them; without them each is an
# embedded server. TRANSACTIONS=true makes the checkout a transaction,
# for servers that have them (a replica set or a sharded cluster); the
# embedded server has none, so it is false by default and the checkout's
# steps run one after another.
source "$(dirname "$0")/lib.sh"

customers=$(scale 1000 60)
orders=$((customers * 10))
duration=$(scale 20s 3s)
repeat=$(scale 3 2)
transactions=${TRANSACTIONS:-false}
configs=(current candidate)

start_servers "${configs[@]}"

shop() {
  local config=$1
  shift
  "$MB" "$@" -P "$WORKLOADS/shop.yaml" -p mongodb.url="${urls[$config]}" -p customers="$customers" \
    -p orders="$orders" -p transactions="$transactions" -p duration="$duration" -l "$config"
}

# Each trial loads afresh, so that every run starts from the same data
# (a run's checkouts add orders and take stock) and the loads are timed
# as often as the runs.
for trial in $(seq 1 "$repeat"); do
  for config in "${configs[@]}"; do
    say "trial $trial of $repeat, $config: $customers customers, $customers products and $orders orders loaded, then the shop's mix for $duration (transactions=$transactions)"
    shop "$config" load --drop >"$OUT/$config-load-$trial.txt"
    shop "$config" run >"$OUT/$config-run-$trial.txt"
  done
done

report "${configs[@]}" --title "A shop's operations on the current server and a candidate" \
  --notes "$EXAMPLES/notes/shop.md" -o "$OUT/shop.html"
