package promsink

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// writeRun writes a run's results file and returns its path.
func writeRun(t *testing.T, dir, name, runID string) string {
	t.Helper()
	r := resultstest.Results(t, resultstest.Spec{Throughput: 20})
	r.RunID = runID
	path := filepath.Join(dir, name)
	var b bytes.Buffer
	if err := results.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunsAsOpenMetrics: results files read back as the endpoint's
// series, in OpenMetrics text; a run given twice is refused, and an
// unreadable file named.
func TestRunsAsOpenMetrics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := writeRun(t, dir, "a.json", "run-a"), writeRun(t, dir, "b.json", "run-b")
	runs, err := ReadRuns([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Registry(runs)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteOpenMetrics(&out, g); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, id := range []string{`run_id="run-a"`, `run_id="run-b"`} {
		if !strings.Contains(text, id) {
			t.Errorf("no series of %s:\n%s", id, text)
		}
	}
	if !strings.HasSuffix(text, "# EOF\n") {
		t.Error("the OpenMetrics text does not end with # EOF")
	}
	twice, err := ReadRuns([]string{a, a})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Registry(twice); err == nil || !strings.HasPrefix(err.Error(), a+` is run_id "run-a" part 0 again: give each run's results once`) {
		t.Errorf("a run twice: %v", err)
	}
	if _, err := ReadRuns([]string{filepath.Join(dir, "none.json")}); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestPush: a run goes to the Pushgateway by PUT, grouped by its run id
// and part.
func TestPush(t *testing.T) {
	t.Parallel()
	var method, path, body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		method, path, body = r.Method, r.URL.Path, string(b)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	runs, err := ReadRuns([]string{writeRun(t, t.TempDir(), "a.json", "run-a")})
	if err != nil {
		t.Fatal(err)
	}
	if err := Push(context.Background(), srv.URL, runs[0]); err != nil {
		t.Fatal(err)
	}
	// The instance holds a slash, which the client encodes in base64.
	if method != http.MethodPut || path != "/metrics/job/mongobench/instance@base64/cnVuLWEvcGFydC0w" || body == "" {
		t.Errorf("%s %s with %d bytes", method, path, len(body))
	}
}

// TestNewRunID: a whole run's id is its start in UTC and a random
// suffix.
func TestNewRunID(t *testing.T) {
	t.Parallel()
	id := NewRunID(time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)))
	if !regexp.MustCompile(`^20260102T020405Z-[0-9a-f]{4}$`).MatchString(id) {
		t.Errorf("NewRunID = %q", id)
	}
}
