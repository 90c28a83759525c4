package historytext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

var start = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// TestWriteListing: the listing in each format, with and without the
// command lines; a spreadsheet gets every digit and empty cells.
func TestWriteListing(t *testing.T) {
	t.Parallel()
	runs := []store.RunInfo{
		{ID: 12, Label: "ssd|fast", Phase: "run", Start: start.Add(time.Hour), RuntimeMs: 10250, Operations: 10000, Throughput: 975.6097560975,
			SweepID: "20260301-010000", Point: map[string]string{"threadcount": "4"}, Trial: 2, Command: []string{"mongobench", "sweep", "run"}},
		{ID: 3, Phase: "load", Start: start, RuntimeMs: 2000, Operations: 1000, Throughput: 500, Partial: true, Command: []string{"mongobench", "load"}},
	}
	for _, tc := range []struct {
		name    string
		f       tt.Format
		verbose bool
	}{
		{"listing.txt", tt.Text, false}, {"listing-v.txt", tt.Text, true},
		{"listing.csv", tt.CSV, false}, {"listing-v.md", tt.Markdown, true},
	} {
		var out bytes.Buffer
		WriteListing(&out, tc.f, runs, tc.verbose)
		golden.Check(t, tc.name, out.String())
	}
}

// getter is a store of results by id.
type getter map[int64]*results.Results

func (g getter) Get(_ context.Context, id int64) (*results.Results, error) {
	if r, ok := g[id]; ok {
		return r, nil
	}
	return nil, errors.New("no such run")
}

// TestWriteChanges: a step of 20% in throughput is found at the run
// where it began, with the means on either side; a flat p99 is named
// steady; a partial run is left out and said to be.
func TestWriteChanges(t *testing.T) {
	t.Parallel()
	g := getter{}
	var infos []store.RunInfo
	for i := range 20 {
		tp := 1000.0 + float64(i%2)
		if i >= 10 {
			tp = 800 + float64(i%2)
		}
		r := resultstest.Results(t, resultstest.Spec{Label: "nightly", Throughput: tp, LatencyUs: map[string]int64{"READ": 1000}})
		r.Start = start.Add(time.Duration(i) * time.Hour)
		id := int64(i + 1)
		g[id] = r
		infos = append([]store.RunInfo{{ID: id}}, infos...) // newest first, as the store lists
	}
	partial := resultstest.Results(t, resultstest.Spec{Label: "nightly", Throughput: 10})
	partial.Partial = true
	g[21] = partial
	infos = append([]store.RunInfo{{ID: 21}}, infos...)

	var out, notes bytes.Buffer
	if err := WriteChanges(context.Background(), &out, &notes, g, infos, tt.Text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if want := "run phase, label nightly: 20 runs, run 1 (2026-03-01 00:00) to run 20 (2026-03-01 19:00)"; lines[0] != want {
		t.Errorf("heading %q, want %q", lines[0], want)
	}
	var row string
	for _, l := range lines {
		if strings.HasPrefix(l, "throughput") {
			row = strings.Join(strings.Fields(l), " ")
		}
	}
	if want := "throughput run 11 1000 800 -20.0% 0.005"; row != want {
		t.Errorf("change row %q, want %q:\n%s", row, want, out.String())
	}
	if !strings.Contains(out.String(), "no significant change in: READ p99 (us)\n") {
		t.Errorf("the steady p99 not named:\n%s", out.String())
	}
	if !strings.HasPrefix(notes.String(), "mongobench: 1 run left out: partial runs and warm-up trials") {
		t.Errorf("notes: %s", notes.String())
	}
	// A run the store cannot give back is an error, not a gap.
	err := WriteChanges(context.Background(), &out, &notes, g, []store.RunInfo{{ID: 99}}, tt.Text)
	if err == nil {
		t.Error("a missing run: no error")
	}
}

// TestFewRuns: a configuration of fewer runs than a change needs says so.
func TestFewRuns(t *testing.T) {
	t.Parallel()
	g := getter{}
	var infos []store.RunInfo
	for i := range 5 {
		r := resultstest.Results(t, resultstest.Spec{Throughput: 1000})
		r.Start = start.Add(time.Duration(i) * time.Hour)
		g[int64(i+1)] = r
		infos = append(infos, store.RunInfo{ID: int64(i + 1)})
	}
	var out, notes bytes.Buffer
	if err := WriteChanges(context.Background(), &out, &notes, g, infos, tt.Text); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("note: 5 runs are too few to tell most changes from noise: about %d are needed", FewRuns); !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}
