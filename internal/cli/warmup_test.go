package cli

import (
	"encoding/json"
	"fmt"
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
	s := parseSummary(t, r.stdout)
	reads, inserts := s.int(t, "READ", "Operations"), s.int(t, "INSERT", "Operations")
	if reads+inserts != 300 {
		t.Errorf("summary: %d reads + %d inserts, want 300 operations after the warm-up", reads, inserts)
	}
	res := readResults(t, out)
	raw, _ := json.Marshal(res.Extra["warmup"])
	var w warmup
	if err := json.Unmarshal(raw, &w); err != nil || w.Operations == 0 || w.Seconds < 0.9 {
		t.Fatalf("results warm-up %s (%v): want operations > 0 over about 1 s", raw, err)
	}
	// The stderr line says what the results file holds.
	var parts []string
	for _, op := range []string{"READ", "INSERT"} {
		if p99, ok := w.P99us[op]; ok {
			parts = append(parts, fmt.Sprintf("%s p99 %d us", op, p99))
		}
	}
	line := fmt.Sprintf("mongobench: warm-up: %d operations in %.1f s (%.0f ops/s; %s), left out of the summary\n",
		w.Operations, w.Seconds, float64(w.Operations)/w.Seconds, strings.Join(parts, ", "))
	if len(parts) == 0 || !strings.Contains(r.stderr, line) {
		t.Errorf("stderr lacks the warm-up line %q:\n%s", line, r.stderr)
	}
	// Inserts of the measured phase continue after the warm-up's: every
	// insert of both phases succeeded, none collided.
	if s.int(t, "INSERT", "Return=OK") != inserts {
		t.Errorf("inserts after the warm-up collided: %d OK of %d", s.int(t, "INSERT", "Return=OK"), inserts)
	}
}
