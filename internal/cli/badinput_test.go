package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput runs command lines with one mistake each: every one must
// exit 2 with one line on stderr that names what is wrong and what is
// accepted, before connecting to anything.
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
	const url = "mongodb://127.0.0.1:1/x" // never contacted: input is checked first
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", []string{"bench"}, `unknown command "bench": accepted commands are load, run, server, sweep, compare, history, report, calibrate, version, help`},
		{"unknown binding", []string{"run", "cassandra", "-P", "workloada"}, `unknown binding "cassandra": mongobench benchmarks MongoDB; use "mongodb" (or "mongodb-async")`},
		// The URL typed where the binding goes: quoted back, password masked.
		{"URL as binding", []string{"run", "mongodb://u:S3NTINEL@h/db"}, `unknown binding "mongodb://u:***@h/db"`},
		{"unknown flag", []string{"run", "mongodb", "-x"}, "unknown flag -x: accepted flags are -P, -p, -threads, -target, -l, -s, --out, --data-dir, --max-errors, --warmup, --drop, --store, --no-store, -h"},
		{"flag without value", []string{"run", "mongodb", "-threads"}, "flag -threads needs a value"},
		{"stray argument", []string{"run", "mongodb", "-P", "workloada", "extra"}, `unexpected argument "extra": properties are given as -p name=value, files as -P file`},
		{"missing -P file", []string{"run", "mongodb", "-P", "nosuchfile"}, "cannot read workload file nosuchfile: no such file (built in: workloada, workloadb, workloadc, workloadd, workloade, workloadf, workload_s6)"},
		{"malformed file", []string{"load", "mongodb", "-P", badFile}, badFile + `:2: malformed line "=oops": expected key=value`},
		{"-p without =", []string{"run", "mongodb", "-P", "workloada", "-p", "threadcount"}, `-p "threadcount": expected -p name=value`},
		{"threads zero", []string{"run", "mongodb", "-P", "workloada", "-threads", "0"}, `threadcount="0" is invalid: expected a whole number from 1 to 1048576`},
		{"threads text", []string{"run", "mongodb", "-P", "workloada", "-threads", "many"}, `threadcount="many" is invalid`},
		{"negative target", []string{"run", "mongodb", "-P", "workloada", "-target", "-1"}, `target="-1" is invalid: expected a rate >= 0`},
		{"recordcount missing for load", []string{"load", "mongodb", "-p", "mongodb.url=" + url}, "recordcount is not set: expected a whole number > 0"},
		{"recordcount zero", []string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=0"}, `recordcount="0" is invalid`},
		{"bad distribution", []string{"run", "mongodb", "-P", "workloada", "-p", "requestdistribution=pareto"}, "expected one of uniform, zipfian, latest, hotspot, exponential, sequential"},
		{"negative proportion", []string{"run", "mongodb", "-P", "workloada", "-p", "readproportion=-1"}, `readproportion="-1" is invalid: expected a proportion >= 0`},
		{"insert range", []string{"load", "mongodb", "-P", "workloada", "-p", "insertstart=900", "-p", "insertcount=200"}, "insertstart=900 + insertcount=200 is beyond recordcount=1000"},
		{"histogram file missing", []string{"load", "mongodb", "-P", "workloada", "-p", "fieldlengthdistribution=histogram", "-p", "fieldlengthhistogram=" + filepath.Join(dir, "nohist.txt"), "-p", "mongodb.url=" + url}, "nohist.txt"},
		{"not a URL", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=localhost:27017"}, `mongodb.url "localhost:27017" is invalid: expected a connection string starting with mongodb:// or mongodb+srv://`},
		{"bad URL option", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://u:S3NTINEL@h/db?maxPoolSize=lots"}, `mongodb.url mongodb://u:***@h/db?maxPoolSize=lots is invalid: invalid value for "maxPoolSize": "lots"`},
		{"TLS file missing", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://h/db?tls=true&tlsCAFile=" + filepath.Join(dir, "ca.pem")}, "tlsCAFile=" + filepath.Join(dir, "ca.pem") + ": the file cannot be read (no such file or directory)"},
		{"batchsize", []string{"load", "mongodb", "-P", "workloada", "-p", "batchsize=0"}, `batchsize="0" is invalid: expected a whole number from 1 to 100000`},
		{"write concern", []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "mongodb.writeConcern=safe"}, `mongodb.writeConcern="safe" is invalid`},
		{"upsert", []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.upsert=maybe"}, `mongodb.upsert="maybe" is invalid: expected true or false`},
		{"server flag", []string{"server", "--port", "1"}, "server: flag provided but not defined: -port: accepted flags are --addr HOST:PORT, --data-dir DIR, --null"},
	}
	if os.Geteuid() != 0 { // root reads any file
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"unreadable file", []string{"run", "mongodb", "-P", unreadable}, "cannot read workload file " + unreadable + ": permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != ExitBadInput {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
			}
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "mongobench: ") || !strings.Contains(last, tt.want) {
				t.Errorf("stderr %q, want a line containing %q", r.stderr, tt.want)
			}
			if strings.Contains(r.stderr, "S3NTINEL") {
				t.Errorf("stderr shows the password: %s", r.stderr)
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
