package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

var t0 = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// newStore opens a store in a fresh directory.
func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// runResults builds the results of a run as a real one would: from a
// summary with whole histograms, status counts and intervals.
func runResults(t testing.TB, label, phase string, start time.Time, ops int64) *results.Results {
	t.Helper()
	runtime := 10 * time.Second
	s := &measure.Summary{
		StartNs: 0, EndNs: int64(runtime),
		Start: start, End: start.Add(runtime),
		Operations: ops,
	}
	service, intended := measure.NewHistogram(), measure.NewHistogram()
	for v := int64(100); v <= 100+ops%1000; v++ {
		if err := service.RecordValue(v); err != nil {
			t.Fatal(err)
		}
		if err := intended.RecordValue(v + 50); err != nil {
			t.Fatal(err)
		}
	}
	s.Measurements = []measure.Measurement{{Name: "READ", Op: db.Read, Service: service, Intended: intended}}
	s.Status[db.Read][db.OK] = service.TotalCount()
	s.Status[db.Read][db.NotFound] = 3
	s.Intervals = []measure.IntervalStats{{
		Index: 0, StartNs: 0, EndNs: int64(runtime), Operations: ops, OpsPerSec: float64(ops) / runtime.Seconds(),
		Measurements: []measure.MeasurementStats{{Name: "READ", Op: db.Read,
			Service: &measure.LatencySummary{Count: 5, Mean: 120.5, Min: 100, Max: 140, Percentiles: []int64{110, 120, 130, 135, 140, 140}}}},
	}}
	r, err := results.NewResults(s, results.Meta{
		Tool:    results.Tool{Name: "mongobench", Version: "test"},
		Command: []string{"mongobench", phase, "mongodb", "-P", "workloads/workloada", "-threads", "8"},
		Label:   label,
		Phase:   phase,
		Config:  map[string]string{"threadcount": "8", "recordcount": "1000", "mongodb.url": "mongodb://h:27017/ycsb?w=1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func resultsJSON(t testing.TB, r *results.Results) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := results.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func save(t testing.TB, s *Store, r *results.Results, opts SaveOptions) int64 {
	t.Helper()
	id, err := s.Save(context.Background(), r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		make func(t *testing.T) *results.Results
		opts SaveOptions
	}{
		// A finished run phase, as the CLI saves it.
		{"run", func(t *testing.T) *results.Results { return runResults(t, "baseline", results.PhaseRun, t0, 5000) }, SaveOptions{}},
		// An interrupted load with nested extra sections, in a sweep.
		{"partial load with extras", func(t *testing.T) *results.Results {
			r := runResults(t, "", results.PhaseLoad, t0.Add(time.Hour), 42)
			r.Partial = true
			r.Extra = &results.Extra{
				Topology:      &metrics.TopologyInfo{Kind: metrics.KindStandalone, Version: "7.0.2", Hosts: []string{"db1:27017"}},
				ServerMetrics: []results.ServerSample{{T: 1, Server: &metrics.ServerInterval{Opcounters: metrics.OpRates{Query: metrics.Known(2.5)}, Restarted: true}}},
				MergedFrom:    []results.MergedPart{{Label: "w1", Start: t0, End: t0.Add(time.Second), Operations: 3}},
			}
			return r
		}, SaveOptions{SweepID: "sw-1", Point: map[string]string{"threadcount": "16"}, Trial: 2}},
		// Counts beyond float64's exact integers must survive the store's
		// redaction pass, which decodes the document generically.
		{"huge counts", func(t *testing.T) *results.Results {
			r := runResults(t, "big", results.PhaseRun, t0, 7)
			r.Operations = 1<<62 + 1
			r.RecordStalls = 1<<53 + 1
			r.Status["READ"]["OK"] = 1<<60 + 3
			return r
		}, SaveOptions{}},
		// No command, config or label at all.
		{"bare", func(t *testing.T) *results.Results {
			r := runResults(t, "", results.PhaseRun, t0, 1)
			r.Command, r.Config = nil, nil
			return r
		}, SaveOptions{}},
	}
	s := newStore(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			r := tt.make(t)
			want := resultsJSON(t, r)
			id := save(t, s, r, tt.opts)
			got, err := s.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g := resultsJSON(t, got); !bytes.Equal(g, want) {
				t.Errorf("Get(%d) differs from what was saved:\ngot:  %s\nwant: %s", id, g, want)
			}
			if !bytes.Equal(resultsJSON(t, r), want) {
				t.Error("Save modified the results it was given")
			}

			// The listing's columns agree with the document.
			runs, err := s.List(ctx, Filter{})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(runs, func(ri RunInfo) bool { return ri.ID == id })
			if i < 0 {
				t.Fatalf("run %d not listed", id)
			}
			wantInfo := RunInfo{
				ID: id, Label: r.Label, Phase: r.Phase, Start: r.Start, RuntimeMs: r.RuntimeMs,
				Operations: r.Operations, Throughput: r.ThroughputOpsSec, Partial: r.Partial,
				SweepID: tt.opts.SweepID, Point: tt.opts.Point, Trial: tt.opts.Trial, Command: r.Command,
			}
			if wantInfo.Command == nil {
				wantInfo.Command = []string{}
			}
			if got := runs[i]; !reflect.DeepEqual(got, wantInfo) {
				t.Errorf("List gives\n%+v\nwant\n%+v", got, wantInfo)
			}
		})
	}
}

func TestGetMissing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	_, err := s.Get(context.Background(), 7)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "run 7") {
		t.Errorf("Get(7) on an empty store: %v, want run 7 and ErrNotFound", err)
	}
}

func TestSaveRejects(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	old := runResults(t, "x", results.PhaseRun, t0, 1)
	old.FormatVersion = results.FormatVersion + 1
	tests := []struct {
		name string
		r    *results.Results
		opts SaveOptions
		want string
	}{
		{"nil results", nil, SaveOptions{}, "no results"},
		// Get could not read it back.
		{"other format", old, SaveOptions{}, "format_version"},
		{"negative trial", runResults(t, "x", results.PhaseRun, t0, 1), SaveOptions{Trial: -1}, "trial -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := s.Save(context.Background(), tt.r, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Save: %v, want an error about %q", err, tt.want)
			}
		})
	}
	runs, err := s.List(context.Background(), Filter{})
	if err != nil || len(runs) != 0 {
		t.Errorf("rejected saves left %d runs (%v)", len(runs), err)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	type run struct {
		label, phase string
		start        time.Duration // after t0
		sweep        string
		trial        int
	}
	// Saved out of time order, so that order by id and by start differ;
	// runs 5 and 6 start together.
	runs := []run{
		{"a", results.PhaseLoad, 0, "", 0},            // 1
		{"a", results.PhaseRun, 3 * time.Hour, "", 0}, // 2
		{"b", results.PhaseRun, time.Hour, "", 0},     // 3
		{"sw", results.PhaseRun, 5 * time.Hour, "s1", 0},
		{"sw", results.PhaseRun, 4 * time.Hour, "s1", 1},
		{"sw", results.PhaseRun, 4 * time.Hour, "s1", 2},
		{"", results.PhaseRun, 2 * time.Hour, "", 0}, // 7
	}
	for i, r := range runs {
		id := save(t, s, runResults(t, r.label, r.phase, t0.Add(r.start), 10), SaveOptions{SweepID: r.sweep, Trial: r.trial})
		if id != int64(i+1) {
			t.Fatalf("run %d saved as id %d", i+1, id)
		}
	}
	tests := []struct {
		name string
		f    Filter
		want []int64
	}{
		// Newest start first; equal starts newest id first.
		{"all", Filter{}, []int64{4, 6, 5, 2, 7, 3, 1}},
		{"label", Filter{Label: "a"}, []int64{2, 1}},
		{"phase", Filter{Phase: results.PhaseLoad}, []int64{1}},
		{"label and phase", Filter{Label: "a", Phase: results.PhaseRun}, []int64{2}},
		{"sweep", Filter{SweepID: "s1"}, []int64{4, 6, 5}},
		{"limit", Filter{Limit: 2}, []int64{4, 6}},
		{"limit above count", Filter{Label: "b", Limit: 5}, []int64{3}},
		{"no match", Filter{Label: "zzz"}, nil},
		// Filters are exact: no prefix or case folding.
		{"exact label", Filter{Label: "A"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := s.List(context.Background(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, ri := range got {
				ids = append(ids, ri.ID)
			}
			if !slices.Equal(ids, tt.want) {
				t.Errorf("List(%+v) = %v, want %v", tt.f, ids, tt.want)
			}
		})
	}
	t.Run("fields", func(t *testing.T) {
		t.Parallel()
		got, err := s.List(context.Background(), Filter{SweepID: "s1", Limit: 1})
		if err != nil || len(got) != 1 {
			t.Fatalf("List: %v, %v", got, err)
		}
		ri := got[0]
		if !ri.Start.Equal(t0.Add(5*time.Hour)) || ri.Label != "sw" || ri.Trial != 0 || ri.SweepID != "s1" ||
			ri.RuntimeMs != 10000 || ri.Operations != 10 || ri.Throughput != 1 || ri.Point != nil {
			t.Errorf("List gives %+v", ri)
		}
	})
	t.Run("negative limit", func(t *testing.T) {
		t.Parallel()
		if _, err := s.List(context.Background(), Filter{Limit: -1}); err == nil {
			t.Error("List with limit -1: no error")
		}
	})
}

func TestResolve(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	labels := []string{
		"baseline",     // 1
		"baseline",     // 2
		"tuned-cache",  // 3
		"tuned-cache2", // 4
		"3",            // 5: a label that is also a run id
		"77",           // 6: a label that is no run id
		"sweep:odd",    // 7
		"s1",           // 8: also the name of a sweep
	}
	for _, l := range labels {
		save(t, s, runResults(t, l, results.PhaseRun, t0, 10), SaveOptions{})
	}
	for trial := range 3 { // 9, 10, 11
		save(t, s, runResults(t, "threads-8", results.PhaseRun, t0, 10), SaveOptions{SweepID: "s1", Trial: trial})
	}
	tests := []struct {
		ref     string
		want    []int64
		wantErr []string // substrings of the error; nil when none is wanted
	}{
		{ref: "2", want: []int64{2}},
		{ref: "baseline", want: []int64{1, 2}},
		{ref: "threads-8", want: []int64{9, 10, 11}},
		{ref: "sweep:s1", want: []int64{9, 10, 11}},
		// A run id wins over an equal label; label: reaches the label.
		{ref: "3", want: []int64{3}},
		{ref: "label:3", want: []int64{5}},
		// A number that is no run id is tried as a label.
		{ref: "77", want: []int64{6}},
		{ref: "label:sweep:odd", want: []int64{7}},
		{ref: "s1", want: []int64{8}},
		// Leading zeros still name the run.
		{ref: "0002", want: []int64{2}},

		// A typo lists close labels, closest first.
		{ref: "baselin", wantErr: []string{`no run has label "baselin"`, `close labels: "baseline"`}},
		{ref: "tuned-cahce", wantErr: []string{`"tuned-cache", "tuned-cache2"`}},
		// A label typed without its suffix.
		{ref: "tuned", wantErr: []string{`"tuned-cache", "tuned-cache2"`}},
		{ref: "99", wantErr: []string{`no run has id 99 or label "99"`, `"77"`}},
		{ref: "nothing-like-it", wantErr: []string{`no run has label "nothing-like-it"`}},
		{ref: "sweep:s2", wantErr: []string{`no sweep has id "s2"`, `close sweeps: "sweep:s1"`}},
		{ref: "sweep:baseline", wantErr: []string{`no sweep has id "baseline"`, `"baseline"`}},
		{ref: "", wantErr: []string{"empty"}},
		{ref: "sweep:", wantErr: []string{"empty sweep id"}},
		{ref: "label:", wantErr: []string{"empty label"}},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			got, err := s.Resolve(context.Background(), tt.ref)
			if tt.wantErr == nil {
				if err != nil || !slices.Equal(got, tt.want) {
					t.Errorf("Resolve(%q) = %v, %v; want %v", tt.ref, got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Resolve(%q) = %v, want an error", tt.ref, got)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Resolve(%q): %v\nwant it to contain %s", tt.ref, err, w)
				}
			}
		})
	}
	t.Run("not found is ErrNotFound", func(t *testing.T) {
		t.Parallel()
		_, err := s.Resolve(context.Background(), "baselin")
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(baselin): %v, want ErrNotFound", err)
		}
	})
	t.Run("label given for a sweep", func(t *testing.T) {
		t.Parallel()
		// "s1" is a label too, so ask for a sweep-only name.
		s2 := newStore(t)
		save(t, s2, runResults(t, "", results.PhaseRun, t0, 1), SaveOptions{SweepID: "nightly"})
		_, err := s2.Resolve(context.Background(), "nightly")
		if err == nil || !strings.Contains(err.Error(), `"sweep:nightly"`) {
			t.Errorf("Resolve(nightly): %v, want a hint to sweep:nightly", err)
		}
	})
	t.Run("empty store", func(t *testing.T) {
		t.Parallel()
		_, err := newStore(t).Resolve(context.Background(), "baseline")
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no labelled runs") {
			t.Errorf("Resolve on an empty store: %v", err)
		}
	})
}

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"a", "baseline", "Baseline-v2", "run-16", "run-32", "zeta"}
	tests := []struct {
		want string
		out  []string
	}{
		{"baseline", []string{"baseline", "Baseline-v2"}},
		// Case is ignored for closeness.
		{"BASELINE", []string{"baseline", "Baseline-v2"}},
		{"run-61", []string{"run-16", "run-32"}},
		// A one-letter name is no suggestion for a longer word holding it.
		{"banana", nil},
		{"", []string{"a"}},
	}
	for _, tt := range tests {
		if got := closest(tt.want, names); !slices.Equal(got, tt.out) {
			t.Errorf("closest(%q) = %q, want %q", tt.want, got, tt.out)
		}
	}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf("label%02d", i)
	}
	if got := closest("label", many); len(got) != maxSuggestions {
		t.Errorf("closest over 20 similar names gives %d, want %d", len(got), maxSuggestions)
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		// Runes, not bytes.
		{"café", "cafe", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := runResults(t, "kept", results.PhaseRun, t0, 10)
	id := save(t, s, r, SaveOptions{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatalf("re-opening a store: %v", err)
	}
	defer func() { _ = s.Close() }()
	got, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultsJSON(t, got), resultsJSON(t, r)) {
		t.Error("the run changed across a close and re-open")
	}
	if id2 := save(t, s, r, SaveOptions{}); id2 != id+1 {
		t.Errorf("next id after re-open is %d, want %d", id2, id+1)
	}
}

// rawDB opens path with the driver alone, as another program would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	d, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func pragma(t *testing.T, d *sql.DB, name string) int {
	t.Helper()
	var v int
	if err := d.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func exec(t *testing.T, d *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := d.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestSchemaVersion(t *testing.T) {
	t.Parallel()
	t.Run("new file", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "runs.db")
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		d := rawDB(t, path)
		if v := pragma(t, d, "user_version"); v != len(migrations) {
			t.Errorf("user_version = %d, want %d", v, len(migrations))
		}
		if id := pragma(t, d, "application_id"); id != applicationID {
			t.Errorf("application_id = %#x, want %#x", id, applicationID)
		}
		var mode string
		if err := d.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q (%v), want wal", mode, err)
		}
	})
	t.Run("newer refused", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "runs.db")
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		save(t, s, runResults(t, "x", results.PhaseRun, t0, 1), SaveOptions{})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		newer := len(migrations) + 1
		exec(t, rawDB(t, path), fmt.Sprintf("PRAGMA user_version = %d", newer))
		s, err = Open(path)
		if err == nil {
			_ = s.Close()
			t.Fatal("Open accepted a store of a newer schema version")
		}
		msg := err.Error()
		if !errors.Is(err, ErrNewerSchema) || !strings.Contains(msg, strconv.Itoa(newer)) ||
			!strings.Contains(msg, "up to "+strconv.Itoa(len(migrations))) || !strings.Contains(msg, path) {
			t.Errorf("Open: %v\nwant ErrNewerSchema naming the path and versions %d and %d", err, newer, len(migrations))
		}
		if v := pragma(t, rawDB(t, path), "user_version"); v != newer {
			t.Errorf("the refused store's user_version became %d", v)
		}
	})
	t.Run("older migrated", func(t *testing.T) {
		t.Parallel()
		// A store made by a version that knew only the first migration.
		path := filepath.Join(t.TempDir(), "runs.db")
		d := rawDB(t, path)
		exec(t, d, migrations[0], "PRAGMA user_version = 1", fmt.Sprintf("PRAGMA application_id = %d", applicationID))
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = s.Close() }()
		if v := pragma(t, d, "user_version"); v != len(migrations) {
			t.Errorf("user_version after migration = %d, want %d", v, len(migrations))
		}
		var n int
		if err := d.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'runs_%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 3 {
			t.Errorf("%d indexes of runs after migration, want 3", n)
		}
		save(t, s, runResults(t, "x", results.PhaseRun, t0, 1), SaveOptions{})
		// The disk baselines came with a later migration.
		if _, err := s.SaveDiskBaseline(t.Context(), testBaseline("vda", t0)); err != nil {
			t.Errorf("no disk baselines after migration: %v", err)
		}
	})
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error // nil: any error
	}{
		// --store pointed at a results file.
		{"not sqlite", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(`{"format_version": 1}`+strings.Repeat(" ", 600)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"other application", func(t *testing.T, path string) {
			exec(t, rawDB(t, path), "PRAGMA application_id = 1234", "CREATE TABLE t (x)")
		}, ErrNotAStore},
		// Such as the embedded server's data file.
		{"unmarked tables", func(t *testing.T, path string) {
			exec(t, rawDB(t, path), "CREATE TABLE documents (x)")
		}, ErrNotAStore},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "other.db")
			tt.setup(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err == nil {
				_ = s.Close()
				t.Fatal("Open accepted another program's file")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Open: %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("Open: %v, want the path in the error", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("Open modified the file it refused")
			}
		})
	}
	t.Run("empty path", func(t *testing.T) {
		t.Parallel()
		if s, err := Open(""); err == nil {
			_ = s.Close()
			t.Error("Open(\"\") succeeded")
		}
	})
	t.Run("missing directory", func(t *testing.T) {
		t.Parallel()
		if s, err := Open(filepath.Join(t.TempDir(), "no", "such", "dir", "runs.db")); err == nil {
			_ = s.Close()
			t.Error("Open in a missing directory succeeded")
		}
	})
}

func TestOpenOddPath(t *testing.T) {
	t.Parallel()
	// Characters a URI would read as a query, a fragment or an escape.
	dir := t.TempDir()
	name := "runs ?a=b#frag%41 ü.db"
	s, err := Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	save(t, s, runResults(t, "x", results.PhaseRun, t0, 1), SaveOptions{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Contains(names, name) {
		t.Errorf("directory holds %q, want %q", names, name)
	}
}

func TestConcurrentSave(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "runs.db")
	// Two handles on one file stand for two mongobench processes; opening
	// them at once also races the schema creation.
	var stores [2]*Store
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range stores {
		wg.Go(func() {
			s, err := Open(path)
			if err != nil {
				errs <- err
				return
			}
			stores[i] = s
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent Open: %v", err)
	}
	defer func() {
		for _, s := range stores {
			_ = s.Close()
		}
	}()

	const workers, each = 4, 5
	ids := make(chan int64, workers*each)
	errs = make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			s := stores[w%len(stores)]
			for i := range each {
				r := runResults(t, fmt.Sprintf("w%d", w), results.PhaseRun, t0.Add(time.Duration(i)*time.Minute), int64(i+1))
				id, err := s.Save(context.Background(), r, SaveOptions{Trial: i})
				if err != nil {
					errs <- err
					continue
				}
				ids <- id
			}
		})
	}
	wg.Wait()
	close(ids)
	close(errs)
	for err := range errs {
		t.Errorf("concurrent Save: %v", err)
	}
	seen := map[int64]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("id %d given twice", id)
		}
		seen[id] = true
	}
	runs, err := stores[0].List(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != workers*each || len(seen) != workers*each {
		t.Errorf("%d runs listed, %d ids returned, want %d", len(runs), len(seen), workers*each)
	}
	for w := range workers {
		got, err := stores[1].Resolve(context.Background(), fmt.Sprintf("w%d", w))
		if err != nil || len(got) != each {
			t.Errorf("worker %d: %d runs (%v), want %d", w, len(got), err, each)
		}
	}
}

// storeBytes returns the store file and its WAL, where fresh writes live
// until a checkpoint.
func storeBytes(t *testing.T, path string) []byte {
	t.Helper()
	var all []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

func TestSecretsNeverReachTheFile(t *testing.T) {
	t.Parallel()
	const (
		secret = "S3NTINEL-pw"
		// The user name stays: finding it proves the bytes searched are
		// the ones that hold the runs.
		user = "visibleuser"
	)
	url := "mongodb://" + user + ":" + secret + "@db1:27017,db2:27017/ycsb?authSource=admin&tlsCertificateKeyFilePassword=" + secret
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := runResults(t, "secret-test", results.PhaseRun, t0, 10)
	// As if the caller had forgotten to redact, everywhere at once.
	r.Command = append(r.Command, "-p", "mongodb.url="+url)
	r.Config["mongodb.url"] = url
	r.Extra = &results.Extra{Topology: &metrics.TopologyInfo{Kind: metrics.KindUnknown, Hosts: []string{url}},
		MergedFrom: []results.MergedPart{{Label: url, Start: t0, End: t0, Command: []string{"mongobench", "-p", "mongodb.url=" + url}}}}
	id := save(t, s, r, SaveOptions{SweepID: "s", Point: map[string]string{"mongodb.url": url}})

	got, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if b := resultsJSON(t, got); bytes.Contains(b, []byte(secret)) || !bytes.Contains(b, []byte(user+":***@db1")) {
		t.Errorf("Get returns the password or lost the redacted URL:\n%s", b)
	}
	runs, err := s.List(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if info := fmt.Sprint(runs); strings.Contains(info, secret) {
		t.Errorf("List returns the password: %s", info)
	}

	// While open (the run is in the WAL) and after Close (checkpointed
	// into the main file).
	for _, when := range []string{"open", "closed"} {
		if when == "closed" {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		raw := storeBytes(t, path)
		if !bytes.Contains(raw, []byte(user)) {
			t.Fatalf("%s: the store's bytes do not hold the run at all", when)
		}
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("%s: the password is in the store file", when)
		}
	}
}

func FuzzResolve(f *testing.F) {
	s := newStore(f)
	ctx := context.Background()
	for _, l := range []string{"baseline", "12", "sweep:x", "ü-label"} {
		if _, err := s.Save(ctx, runResults(f, l, results.PhaseRun, t0, 1), SaveOptions{SweepID: "sw"}); err != nil {
			f.Fatal(err)
		}
	}
	for _, seed := range []string{"1", "baseline", "sweep:sw", "label:12", "0", "-1", "99999999999999999999", "sweep:", "baselin", "ü"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		ids, err := s.Resolve(ctx, ref)
		if err != nil {
			if len(ids) != 0 {
				t.Fatalf("Resolve(%q) = %v with error %v", ref, ids, err)
			}
			return
		}
		if len(ids) == 0 {
			t.Fatalf("Resolve(%q) found nothing and gave no error", ref)
		}
		for _, id := range ids {
			if _, err := s.Get(ctx, id); err != nil {
				t.Fatalf("Resolve(%q) gave id %d that Get cannot read: %v", ref, id, err)
			}
		}
	})
}

func BenchmarkSave(b *testing.B) {
	s := newStore(b)
	r := runResults(b, "bench", results.PhaseRun, t0, 999)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Save(ctx, r, SaveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkList(b *testing.B) {
	s := newStore(b)
	ctx := context.Background()
	for i := range 500 {
		save(b, s, runResults(b, fmt.Sprintf("l%d", i%20), results.PhaseRun, t0.Add(time.Duration(i)*time.Second), 10), SaveOptions{})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.List(ctx, Filter{Limit: 100}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConcurrentOpenNewFile: several runs started together in a directory
// with no store yet (a sweep's parallel clients, a test suite) all open it.
// Switching a new file to WAL is where they used to collide.
func TestConcurrentOpenNewFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for round := range 20 {
		path := filepath.Join(dir, fmt.Sprintf("runs%d.db", round))
		start := make(chan struct{})
		errs := make(chan error, 8)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				<-start
				s, err := Open(path)
				if err != nil {
					errs <- err
					return
				}
				errs <- s.Close()
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: concurrent Open of a new store: %v", round, err)
			}
		}
	}
}
