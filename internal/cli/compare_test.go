package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/comparetext"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// writeSynth writes synthetic results files into dir and returns their
// paths.
func writeSynth(t *testing.T, dir string, specs map[string]resultstest.Spec) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for name, s := range specs {
		p := filepath.Join(dir, name+".json")
		if err := writeResults(p, resultstest.Results(t, s)); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// TestCompareGolden pins compare's output for groups of results files.
func TestCompareGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	two := map[string]int64{"READ": 1000, "UPDATE": 4000}
	p := writeSynth(t, dir, map[string]resultstest.Spec{
		"a1": {Label: "base", Throughput: 1000, LatencyUs: two},
		"a2": {Label: "base", Throughput: 1020, LatencyUs: two},
		"a3": {Label: "base", Throughput: 990, LatencyUs: two},
		"b1": {Label: "new", Throughput: 2000, LatencyUs: map[string]int64{"READ": 1500, "UPDATE": 4000}, Errors: 3},
		"b2": {Label: "new", Throughput: 2030, LatencyUs: map[string]int64{"READ": 1500, "UPDATE": 4000}, Errors: 5},
		"b3": {Label: "new", Throughput: 1990, LatencyUs: map[string]int64{"READ": 1500, "UPDATE": 4000}, Errors: 4},
	})
	// YCSB's rounds: a load and a run phase under each label.
	loads := map[string]string{"threadcount": "1"}
	runs := map[string]string{"threadcount": "4"}
	k := writeSynth(t, dir, map[string]resultstest.Spec{
		"ssd-load1": {Label: "ssd", Throughput: 400, Phase: "load", Config: loads, LatencyUs: map[string]int64{"INSERT": 2000}},
		"ssd-load2": {Label: "ssd", Throughput: 410, Phase: "load", Config: loads, LatencyUs: map[string]int64{"INSERT": 2000}},
		"ssd-run1":  {Label: "ssd", Throughput: 800, Config: runs},
		"ssd-run2":  {Label: "ssd", Throughput: 820, Config: runs},
		"essd-load": {Label: "essd", Throughput: 300, Phase: "load", Config: loads, LatencyUs: map[string]int64{"INSERT": 2500}},
		"essd-run1": {Label: "essd", Throughput: 600, Config: runs},
		"essd-run2": {Label: "essd", Throughput: 610, Config: runs},
	})
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		// Each group holds both phases: compared phase by phase, said.
		{"kinds", []string{k["ssd-load1"] + "," + k["ssd-run1"] + "," + k["ssd-load2"] + "," + k["ssd-run2"], filepath.Join(dir, "essd-*.json")}, "compare_kinds.golden"},
		// Three runs a side: every figure gets a verdict.
		{"groups", []string{p["a1"] + "," + p["a2"] + "," + p["a3"], filepath.Join(dir, "b*.json")}, "compare_groups.golden"},
		// One run a side: figures side by side, no verdict possible.
		{"single runs", []string{p["a1"], p["b1"]}, "compare_single.golden"},
		// Two groups against one baseline, and flags after the groups.
		{"three groups", []string{p["a1"] + "," + p["a2"], p["b1"] + "," + p["b2"], p["a3"] + "," + p["b3"], "--alpha", "0.01"}, "compare_three.golden"},
		// For spreadsheets: every figure's numbers in full, B the baseline.
		{"csv", []string{p["a1"] + "," + p["a2"] + "," + p["a3"], p["b1"] + "," + p["b2"] + "," + p["b3"], "--format", "csv", "--baseline", "B"}, "compare_groups.csv.golden"},
		{"markdown", []string{p["a1"] + "," + p["a2"] + "," + p["a3"], p["b1"] + "," + p["b2"] + "," + p["b3"], "--format=markdown"}, "compare_groups.md.golden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := experiment(t, runCompare, append(tc.args, "--store", filepath.Join(dir, "none.db"))...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			golden.Check(t, tc.golden, strings.ReplaceAll(r.stdout, dir+string(os.PathSeparator), "DIR/"))
		})
	}
}

// FuzzParseInterleaved: flags and arguments in any order parse without a
// panic, and every argument that is no flag comes back in order.
func FuzzParseInterleaved(f *testing.F) {
	f.Add("a b --alpha 0.01 c")
	f.Add("--store x.db -- --alpha")
	f.Add("-h a")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		o, err := parseCompareArgs(args)
		if err != nil || o.help || slices.Contains(args, "--") {
			return
		}
		for _, ref := range o.Refs {
			if ref == "--alpha" || ref == "--store" {
				t.Fatalf("%q: flag %s taken for a group", line, ref)
			}
		}
	})
}

// TestCompareRefuses checks the groups compare refuses (exit 2, one line
// naming what differs or what is accepted) and the difference it accepts
// when allowed, which its output then names.
func TestCompareRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wide := map[string]string{"threadcount": "1", "fieldcount": "10"}
	narrow := map[string]string{"threadcount": "1", "fieldcount": "1"}
	p := writeSynth(t, dir, map[string]resultstest.Spec{
		"w1": {Throughput: 1000, Config: wide}, "w2": {Throughput: 1010, Config: wide},
		"n1": {Throughput: 3000, Config: narrow}, "n2": {Throughput: 3030, Config: narrow},
		"load": {Throughput: 500, Config: wide, Phase: "load"},
	})
	w, n := p["w1"]+","+p["w2"], p["n1"]+","+p["n2"]
	store := filepath.Join(dir, "none.db")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"different fieldcount", []string{w, n}, "mongobench: compare: A (" + w + ") and B (" + n + ") ran different things (fieldcount 10 vs 1): compare like with like, or name what may differ with --allow-different fieldcount"},
		{"load against run", []string{p["load"], w}, "ran different things (phase load vs run)"},
		{"unknown baseline", []string{w, n, "--baseline", "Z"}, `mongobench: compare: --baseline "Z" names no group: expected one of the groups as given or its letter, A to B`},
		{"not a property", []string{w, n, "--allow-different", "mongodb.url"}, `"mongodb.url" is no property that shapes the work`},
		{"bad format", []string{w, n, "--format", "xlsx"}, `mongobench: compare: --format "xlsx" is invalid: expected text, csv or markdown`},
	}
	for _, tc := range tests {
		r := experiment(t, runCompare, append(tc.args, "--store", store)...)
		if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.name, r.code, r.stdout, r.stderr, tc.want)
		}
	}
	for _, format := range []string{"text", "csv", "markdown"} {
		r := experiment(t, runCompare, w, n, "--allow-different", "fieldcount", "--format", format, "--store", store)
		if r.code != 0 || !strings.Contains(r.stdout, "fieldcount 10 vs 1") || !strings.Contains(r.stdout, "200.0% better") {
			t.Errorf("%s, fieldcount allowed: exit %d, stderr %q, stdout:\n%s", format, r.code, r.stderr, r.stdout)
		}
	}
}

// TestCompareLimits: each side's line names what limited its runs, from
// their diagnoses, the most frequent first.
func TestCompareLimits(t *testing.T) {
	t.Parallel()
	run := func(tp float64, d *results.Diagnosis) analysis.Run {
		res := resultstest.Results(t, resultstest.Spec{Throughput: tp})
		if res.Extra == nil {
			res.Extra = &results.Extra{}
		}
		res.Extra.Diagnosis = d
		return analysis.NewRun(res, "synthetic", 0)
	}
	cpu := &results.Diagnosis{Verdict: "server CPU", Limits: []results.Limit{{Kind: "server CPU", Evidence: []string{"busy"}}}}
	disk := &results.Diagnosis{Verdict: "disk", Limits: []results.Limit{{Kind: "disk", Evidence: []string{"busy"}}}}
	none := &results.Diagnosis{Verdict: results.NoLimitFound}
	groups := [][]analysis.Run{{run(100, cpu), run(101, cpu)}, {run(90, disk), run(91, cpu), run(92, disk), run(93, none)}}
	st, err := newStudy([]string{"a", "b"}, groups, 0, 0.05, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	comparetext.Write(&out, textFormat, []string{"a", "b"}, st)
	if want := "limit: A server CPU; B disk (2 of 4), server CPU (1 of 4), none (1 of 4)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("the comparison lacks %q:\n%s", want, out.String())
	}
}
