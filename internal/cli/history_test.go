package cli

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/store"
)

// TestLabelledSweeps runs two labelled sweeps into one store, as a user
// comparing a baseline with a change would, then lists, compares and
// reports them by label, sweep id, run id, directory and journal.
func TestLabelledSweeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	url := freshURL(t)
	sweep := func(label string, extra ...string) string {
		t.Helper()
		args := append([]string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=200", "-p", "operationcount=300", "-p", "mongodb.url=" + url,
			"--vary", "threadcount=1,2", "--repeat", "2", "-l", label, "--store", db, "--out-dir", filepath.Join(dir, label)}, extra...)
		r := experiment(t, runSweep, args...)
		if r.code != 0 {
			t.Fatalf("sweep %s: exit %d\n%s\n%s", label, r.code, r.stdout, r.stderr)
		}
		return r.stdout
	}
	sweep("baseline")
	tunedOut := sweep("tuned", "--discard-first")
	if n := strings.Count(tunedOut, "warm-up: not in the mean"); n != 2 {
		t.Errorf("--discard-first marked %d rows as warm-up, want one per point:\n%s", n, tunedOut)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	base, err := st.List(ctx, store.Filter{Label: "baseline"})
	if err != nil {
		t.Fatal(err)
	}
	tuned, err := st.List(ctx, store.Filter{Label: "tuned"})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if len(base) != 4 || len(tuned) != 6 {
		t.Fatalf("the store holds %d baseline and %d tuned runs, want 4 and 6", len(base), len(tuned))
	}
	if base[0].SweepID == tuned[0].SweepID {
		t.Fatalf("both sweeps have id %s", base[0].SweepID)
	}
	verdictLine := regexp.MustCompile(`(significant: B is [0-9.]+% (better|worse) than A \(p=[0-9.e-]+, Holm [0-9.e-]+\)|no significant difference( once corrected for [0-9]+ figures)? \(p=[0-9.e-]+(, Holm [0-9.e-]+)?\)|every operation OK on both sides)$`)

	t.Run("compare labels", func(t *testing.T) {
		r := experiment(t, runCompare, "baseline", "tuned", "--store", db)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		for _, want := range []string{
			"A: baseline (the label baseline in " + db + "): 4 runs (store runs ", "B: tuned (the label tuned in " + db + "): 6 runs (store runs ", "2 warm-up run(s) of B left out",
			"threadcount=1: 2 runs of A against 2 runs of B", "threadcount=2: 2 runs of A against 2 runs of B",
			"figures were tested together",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("compare output lacks %q:\n%s", want, r.stdout)
			}
		}
		// Either verdict, by what the trials show on this machine.
		if !strings.Contains(r.stdout, "verdict: B against A is significantly better in ") && !strings.Contains(r.stdout, "verdict: no significant difference between B and A: ") {
			t.Errorf("compare output lacks the verdict line:\n%s", r.stdout)
		}
		rows := 0
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "OVERALL ") || strings.HasPrefix(l, "READ ") {
				rows++
				if !verdictLine.MatchString(l) {
					t.Errorf("row without a verdict: %q", l)
				}
			}
		}
		// Per point: throughput, average, four percentiles and errors.
		if rows != 14 {
			t.Errorf("%d figure rows, want 14:\n%s", rows, r.stdout)
		}
	})

	t.Run("compare directories and sweep ids", func(t *testing.T) {
		byDir := experiment(t, runCompare, filepath.Join(dir, "baseline"), filepath.Join(dir, "tuned"), "--store", db)
		bySweep := experiment(t, runCompare, store.SweepPrefix+base[0].SweepID, store.SweepPrefix+tuned[0].SweepID, "--store", db)
		if byDir.code != 0 || bySweep.code != 0 {
			t.Fatalf("exit %d, %d: %s %s", byDir.code, bySweep.code, byDir.stderr, bySweep.stderr)
		}
		// The files and the store hold the same runs: the same figures.
		tables := func(s string) string { _, after, _ := strings.Cut(s, "latency: "); return after }
		if tables(byDir.stdout) != tables(bySweep.stdout) {
			t.Errorf("directories and sweep ids compare differently:\n%s\n---\n%s", byDir.stdout, bySweep.stdout)
		}
	})

	t.Run("compare single runs", func(t *testing.T) {
		var a, b string
		for _, ri := range base {
			if ri.Point["threadcount"] == "1" && ri.Trial == 1 {
				a = strconv.FormatInt(ri.ID, 10)
			}
		}
		for _, ri := range tuned {
			if ri.Point["threadcount"] == "1" && ri.Trial == 2 {
				b = strconv.FormatInt(ri.ID, 10)
			}
		}
		journal := filepath.Join(dir, "baseline", "p01-threadcount=1-t2.json.intervals.jsonl")
		for _, pair := range [][2]string{{a, b}, {journal, b}} {
			r := experiment(t, runCompare, pair[0], pair[1], "--store", db)
			if r.code != 0 {
				t.Fatalf("compare %s %s: exit %d: %s", pair[0], pair[1], r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, "one run per side, so no verdict is possible") || !strings.Contains(r.stdout, "verdict: no verdict possible") {
				t.Errorf("compare %s %s does not say no verdict is possible:\n%s", pair[0], pair[1], r.stdout)
			}
		}
	})

	t.Run("history", func(t *testing.T) {
		r := experiment(t, runHistory, "--store", db)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if len(lines) != 11 || !strings.HasPrefix(lines[0], "id  start (UTC)") {
			t.Fatalf("history lists %d lines, want a header and 10 runs:\n%s", len(lines), r.stdout)
		}
		// Newest first: the tuned sweep's last trial heads the list.
		if f := strings.Fields(lines[1]); f[3] != "tuned" || f[9] != "threadcount=2" || f[10] != "3" {
			t.Errorf("first row %q: want tuned, threadcount=2, trial 3", lines[1])
		}
		for _, tc := range []struct {
			args  []string
			rows  int
			label string
		}{
			{[]string{"--label", "baseline"}, 4, "baseline"},
			{[]string{"--sweep", tuned[0].SweepID}, 6, "tuned"},
			{[]string{"--sweep", store.SweepPrefix + tuned[0].SweepID, "--limit", "3"}, 3, "tuned"},
		} {
			r := experiment(t, runHistory, append(tc.args, "--store", db)...)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			if r.code != 0 || len(lines) != tc.rows+1 {
				t.Errorf("history %v: exit %d, %d rows, want %d:\n%s", tc.args, r.code, len(lines)-1, tc.rows, r.stdout)
				continue
			}
			for _, l := range lines[1:] {
				if f := strings.Fields(l); f[3] != tc.label {
					t.Errorf("history %v lists %q", tc.args, l)
				}
			}
		}
		v := experiment(t, runHistory, "-v", "--limit", "1", "--store", db)
		if !strings.Contains(v.stdout, "mongobench run mongodb -P workloadc") {
			t.Errorf("history -v does not show the command line:\n%s", v.stdout)
		}
		if !strings.Contains(v.stderr, "showing the newest 1 runs") {
			t.Errorf("history --limit 1 does not say there are more:\n%s", v.stderr)
		}
		// For a spreadsheet: a header, a row per run, every digit.
		csvOut := experiment(t, runHistory, "--format", "csv", "--label", "baseline", "-v", "--store", db)
		recs, err := csv.NewReader(strings.NewReader(csvOut.stdout)).ReadAll()
		if err != nil || len(recs) != 5 || recs[0][6] != "throughput(ops/s)" || recs[0][11] != "command" || recs[1][2] != "baseline" || !strings.HasPrefix(recs[1][11], "mongobench run mongodb") {
			t.Errorf("history --format csv -v: %v, %q", err, csvOut.stdout)
		}
		md := experiment(t, runHistory, "--format", "markdown", "--label", "baseline", "--store", db)
		if lines := strings.Split(strings.TrimSpace(md.stdout), "\n"); len(lines) != 6 || !strings.HasPrefix(lines[1], "|---:|---|---|---|") {
			t.Errorf("history --format markdown:\n%s", md.stdout)
		}
		typo := experiment(t, runHistory, "--label", "basline", "--store", db)
		if typo.code != ExitBadInput || !strings.Contains(typo.stderr, `close labels: "baseline"`) {
			t.Errorf("history --label basline: exit %d, %q; want 2 naming baseline", typo.code, typo.stderr)
		}
	})

	t.Run("report", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			args []string
			says string
		}{
			{"sweep", []string{store.SweepPrefix + tuned[0].SweepID}, "(6 runs, 2 sweep points)"},
			{"comparison", []string{"baseline", "tuned"}, "(10 runs, tuned compared against baseline)"},
			{"directory", []string{filepath.Join(dir, "baseline")}, "(4 runs, 2 sweep points)"},
		} {
			out := filepath.Join(dir, tc.name+".html")
			r := experiment(t, runReportCmd, append(tc.args, "-o", out, "--store", db)...)
			if r.code != 0 {
				t.Fatalf("report %s: exit %d: %s", tc.name, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.says) {
				t.Errorf("report %s says %q, want %q", tc.name, r.stderr, tc.says)
			}
			page, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) < 1000 || !strings.HasPrefix(string(page), "<!DOCTYPE html>") {
				t.Errorf("report %s: %d bytes starting %.40q", tc.name, len(page), page)
			}
		}
	})

	t.Run("report sweep figures", func(t *testing.T) {
		src := &runSource{storePath: db}
		defer src.close()
		runs, _, err := src.source().Load(ctx, "tuned")
		if err != nil {
			t.Fatal(err)
		}
		in, notes, err := reportPage(&reportOptions{refs: []string{"tuned"}, opts: htmlreport.Options{Alpha: 0.05}}, [][]analysis.Run{runs})
		if err != nil {
			t.Fatal(err)
		}
		sw := in.Sweep
		if sw == nil || len(sw.Points) != 2 {
			t.Fatalf("sweep %+v: want 2 points", sw)
		}
		for _, p := range sw.Points {
			if p.Trials != 2 || !(p.ThroughputLo <= p.Throughput && p.Throughput <= p.ThroughputHi) || p.PerOp["READ"].P99us <= 0 {
				t.Errorf("point %+v: want 2 trials, the mean inside its interval and a READ p99", p)
			}
		}
		if sw.Varied != "threadcount" || sw.KneeSentence == "" {
			t.Errorf("varied %q, knee sentence %q", sw.Varied, sw.KneeSentence)
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "2 runs (warm-up or interrupted) left out") {
			t.Errorf("notes %q: want the warm-ups left out", notes)
		}
	})
}

// TestHistoryEmpty: no store yet is no error, and no file is created.
func TestHistoryEmpty(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "none.db")
	r := experiment(t, runHistory, "--store", db)
	if r.code != 0 || !strings.Contains(r.stderr, "no runs recorded yet") {
		t.Errorf("exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("history created the store")
	}
}
