package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarmup runs with a warm-up: its operations are reported apart and the
// summary holds exactly operationcount operations.
func TestWarmup(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadd", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	out := filepath.Join(t.TempDir(), "w.json")
	r := mongobench(t, "run", "mongodb", "-P", "workloadd", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=300", "--warmup", "1s", "--out", out)
	if r.code != 0 {
		t.Fatalf("run: %s", r.stderr)
	}
	if !strings.Contains(r.stderr, "mongobench: warm-up: ") || !strings.Contains(r.stderr, "left out of the summary") {
		t.Errorf("no warm-up line on stderr: %s", r.stderr)
	}
	s := parseSummary(t, r.stdout)
	reads, inserts := s.int(t, "READ", "Operations"), s.int(t, "INSERT", "Operations")
	if reads+inserts != 300 {
		t.Errorf("summary: %d reads + %d inserts, want 300 operations after the warm-up", reads, inserts)
	}
	res := readResults(t, out)
	raw, _ := json.Marshal(res.Extra["warmup"])
	var w warmup
	if err := json.Unmarshal(raw, &w); err != nil || w.Operations == 0 {
		t.Fatalf("results warm-up %s (%v): want operations > 0", raw, err)
	}
	// Inserts of the measured phase continue after the warm-up's: every
	// insert of both phases succeeded, none collided.
	if s.int(t, "INSERT", "Return=OK") != inserts {
		t.Errorf("inserts after the warm-up collided: %d OK of %d", s.int(t, "INSERT", "Return=OK"), inserts)
	}
}
