package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

// TestKilledPartMerges: a part killed mid-run leaves its journal (no end
// line) and no results file; merge takes the journal, named or found in
// the parts' directory, adds up what it measured and marks the whole run
// partial.
func TestKilledPartMerges(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	dir := t.TempDir()
	// Loaded first: a run whose reads all find nothing fails.
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "recordcount=50", "-p", "mongodb.url="+url, "--no-store"); r.code != 0 {
		t.Fatalf("load: exit %d: %s", r.code, r.stderr)
	}
	runParts(t, 2, dir, "run", "run", "mongodb", "-P", "workloadc", "-p", "recordcount=50",
		"-p", "operationcount=200", "-p", "mongodb.url="+url, "--no-store")
	// Part 1 as a kill leaves it: the journal without its end line, no
	// results file.
	part1 := filepath.Join(dir, "run-1.json")
	whole := readResultsFile(t, part1)
	journal := part1 + results.JournalSuffix
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], `"type":"end"`) {
		t.Fatalf("the journal's last line is not its end: %s", lines[len(lines)-1])
	}
	if err := os.WriteFile(journal, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(part1); err != nil {
		t.Fatal(err)
	}
	part0 := readResultsFile(t, filepath.Join(dir, "run-0.json"))
	for _, args := range [][]string{{dir}, {filepath.Join(dir, "run-0.json"), journal}} {
		out := filepath.Join(t.TempDir(), "merged.json")
		r := mongobench(t, append(append([]string{"merge"}, args...), "-o", out, "--no-store")...)
		if r.code != 0 {
			t.Fatalf("merge %v: exit %d: %s", args, r.code, r.stderr)
		}
		if want := "mongobench: merge: warning: part 1 (" + journal + ") did not finish: the merged run holds what it measured, marked partial"; !strings.Contains(r.stderr, want) {
			t.Errorf("merge %v: stderr %q, want %q", args, r.stderr, want)
		}
		if s := parseSummary(t, r.stdout); s["OVERALL"]["Partial"] != "true" {
			t.Errorf("merge %v: the summary does not say partial:\n%s", args, r.stdout)
		}
		merged := readResultsFile(t, out)
		if !merged.Partial || merged.Operations != part0.Operations+whole.Operations {
			t.Errorf("merge %v: partial %v, %d operations; want partial, %d + %d", args, merged.Partial, merged.Operations, part0.Operations, whole.Operations)
		}
	}
}

// TestOneRunIDTwice: two processes started as the same part of one run
// id at once are refused, exit 2, both, with a message saying why; neither
// measures.
func TestOneRunIDTwice(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	var wg sync.WaitGroup
	res := make([]cmdResult, 2)
	for i := range res {
		wg.Go(func() {
			var o, e bytes.Buffer
			code := Main(context.Background(), []string{"run", "mongodb", "-p", "recordcount=10", "-p", "operationcount=30",
				"-p", "mongodb.url=" + url, "--part", "0/2", "--run-id", "twice", "--barrier-timeout", "2m", "--no-store"},
				Env{Stdout: &o, Stderr: &e, Getenv: testEnv})
			res[i] = cmdResult{code, o.String(), e.String()}
		})
	}
	wg.Wait()
	for i, r := range res {
		if r.code != ExitBadInput || !strings.Contains(r.stderr, `run "twice": part 0 is already registered by another process`) ||
			!strings.Contains(r.stderr, "give each run its own --run-id") || strings.Contains(r.stderr, "E11000") || r.stdout != "" {
			t.Errorf("process %d: exit %d, stdout %q, stderr %q", i, r.code, r.stdout, r.stderr)
		}
	}
}
