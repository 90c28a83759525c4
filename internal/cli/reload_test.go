package cli

import (
	"strings"
	"testing"
)

// TestReload loads the same records twice: the second load reports the
// duplicates with the way out, retries as told, and --drop or
// mongodb.upsert make it succeed.
func TestReload(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	load := func(extra ...string) cmdResult {
		return mongobench(t, append([]string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "recordcount=20"}, extra...)...)
	}
	if r := load(); r.code != 0 {
		t.Fatalf("first load: %s", r.stderr)
	}

	r := load("-p", "core_workload_insertion_retry_limit=2", "-p", "core_workload_insertion_retry_interval=0.01")
	if r.code != ExitFailed {
		t.Errorf("re-load: exit %d, want %d (every insert failed)", r.code, ExitFailed)
	}
	if !strings.Contains(r.stderr, "inserts failed on duplicate keys") || !strings.Contains(r.stderr, "mongodb.upsert=true") || !strings.Contains(r.stderr, "--drop") {
		t.Errorf("re-load: no duplicate-key hint in %q", r.stderr)
	}
	s := parseSummary(t, r.stdout)
	// Each record is tried 1 + 2 times, every attempt measured.
	if got := s.int(t, "INSERT-FAILED", "Operations"); got != 60 {
		t.Errorf("re-load with 2 retries: %d failed attempts, want 60", got)
	}

	if r := load("-p", "mongodb.upsert=true"); r.code != 0 || parseSummary(t, r.stdout).int(t, "INSERT", "Return=OK") != 20 {
		t.Errorf("re-load with upsert: exit %d: %s", r.code, r.stderr)
	}
	if r := load("--drop"); r.code != 0 || !strings.Contains(r.stderr, "dropped ") {
		t.Errorf("re-load with --drop: exit %d: %s", r.code, r.stderr)
	}
	if r := load("--drop", "-p", "batchsize=7"); r.code != 0 {
		t.Errorf("re-load with --drop and batches: exit %d: %s", r.code, r.stderr)
	}
	if r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "--drop"); r.code != ExitBadInput {
		t.Errorf("run --drop: exit %d, want %d", r.code, ExitBadInput)
	}
}
