package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mongobench/mongobench/internal/disk"
)

// TestBadInput runs command lines with one mistake each: every one must
// exit 2 with exactly one line on stderr, the message below, which names
// what is wrong and what is accepted, before connecting to anything.
func TestBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	badFile := filepath.Join(dir, "bad")
	if err := os.WriteFile(badFile, []byte("recordcount=10\n=oops\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(dir, "unreadable")
	if err := os.WriteFile(unreadable, []byte("recordcount=1\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	garbageHist := filepath.Join(dir, "garbage-hist.txt")
	if err := os.WriteFile(garbageHist, []byte("not a histogram\n1\t2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Held until the parallel subtests are done, which is after this
	// function returns.
	t.Cleanup(func() { busy.Close() })
	taken := busy.Addr().String()
	noHist, noCA, noKey := filepath.Join(dir, "nohist.txt"), filepath.Join(dir, "ca.pem"), filepath.Join(dir, "client.pem")
	// Never contacted: input is checked first. Were it contacted, the
	// error would be "no MongoDB server answered", exit 1.
	const url = "mongodb://127.0.0.1:1/x"
	const intervalRule = "expected a number of seconds from 0.1 to 3600, or a duration from 100ms to 1h"
	const rateRange = "expected a fraction of failed operations greater than 0 and at most 1, such as 0.5"
	type row struct {
		name string
		args []string
		want string // stderr after "mongobench: "
	}
	tests := []row{
		{"unknown command", []string{"bench"}, `unknown command "bench": accepted commands are load, run, server, sweep, merge, compare, history, report, calibrate, k8s, disk, validate, tpcc, metrics, version, help`},
		{"unknown help topic", []string{"help", "bench"}, `unknown command "bench": accepted commands are load, run, server, sweep, merge, compare, history, report, calibrate, k8s, disk, validate, tpcc, metrics, version, help`},
		{"disk: size", []string{"disk", "--size", "12Q"}, `disk: --size "12Q" is invalid: expected ` + disk.SizeAccepted},
		{"disk: runtime", []string{"disk", "--runtime", "0"}, `disk: --runtime "0" is invalid: expected a number of seconds from 0.1 to 3600 (or a duration such as 30s)`},
		{"disk: no such dir", []string{"disk", "--dir", badFile + "-none"}, "disk: --dir " + badFile + "-none is not a directory: expected an existing directory on the disk to measure"},
		{"disk: stray argument", []string{"disk", dir}, `disk: unexpected argument "` + dir + `": name the directory with --dir D`},
		{"disk: unknown flag", []string{"disk", "--depth", "4"}, "disk: unknown flag -depth: accepted flags are --dir D, --size S, --runtime T, --store PATH, --no-store, -h"},
		// The tests' environment has no $PATH: fio is not found.
		{"disk: no fio", []string{"disk", "--dir", dir, "--no-store"}, "disk: fio is not installed: install the Debian package fio (apt-get install fio)"},
		{"unknown binding", []string{"run", "cassandra", "-P", "workloada"}, `unknown binding "cassandra": mongobench benchmarks MongoDB; use "mongodb" (or "mongodb-async")`},
		// The URL typed where the binding goes: quoted back, password masked.
		{"URL as binding", []string{"run", "mongodb://u:S3NTINEL@h/db"}, `unknown binding "mongodb://u:***@h/db": mongobench benchmarks MongoDB; use "mongodb" (or "mongodb-async")`},
		{"unknown flag", []string{"run", "mongodb", "-x"}, "unknown flag -x: accepted flags are -P, -p, -threads, -target, --stages, -l, -s, -db, --out, --data-dir, --max-errors, --max-error-rate, --warmup, --drop, --threshold, --metrics-addr, --part, --parts, --run-id, --start-at, --barrier-timeout, --store, --no-store, -h"},
		{"flag without value", []string{"run", "mongodb", "-threads"}, "flag -threads needs a value"},
		{"stray argument", []string{"run", "mongodb", "-P", "workloada", "extra"}, `unexpected argument "extra": properties are given as -p name=value, files as -P file`},
		{"missing -P file", []string{"run", "mongodb", "-P", "nosuchfile"}, "cannot read workload file nosuchfile: no such file (built in: workloada, workloadb, workloadc, workloadd, workloade, workloadf, workload_s6)"},
		{"malformed line in -P file", []string{"load", "mongodb", "-P", badFile}, badFile + `:2: malformed line "=oops": expected key=value`},
		{"-p without =", []string{"run", "mongodb", "-P", "workloada", "-p", "threadcount"}, `-p "threadcount": expected -p name=value`},
		{"threads zero", []string{"run", "mongodb", "-P", "workloada", "-threads", "0"}, `threadcount="0" is invalid: expected a whole number from 1 to 1048576`},
		{"threads text", []string{"run", "mongodb", "-P", "workloada", "-threads", "many"}, `threadcount="many" is invalid: expected a whole number from 1 to 1048576`},
		{"negative target", []string{"run", "mongodb", "-P", "workloada", "-target", "-1"}, `target="-1" is invalid: expected 0 (as fast as possible) or a rate from 0.001 to 1000000000 operations per second`},
		{"recordcount missing for load", []string{"load", "mongodb", "-p", "mongodb.url=" + url}, "recordcount is not set: expected a whole number > 0 (the number of records loaded)"},
		{"recordcount zero", []string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=0"}, `recordcount="0" is invalid: expected a whole number > 0 (the number of records loaded)`},
		{"insert range beyond recordcount", []string{"load", "mongodb", "-P", "workloada", "-p", "insertstart=900", "-p", "insertcount=200"},
			"insertstart=900 + insertcount=200 is beyond recordcount=1000: a client loads keys insertstart..insertstart+insertcount-1 of recordcount"},
		{"unknown distribution", []string{"run", "mongodb", "-P", "workloada", "-p", "requestdistribution=pareto"}, `requestdistribution="pareto" is invalid: expected one of uniform, zipfian, latest, hotspot, exponential, sequential`},
		{"negative proportion", []string{"run", "mongodb", "-P", "workloada", "-p", "readproportion=-1"}, `readproportion="-1" is invalid: expected a proportion from 0 to 1000000`},
		{"all proportions zero", []string{"run", "mongodb", "-P", "workloada", "-p", "readproportion=0", "-p", "updateproportion=0"},
			"all operation proportions are 0: set at least one of readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion, deleteproportion to a value > 0"},
		{"histogram file missing", []string{"load", "mongodb", "-P", "workloada", "-p", "fieldlengthdistribution=histogram", "-p", "fieldlengthhistogram=" + noHist, "-p", "mongodb.url=" + url},
			"fieldlengthdistribution=histogram: fieldlengthhistogram: reading histogram: open " + noHist + ": no such file or directory"},
		{"malformed histogram file", []string{"load", "mongodb", "-P", "workloada", "-p", "fieldlengthdistribution=histogram", "-p", "fieldlengthhistogram=" + garbageHist, "-p", "mongodb.url=" + url},
			"fieldlengthdistribution=histogram: fieldlengthhistogram: histogram " + garbageHist + `, line 1: expected "BlockSize<TAB><n>" first, got "not a histogram"`},
		{"not a URL", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=localhost:27017"}, `mongodb.url "localhost:27017" is invalid: expected a connection string starting with mongodb:// or mongodb+srv://`},
		{"bad URL option", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://u:S3NTINEL@h/db?maxPoolSize=lots"}, `mongodb.url mongodb://u:***@h/db?maxPoolSize=lots is invalid: invalid value for "maxPoolSize": "lots"`},
		{"unparsable URL", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://u:S3NTINEL@[::1/db"},
			`mongodb.url mongodb://u:***@[::1/db is invalid: host "[::1": an IPv6 address goes in brackets, with the port after them, as [::1]:27017`},
		{"URL port", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://h:port/db"}, `mongodb.url mongodb://h:port/db is invalid: host "h:port": the port "port" is not a number from 1 to 65535`},
		{"URL without host", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://"}, "mongodb.url mongodb:// is invalid: must have at least 1 host"},
		{"TLS CA file missing", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://h/db?tls=true&tlsCAFile=" + noCA},
			"mongodb.url option tlsCAFile=" + noCA + ": the file cannot be read (no such file or directory)"},
		{"TLS key file missing", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://h/db?tls=true&tlsCertificateKeyFile=" + noKey},
			"mongodb.url option tlsCertificateKeyFile=" + noKey + ": the file cannot be read (no such file or directory)"},
		{"batchsize", []string{"load", "mongodb", "-P", "workloada", "-p", "batchsize=0"}, `batchsize="0" is invalid: expected a whole number from 1 to 100000`},
		{"unknown exporter", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "exporter=site.ycsb.measurements.exporter.CSVMeasurementsExporter"},
			`exporter="site.ycsb.measurements.exporter.CSVMeasurementsExporter" is unknown: mongobench writes site.ycsb.measurements.exporter.TextMeasurementsExporter, site.ycsb.measurements.exporter.JSONMeasurementsExporter, site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter`},
		// Output paths are checked before the run, not after it.
		{"hdr logs in a missing directory", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=" + filepath.Join(dir, "nodir", "run-")},
			"hdrhistogram.output.path=" + filepath.Join(dir, "nodir", "run-") + ": directory " + filepath.Join(dir, "nodir") + " does not exist: expected a prefix of file names in an existing directory, such as hdr/run-"},
		{"hdr logs under a file", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=" + badFile + "/"},
			"hdrhistogram.output.path=" + badFile + "/: " + badFile + " is not a directory: expected a prefix of file names in an existing directory, such as hdr/run-"},
		{"exportfile in a missing directory", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "exportfile=" + filepath.Join(dir, "nodir", "summary.txt")},
			"exportfile=" + filepath.Join(dir, "nodir", "summary.txt") + ": directory " + filepath.Join(dir, "nodir") + " does not exist: expected a file in an existing directory"},
		{"exportfile is --out", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "exportfile=" + filepath.Join(dir, "r.json"), "--out", dir + "/./r.json"},
			"exportfile=" + filepath.Join(dir, "r.json") + " and --out " + dir + "/./r.json name the same file: the summary goes to exportfile, the JSON results to --out, each to a file of its own"},
		{"exportfile is a directory", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "exportfile=" + dir},
			"exportfile=" + dir + ": is a directory, not a file: expected a file in an existing directory"},
		{"write concern", []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "mongodb.writeConcern=safe"},
			`mongodb.writeConcern="safe" is invalid: expected a number of members (0, 1, 2, ...), majority, or one of errors_ignored, unacknowledged, acknowledged, journaled, replica_acknowledged`},
		{"upsert", []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.upsert=maybe"}, `mongodb.upsert="maybe" is invalid: expected true or false`},
		{"--max-errors negative", []string{"run", "mongodb", "-P", "workloada", "--max-errors", "-1"}, `--max-errors "-1" is invalid: expected a whole number >= 0 (0 = never stop on errors)`},
		{"--max-errors text", []string{"run", "mongodb", "-P", "workloada", "--max-errors", "ten"}, `--max-errors "ten" is invalid: expected a whole number >= 0 (0 = never stop on errors)`},
		{"--max-error-rate zero", []string{"run", "mongodb", "-P", "workloada", "--max-error-rate", "0"}, `--max-error-rate "0" is invalid: ` + rateRange},
		{"--max-error-rate negative", []string{"run", "mongodb", "-P", "workloada", "--max-error-rate", "-0.5"}, `--max-error-rate "-0.5" is invalid: ` + rateRange},
		{"--max-error-rate above 1", []string{"run", "mongodb", "-P", "workloada", "--max-error-rate", "1.5"}, `--max-error-rate "1.5" is invalid: ` + rateRange},
		{"--max-error-rate percent", []string{"run", "mongodb", "-P", "workloada", "--max-error-rate", "50%"}, `--max-error-rate "50%" is invalid: ` + rateRange},
		{"--max-error-rate NaN", []string{"run", "mongodb", "-P", "workloada", "--max-error-rate", "NaN"}, `--max-error-rate "NaN" is invalid: ` + rateRange},
		// Refused before connecting: the URL's port is closed.
		{"--drop with run", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--drop"},
			"--drop goes with load: it drops the collection before loading it again; run keeps the data it finds"},
		// Files that are not regular: a FIFO nobody writes used to block
		// the open forever, deaf to signals.
		{"-P FIFO", []string{"run", "mongodb", "-P", fifo}, "cannot read workload file " + fifo + ": is a named pipe (FIFO), not a regular file"},
		{"TLS CA file FIFO", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://h/db?tls=true&tlsCAFile=" + fifo},
			"mongodb.url option tlsCAFile=" + fifo + ": the file cannot be read (is a named pipe (FIFO), not a regular file)"},
		{"-P directory", []string{"run", "mongodb", "-P", dir}, "cannot read workload file " + dir + ": is a directory, not a regular file"},
		{"-P device", []string{"run", "mongodb", "-P", os.DevNull}, "cannot read workload file " + os.DevNull + ": is a character device, not a regular file"},
		{"histogram FIFO", []string{"load", "mongodb", "-P", "workloada", "-p", "fieldlengthdistribution=histogram", "-p", "fieldlengthhistogram=" + fifo},
			"fieldlengthdistribution=histogram: fieldlengthhistogram: reading histogram: open " + fifo + ": is a named pipe (FIFO), not a regular file"},
		{"histogram directory", []string{"load", "mongodb", "-P", "workloada", "-p", "fieldlengthdistribution=histogram", "-p", "fieldlengthhistogram=" + dir},
			"fieldlengthdistribution=histogram: fieldlengthhistogram: reading histogram: open " + dir + ": is a directory, not a regular file"},
		// Intervals the collector cannot keep up with, or absurdly long.
		{"status.interval 1ns", []string{"run", "mongodb", "-P", "workloada", "-p", "status.interval=1ns"}, `status.interval="1ns" is invalid: ` + intervalRule},
		{"status.interval 1e-9", []string{"run", "mongodb", "-P", "workloada", "-p", "status.interval=1e-9"}, `status.interval="1e-9" is invalid: ` + intervalRule},
		{"status.interval Inf", []string{"load", "mongodb", "-P", "workloada", "-p", "status.interval=Inf"}, `status.interval="Inf" is invalid: ` + intervalRule},
		{"status.interval huge", []string{"sweep", "-P", "workloada", "--vary", "threadcount=1,2", "-p", "status.interval=1e300"}, `sweep point threadcount=1: status.interval="1e300" is invalid: ` + intervalRule},
		// Records MongoDB would refuse, and more records in flight than
		// the client should hold.
		{"record over 16 MiB", []string{"load", "mongodb", "-P", "workloada", "-p", "fieldcount=65536", "-p", "fieldlength=16777216"},
			"a record of fieldcount=65536 fields of up to fieldlength=16777216 bytes is up to 1099512730817 bytes as BSON, over MongoDB's document limit of 16777216 bytes (16 MiB): lower fieldcount or the field length"},
		{"records in flight", []string{"load", "mongodb", "-P", "workloada", "-threads", "64", "-p", "batchsize=1000", "-p", "fieldlength=10000"},
			"threadcount=64 x batchsize=1000 records of up to 100169 bytes would hold 6.0 GiB in flight, over the client's limit of 4.0 GiB: lower threadcount, batchsize or the record size"},
		// The endpoint's address is taken before anything connects.
		{"--metrics-addr without port", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--metrics-addr", "localhost"},
			`--metrics-addr "localhost": missing port in address: ` + metricsAddrExpected},
		{"--metrics-addr in use", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--metrics-addr", taken},
			"--metrics-addr " + taken + ": listen tcp " + taken + ": bind: address already in use: " + metricsAddrExpected},
		{"server flag", []string{"server", "--port", "1"}, "server: flag provided but not defined: -port: accepted flags are --addr HOST:PORT, --data-dir DIR, --null, -h"},
	}
	if os.Geteuid() != 0 { // root reads any file
		tests = append(tests, row{"unreadable -P file", []string{"run", "mongodb", "-P", unreadable}, "cannot read workload file " + unreadable + ": permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != ExitBadInput {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
			}
			if want := "mongobench: " + tt.want + "\n"; r.stderr != want {
				t.Errorf("stderr:\n got %q\nwant %q", r.stderr, want)
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help"}, {"-h"}, {"run", "-h"}, {"load", "mongodb", "-h"}, {"server", "-h"}, {"help", "run"}} {
		r := mongobench(t, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "usage:") {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
	r := mongobench(t, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "mongobench ") {
		t.Errorf("version: exit %d, %q", r.code, r.stdout)
	}
}

// TestSeedRepeats checks that -p seed=N repeats a run: with one thread the
// same seed gives the same operation mix, another seed a different one.
func TestSeedRepeats(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=50"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	mix := func(seed string) [2]int64 {
		r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=50",
			"-p", "operationcount=200", "-p", "seed="+seed)
		if r.code != 0 {
			t.Fatalf("run: %s", r.stderr)
		}
		s := parseSummary(t, r.stdout)
		return [2]int64{s.int(t, "READ", "Operations"), s.int(t, "UPDATE", "Operations")}
	}
	a, b, c := mix("42"), mix("42"), mix("43")
	if a != b {
		t.Errorf("seed 42 twice: %v then %v", a, b)
	}
	if a == c {
		t.Logf("seeds 42 and 43 gave the same mix %v (possible, but unlikely)", a)
	}
}
