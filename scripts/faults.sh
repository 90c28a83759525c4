#!/usr/bin/env bash
# faults.sh: fault injection against the real binary, for the two classes
# of faults a unit test cannot reach whole: signals to every command, and
# partitioned runs whose parts die or collide.
#
#   ./scripts/faults.sh            # builds ./cmd/mongobench into a temporary directory
#   MONGOBENCH=/path/to/binary ./scripts/faults.sh
#
# Everything runs on the loopback interface, against one embedded server
# this script starts on 127.0.0.1 and stops; every wait for an event is
# bounded by EVENT_WAIT seconds (default 60), every wait for a process to
# end by 300 s (then it is killed, and the check fails), the whole script
# by FAULTS_DEADLINE seconds (default 600), and whatever it started is
# killed when it ends. It prints one line per
# check and a last line "N passed, N failed", and exits 1 when a check
# failed. Needs bash, coreutils and python3 (to make many parts
# of one run from one). It decides on events (a status line, a message, a
# process reading its inputs), never on how long something took.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mongobench-faults.XXXXXX")
EVENT_WAIT=${EVENT_WAIT:-60}
DEADLINE=$(($(date +%s) + ${FAULTS_DEADLINE:-600}))
PASSED=0
FAILED=0
PIDS=()

cleanup() {
	exec 2>/dev/null # bash's word on each process it saw killed
	for p in "${PIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

pass() {
	PASSED=$((PASSED + 1))
	echo "PASS  $1"
}
fail() {
	FAILED=$((FAILED + 1))
	echo "FAIL  $1: $2"
}
over() { [ "$(date +%s)" -ge "$DEADLINE" ]; }

MB=${MONGOBENCH:-}
if [ -z "$MB" ]; then
	MB=$WORK/mongobench
	(cd "$ROOT" && go build -o "$MB" ./cmd/mongobench) || {
		echo "cannot build ./cmd/mongobench"
		exit 1
	}
fi
WL=$ROOT/workloads

# start NAME ARGS...: runs mongobench in the background with its stdout
# and stderr in $WORK/NAME.out and .err; its pid in $LAST. Whatever is
# still running when the script ends is killed.
start() {
	local name=$1
	shift
	"$MB" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
	LAST=$!
	PIDS+=("$LAST")
}

# deadline ends the script once it has run FAULTS_DEADLINE seconds.
deadline() {
	if over; then
		fail "deadline" "the script ran past FAULTS_DEADLINE"
		echo "$PASSED passed, $FAILED failed"
		exit 1
	fi
}

# waitfor FILE PATTERN: waits until FILE holds a line matching PATTERN.
waitfor() {
	local i
	for ((i = 0; i < EVENT_WAIT * 20; i++)); do
		grep -qE -- "$2" "$1" 2>/dev/null && return 0
		deadline
		sleep 0.05
	done
	return 1
}

# waitread PID BYTES: waits until process PID has read BYTES or more (its
# inputs, as /proc/PID/io counts them); fails once it has exited.
waitread() {
	local i n
	for ((i = 0; i < EVENT_WAIT * 100; i++)); do
		n=$(awk '/^rchar:/ {print $2}' "/proc/$1/io" 2>/dev/null) || return 1
		[ -n "$n" ] || return 1
		[ "$n" -ge "$2" ] && return 0
		sleep 0.01
	done
	return 1
}

# waitexit PID: waits for PID, at most 300 s (then kills it: a hang is a
# failure, not a wait), and sets $CODE to its exit status.
waitexit() {
	local i
	for ((i = 0; i < 3000; i++)); do
		kill -0 "$1" 2>/dev/null || break
		deadline
		sleep 0.1
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	CODE=$?
}

# A server of our own on the loopback interface.
PORT=${FAULTS_PORT:-27391}
URL=mongodb://127.0.0.1:$PORT
start server server --addr "127.0.0.1:$PORT" --data-dir "$WORK/server"
SERVER=$LAST
if ! waitfor "$WORK/server.err" "listening at"; then
	echo "the server did not start: $(cat "$WORK/server.err")"
	exit 1
fi
if ! timeout 120 "$MB" load mongodb -P "$WL/workloadc" -p recordcount=200 -p "mongodb.url=$URL/faults" --no-store >/dev/null 2>"$WORK/load.err"; then
	echo "cannot load the test data: $(cat "$WORK/load.err")"
	exit 1
fi
RUN=(run mongodb -P "$WL/workloadc" -p recordcount=200 -p "mongodb.url=$URL/faults" -p operationcount=0 -p maxexecutiontime=120 -p status.interval=1)

# --- the signal class ----------------------------------------------------

# run and load: stopped while measuring, they keep what they measured,
# marked partial.
for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	out=$WORK/run-$sig.json
	start run-$sig "${RUN[@]}" -s --out "$out" --store "$WORK/run-$sig.db"
	pid=$LAST
	if ! waitfor "$WORK/run-$sig.err" "sec: [0-9]+ operations"; then
		fail "run, SIG$sig" "no status line: $(tail -1 "$WORK/run-$sig.err")"
		continue
	fi
	kill -$sig "$pid"
	waitexit "$pid"
	if [ "$CODE" != $want ]; then
		fail "run, SIG$sig" "exit $CODE, want $want"
	elif ! grep -q '"partial": true' "$out" 2>/dev/null; then
		fail "run, SIG$sig" "no results file marked partial"
	elif ! grep -q "Partial, true" "$WORK/run-$sig.out"; then
		fail "run, SIG$sig" "the summary does not say partial"
	else
		pass "run, SIG$sig: exit $CODE, summary and results file kept, marked partial"
	fi
done

# sweep: stopped in its first trial, it keeps the trials' results.
for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	dir=$WORK/sweep-$sig
	start sweep-$sig sweep "${RUN[@]}" -s --vary threadcount=1,2 --out-dir "$dir" --no-store
	pid=$LAST
	if ! waitfor "$WORK/sweep-$sig.err" "sec: [0-9]+ operations"; then
		fail "sweep, SIG$sig" "no status line: $(tail -1 "$WORK/sweep-$sig.err")"
		continue
	fi
	kill -$sig "$pid"
	waitexit "$pid"
	kept=$(grep -l '"partial": true' "$dir"/*/*.json "$dir"/*.json 2>/dev/null | wc -l)
	if [ "$CODE" != $want ]; then
		fail "sweep, SIG$sig" "exit $CODE, want $want: $(tail -1 "$WORK/sweep-$sig.err")"
	elif [ "$kept" -lt 1 ]; then
		fail "sweep, SIG$sig" "no partial results kept in $dir"
	else
		pass "sweep, SIG$sig: exit $CODE, the interrupted trial's results kept, marked partial"
	fi
done

# Many inputs, so that compare, report and merge are still reading when
# the signal comes: the signal is sent once the process has read some.
one=$WORK/run-INT.json
mkdir -p "$WORK/A" "$WORK/B"
for i in $(seq 1 1500); do
	cp "$one" "$WORK/A/a$i.json"
	cp "$one" "$WORK/B/b$i.json"
done
size=$(stat -c %s "$one")

# reader NAME SIG OUTPUT ARGS...: the command reads its inputs, gets SIG,
# must exit 130/143, write nothing (OUTPUT absent, no stdout), and say so.
reader() {
	local name=$1 sig=$2 output=$3
	shift 3
	local want=130
	[ "$sig" = TERM ] && want=143
	start "$name-$sig" "$@"
	local pid=$LAST
	if ! waitread "$pid" $((20 * size)); then
		waitexit "$pid"
		fail "$name, SIG$sig" "ended (exit $CODE) before it had read 20 inputs: make the inputs larger"
		return
	fi
	kill -"$sig" "$pid"
	waitexit "$pid"
	if [ "$CODE" != $want ]; then
		fail "$name, SIG$sig" "exit $CODE, want $want: $(tail -1 "$WORK/$name-$sig.err")"
	elif [ -n "$output" ] && [ -e "$output" ]; then
		fail "$name, SIG$sig" "wrote $output"
	elif [ -s "$WORK/$name-$sig.out" ]; then
		fail "$name, SIG$sig" "printed $(head -c 200 "$WORK/$name-$sig.out")"
	elif ! grep -q "interrupted: nothing was written" "$WORK/$name-$sig.err"; then
		fail "$name, SIG$sig" "did not say it wrote nothing: $(tail -1 "$WORK/$name-$sig.err")"
	else
		pass "$name, SIG$sig: exit $CODE while reading its inputs, nothing written"
	fi
}

reader compare INT "" compare "$WORK/A" "$WORK/B"
reader compare TERM "" compare "$WORK/A" "$WORK/B"
reader report INT "$WORK/report-INT.html" report "$WORK/A" -o "$WORK/report-INT.html"
reader report TERM "$WORK/report-TERM.html" report "$WORK/A" -o "$WORK/report-TERM.html"

# merge: 1500 parts of one run, made from one part of a real 2-part run.
timeout 120 "$MB" run mongodb -P "$WL/workloadc" -p recordcount=200 -p "mongodb.url=$URL/faults" -p operationcount=400 \
	--part 0/2 --start-at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --run-id faults-merge --out "$WORK/part0.json" --no-store >/dev/null 2>"$WORK/part0.err"
mkdir -p "$WORK/parts"
python3 - "$WORK/part0.json" "$WORK/parts" 1500 <<'EOF'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
res = json.load(open(src))
for i in range(n):
    res["extra"]["part"]["index"], res["extra"]["part"]["count"] = i, n
    json.dump(res, open(f"{dst}/p{i:04d}.json", "w"))
EOF
size=$(stat -c %s "$WORK/part0.json")
for sig in INT TERM; do
	reader merge $sig "$WORK/merged-$sig.json" merge "$WORK/parts" -o "$WORK/merged-$sig.json" --no-store
done

# disk: fio (a stand-in here, that says when it starts and when it is
# interrupted) is asked to stop as Ctrl-C does; no baseline is kept.
mkdir -p "$WORK/bin" "$WORK/disk"
cat >"$WORK/bin/fio" <<EOF
#!/bin/sh
sleep 600 & pid=\$!
trap 'kill \$pid; echo > "$WORK/fio-interrupted"; exit 1' INT
echo > "$WORK/fio-started"
wait \$pid
EOF
chmod +x "$WORK/bin/fio"
for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	rm -f "$WORK/fio-started" "$WORK/fio-interrupted"
	PATH=$WORK/bin:$PATH start disk-$sig disk --dir "$WORK/disk" --size 4M --runtime 1h --store "$WORK/disk-$sig.db"
	pid=$LAST
	if ! waitfor "$WORK/fio-started" ""; then
		waitexit "$pid"
		fail "disk, SIG$sig" "fio never started (exit $CODE): $(tail -1 "$WORK/disk-$sig.err")"
		continue
	fi
	kill -$sig "$pid"
	waitexit "$pid"
	if [ "$CODE" != $want ]; then
		fail "disk, SIG$sig" "exit $CODE, want $want: $(tail -1 "$WORK/disk-$sig.err")"
	elif [ ! -e "$WORK/fio-interrupted" ]; then
		fail "disk, SIG$sig" "fio was not asked to stop with SIGINT"
	elif [ -s "$WORK/disk-$sig.out" ] || ! grep -q "interrupted: nothing was written" "$WORK/disk-$sig.err"; then
		fail "disk, SIG$sig" "printed a baseline or did not say it kept none"
	else
		pass "disk, SIG$sig: exit $CODE, fio asked to stop, no baseline kept"
	fi
done

# --- the partition class -------------------------------------------------

PART=(run mongodb -s -P "$WL/workloadc" -p recordcount=200 -p "mongodb.url=$URL/faults" -p operationcount=0 -p maxexecutiontime=30 -p status.interval=1 --no-store)

# A part killed while it waits at the barrier is not counted: the part
# started after it waits for a live peer and times out, measuring nothing.
start dead0 "${PART[@]}" --part 0/2 --run-id faults-dead --barrier-timeout 60s
pid=$LAST
if waitfor "$WORK/dead0.err" "waiting for the other parts"; then
	{
		kill -9 "$pid"
		waitexit "$pid"
	} 2>/dev/null # not bash's word on the process it saw killed
	start dead1 "${PART[@]}" --part 1/2 --run-id faults-dead --barrier-timeout 5s
	waitexit "$LAST"
	if [ "$CODE" = 1 ] && grep -q "part 0 of 2 did not arrive" "$WORK/dead1.err" && ! grep -q "Throughput" "$WORK/dead1.out"; then
		pass "a part killed at the barrier is not counted: the later part exits 1 naming part 0, having measured nothing"
	else
		fail "a part killed at the barrier" "exit $CODE: $(tail -1 "$WORK/dead1.err")"
	fi
else
	fail "a part killed at the barrier" "part 0 never waited: $(tail -1 "$WORK/dead0.err")"
fi

# Two processes claim part 0 of one run id at once: both refused, exit 2.
start twice-a "${PART[@]}" --part 0/2 --run-id faults-twice --barrier-timeout 60s
a=$LAST
start twice-b "${PART[@]}" --part 0/2 --run-id faults-twice --barrier-timeout 60s
b=$LAST
waitexit "$a"
ca=$CODE
waitexit "$b"
cb=$CODE
if [ "$ca" = 2 ] && [ "$cb" = 2 ] && grep -q "two runs under one --run-id" "$WORK/twice-a.err" && grep -q "two runs under one --run-id" "$WORK/twice-b.err" &&
	! grep -q E11000 "$WORK/twice-a.err" "$WORK/twice-b.err"; then
	pass "two processes as part 0 of one run id: both exit 2, saying so, no raw E11000"
else
	fail "two processes as part 0 of one run id" "exits $ca, $cb: $(tail -1 "$WORK/twice-a.err") / $(tail -1 "$WORK/twice-b.err")"
fi

# A run started under the id of a run that measures: refused, exit 2;
# the measuring parts, stopped with SIGINT, end 130 with partial results.
start busy0 "${PART[@]}" --part 0/2 --run-id faults-busy --out "$WORK/busy0.json"
p0=$LAST
start busy1 "${PART[@]}" --part 1/2 --run-id faults-busy --out "$WORK/busy1.json"
p1=$LAST
if waitfor "$WORK/busy0.err" "sec: [0-9]+ operations" && waitfor "$WORK/busy1.err" "sec: [0-9]+ operations"; then
	start busy-again "${PART[@]}" --part 0/2 --run-id faults-busy --barrier-timeout 60s
	waitexit "$LAST"
	if [ "$CODE" = 2 ] && grep -q "still runs" "$WORK/busy-again.err"; then
		pass "a run under the id of a run that measures: exit 2, naming the run under way"
	else
		fail "a run under the id of a run that measures" "exit $CODE: $(tail -1 "$WORK/busy-again.err")"
	fi
else
	fail "a run under the id of a run that measures" "the first run's parts did not start"
fi
kill -INT "$p0" "$p1" 2>/dev/null
waitexit "$p0"
c0=$CODE
waitexit "$p1"
c1=$CODE
if [ "$c0" = 130 ] && [ "$c1" = 130 ] && grep -q '"partial": true' "$WORK/busy0.json" "$WORK/busy1.json"; then
	pass "the parts of a partitioned run, SIGINT: exit 130, results kept, marked partial"
else
	fail "the parts of a partitioned run, SIGINT" "exits $c0, $c1"
fi

# A part killed mid-run: its journal is merged in its place, marked partial.
mkdir -p "$WORK/killed"
start kill0 "${PART[@]}" --part 0/2 --run-id faults-killed -p maxexecutiontime=4 --out "$WORK/killed/p0.json"
k0=$LAST
start kill1 "${PART[@]}" --part 1/2 --run-id faults-killed -p maxexecutiontime=4 --out "$WORK/killed/p1.json"
k1=$LAST
if waitfor "$WORK/kill1.err" "[2-9] sec: [0-9]+ operations"; then
	{
		kill -9 "$k1"
		waitexit "$k1"
	} 2>/dev/null
	waitexit "$k0"
	if [ "$CODE" != 0 ]; then
		fail "a part killed mid-run, merged" "part 0 exit $CODE: $(tail -1 "$WORK/kill0.err")"
	else
		timeout 120 "$MB" merge "$WORK/killed" -o "$WORK/killed-merged.json" --no-store >"$WORK/kmerge.out" 2>"$WORK/kmerge.err"
		CODE=$?
		if [ "$CODE" = 0 ] && grep -q '"partial": true' "$WORK/killed-merged.json" && grep -q "did not finish" "$WORK/kmerge.err" &&
			grep -q "Partial, true" "$WORK/kmerge.out"; then
			pass "a part killed mid-run: merge takes its journal, exit 0, the whole marked partial"
		else
			fail "a part killed mid-run, merged" "exit $CODE: $(tail -1 "$WORK/kmerge.err")"
		fi
	fi
else
	fail "a part killed mid-run, merged" "part 1 printed no second status line"
fi

kill -INT "$SERVER"
waitexit "$SERVER"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
