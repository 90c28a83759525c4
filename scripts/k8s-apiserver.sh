#!/usr/bin/env bash
# A real Kubernetes API server on loopback, for checking the manifests
# `mongobench k8s` prints with a server-side dry run (validation,
# defaulting and cross-field rules that decoding alone cannot check).
#
#   scripts/k8s-apiserver.sh build   build etcd and kube-apiserver into the cache (once; ~30 min cold on 2 cores)
#   scripts/k8s-apiserver.sh start   start both on loopback; prints the environment the tests read
#   scripts/k8s-apiserver.sh stop    stop them, by the process ids start wrote
#   scripts/k8s-apiserver.sh env     print the environment of a running pair
#
# The binaries are built from the Go module proxy: k8s.io/kubernetes with its
# staging modules replaced by their published releases of the same minor
# version (the repository's own go.mod points them at ./staging, which a
# module download does not have), and etcd's server module behind a
# three-line main. They are cached outside the checkout
# (MONGOBENCH_K8S_CACHE, default ~/.cache/mongobench-k8s) and never committed.
#
# The test that uses them (internal/kubejob, TestServerSideDryRun) reads
# MONGOBENCH_K8S_ASSETS (the directory holding etcd and kube-apiserver, as
# envtest's KUBEBUILDER_ASSETS does); `start` also exports the server's
# address and token for it.
set -euo pipefail

KUBE_VERSION=${KUBE_VERSION:-v1.37.2}
STAGING_VERSION=${STAGING_VERSION:-v0.37.2}
ETCD_VERSION=${ETCD_VERSION:-v3.7.0}
CACHE=${MONGOBENCH_K8S_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mongobench-k8s}
BIN="$CACHE/bin-$KUBE_VERSION"
RUN="$CACHE/run"
ETCD_PORT=${ETCD_PORT:-23791}
API_PORT=${API_PORT:-26443}

die() { echo "k8s-apiserver: $*" >&2; exit 2; }

build() {
	if [[ -x "$BIN/kube-apiserver" && -x "$BIN/etcd" ]]; then
		echo "k8s-apiserver: binaries present in $BIN"
		return
	fi
	local src="$CACHE/src-$KUBE_VERSION"
	mkdir -p "$src/etcd" "$BIN"
	local mod
	mod=$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
	[[ -f "$mod" ]] || die "cannot download k8s.io/kubernetes@$KUBE_VERSION from the module proxy"
	{
		echo "module mongobench.local/k8sassets"
		echo
		echo "go $(go env GOVERSION | sed 's/^go//')"
		echo
		echo "require ("
		echo "	k8s.io/kubernetes $KUBE_VERSION"
		echo "	go.etcd.io/etcd/server/v3 $ETCD_VERSION"
		echo ")"
		echo
		echo "replace ("
		grep -oE '^\s+k8s.io/[a-z0-9-]+ => \./staging' "$mod" | awk -v v="$STAGING_VERSION" '{print "\t" $1 " => " $1 " " v}'
		echo ")"
	} >"$src/go.mod"
	cat >"$src/etcd/main.go" <<'EOF'
// Command etcd is etcd's server, as its own main package starts it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
	cat >"$src/tools.go" <<'EOF'
//go:build tools

package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
EOF
	(
		cd "$src"
		go mod tidy
		echo "k8s-apiserver: building etcd $ETCD_VERSION"
		go build -trimpath -o "$BIN/etcd" ./etcd
		echo "k8s-apiserver: building kube-apiserver $KUBE_VERSION (about 30 minutes cold on 2 cores)"
		# The version the server reports (/version) is set at link time, as
		# Kubernetes' own build does; without it, it says v0.0.0-master.
		local minor=${KUBE_VERSION#v1.}
		minor=${minor%%.*}
		local pkg=k8s.io/component-base/version
		go build -trimpath -ldflags "-X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean" \
			-o "$BIN/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
	)
	echo "k8s-apiserver: built into $BIN"
}

wait_ready() {
	local url=$1 what=$2 i
	for ((i = 0; i < 240; i++)); do
		if curl -sfk ${3:+-H "$3"} "$url" >/dev/null 2>&1; then
			return
		fi
		sleep 0.5
	done
	die "$what did not become ready at $url within 120 s (logs in $RUN)"
}

start() {
	[[ -x "$BIN/kube-apiserver" && -x "$BIN/etcd" ]] || die "no binaries in $BIN: run '$0 build' first"
	[[ -f "$RUN/apiserver.pid" ]] && die "already started (pid file $RUN/apiserver.pid): run '$0 stop' first"
	rm -rf "$RUN" && mkdir -p "$RUN/etcd" "$RUN/certs"
	local token
	token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
	echo "$token,mongobench-check,mongobench-check,system:masters" >"$RUN/tokens.csv"
	echo "$token" >"$RUN/token"
	openssl genrsa -out "$RUN/certs/sa.key" 2048 2>/dev/null
	openssl rsa -in "$RUN/certs/sa.key" -pubout -out "$RUN/certs/sa.pub" 2>/dev/null
	"$BIN/etcd" --data-dir "$RUN/etcd" \
		--listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
		--listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" >"$RUN/etcd.log" 2>&1 &
	echo $! >"$RUN/etcd.pid"
	wait_ready "http://127.0.0.1:$ETCD_PORT/health" etcd
	"$BIN/kube-apiserver" \
		--etcd-servers "http://127.0.0.1:$ETCD_PORT" \
		--bind-address 127.0.0.1 --secure-port "$API_PORT" --cert-dir "$RUN/certs" \
		--token-auth-file "$RUN/tokens.csv" --authorization-mode RBAC \
		--service-account-issuer https://kubernetes.default.svc \
		--service-account-key-file "$RUN/certs/sa.pub" \
		--service-account-signing-key-file "$RUN/certs/sa.key" \
		--service-cluster-ip-range 10.96.0.0/16 \
		--disable-admission-plugins ServiceAccount \
		>"$RUN/apiserver.log" 2>&1 &
	echo $! >"$RUN/apiserver.pid"
	wait_ready "https://127.0.0.1:$API_PORT/readyz" kube-apiserver "Authorization: Bearer $token"
	env_lines
}

env_lines() {
	[[ -f "$RUN/token" ]] || die "not started"
	echo "export MONGOBENCH_K8S_ASSETS=$BIN"
	echo "export MONGOBENCH_K8S_SERVER=https://127.0.0.1:$API_PORT"
	echo "export MONGOBENCH_K8S_TOKEN=$(cat "$RUN/token")"
}

stop() {
	local f pid i
	for f in apiserver etcd; do
		if [[ -f "$RUN/$f.pid" ]]; then
			pid=$(cat "$RUN/$f.pid")
			kill "$pid" 2>/dev/null || true
			# Stopped means gone: the API server drains for a few seconds.
			for ((i = 0; i < 60 && $(kill -0 "$pid" 2>/dev/null && echo 1 || echo 0); i++)); do
				sleep 0.5
			done
			rm -f "$RUN/$f.pid"
		fi
	done
	echo "k8s-apiserver: stopped"
}

case "${1:-}" in
build) build ;;
start) start ;;
stop) stop ;;
env) env_lines ;;
*) die "usage: $0 build|start|stop|env" ;;
esac
