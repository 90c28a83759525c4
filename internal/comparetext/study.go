// Package comparetext prints a study (analysis.Study) as compare shows
// it: the groups, what they ran on, a table per set of comparable runs
// and a verdict per configuration; or the same as CSV or Markdown.
package comparetext

import (
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// Write prints the study in format f; refs are the groups' arguments as
// they are to be shown.
func Write(w io.Writer, f tt.Format, refs []string, st *analysis.Study) {
	switch f {
	case tt.CSV:
		writeCSV(w, refs, st)
		return
	case tt.Markdown:
		writeMarkdown(w, refs, st)
		return
	}
	base := st.Configs[st.Baseline].Name
	for i, c := range st.Configs {
		role := ""
		if i == st.Baseline && len(st.Configs) > 2 {
			role = " (baseline)"
		}
		fmt.Fprintf(w, "%s: %s: %s%s\n", c.Name, refs[i], DescribeGroup(c.Runs), role)
	}
	writeRanOn(w, st)
	fmt.Fprintf(w, "latency: %s\n", st.Latency)
	for _, c := range st.Comparisons {
		if t := allowedText(st, c); t != "" {
			fmt.Fprintf(w, "note: %s\n", t)
		}
	}
	for _, n := range st.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, c := range st.Comparisons {
		name := st.Configs[c.Config].Name
		if len(st.Configs) > 2 {
			fmt.Fprintf(w, "\n== %s against %s ==\n", name, base)
		}
		for _, set := range c.Sets {
			fmt.Fprintln(w)
			head := setHead(set, base, name)
			if len(set.A) < 2 && len(set.B) < 2 {
				head += ": one run per side, so no verdict is possible (repeat the runs, e.g. sweep --repeat 3)"
			}
			fmt.Fprintln(w, head)
			fmt.Fprintf(w, "limit: %s %s; %s %s\n", base, limitTally(set.A), name, limitTally(set.B))
			tt.Write(w, tableHead(base, name), setRows(set, base, name), tableLeft)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, VerdictLine(st, c))
	}
	if st.Tested > 1 {
		fmt.Fprintf(w, "note: %d figures were tested together: each verdict is corrected for all of them (Holm), so that the chance of any false alarm stays below alpha %g\n", st.Tested, st.Alpha)
	}
}

// tableLeft are the columns of a set's table read as text.
var tableLeft = map[int]bool{0: true, 1: true, 5: true}

func tableHead(base, name string) []string {
	return []string{"op", "figure", base, name, "change", "verdict"}
}

// setRows are the rows of one set's table: a figure each, its means on
// both sides with their intervals, the change and the verdict.
func setRows(set analysis.Set, base, name string) [][]string {
	rows := make([][]string, 0, len(set.Rows))
	for _, r := range set.Rows {
		rows = append(rows, []string{tt.Or(r.Op, "OVERALL"), r.Name(), tt.Mean(r.A, r.Unit), tt.Mean(r.B, r.Unit), analysis.ChangeText(r), analysis.VerdictText(r, base, name)})
	}
	return rows
}

// allowedText says what differs, allowed, between a configuration and the
// baseline: "B differs from A in fieldcount 10 vs 1 (--allow-different)".
func allowedText(st *analysis.Study, c analysis.Comparison) string {
	if len(c.Differences) == 0 {
		return ""
	}
	return fmt.Sprintf("%s differs from %s in %s (--allow-different)", st.Configs[c.Config].Name, st.Configs[st.Baseline].Name, analysis.DifferencesText(c.Differences))
}

// setHead heads the table of one set: "load phase, threadcount=4: 3 runs
// of A against 3 runs of B".
func setHead(set analysis.Set, a, b string) string {
	head := fmt.Sprintf("%s of %s against %s of %s", tt.Plural(len(set.A), "run"), a, tt.Plural(len(set.B), "run"), b)
	if where := strings.Trim(set.Kind+", "+set.Point, ", "); where != "" {
		head = where + ": " + head
	}
	return head
}

// VerdictLine sums up one configuration against the baseline.
func VerdictLine(st *analysis.Study, c analysis.Comparison) string {
	name, base := st.Configs[c.Config].Name, st.Configs[st.Baseline].Name
	if c.Better+c.Worse+c.Same == 0 {
		return "verdict: no verdict possible: each figure needs at least 2 runs on each side"
	}
	var s string
	if c.Better+c.Worse == 0 {
		s = fmt.Sprintf("verdict: no significant difference between %s and %s: %s tested (alpha %g)", name, base, tt.Plural(c.Same, "figure"), st.Alpha)
	} else {
		s = fmt.Sprintf("verdict: %s against %s is significantly better in %s, worse in %s, not significantly different in %s (alpha %g)",
			name, base, tt.Plural(c.Better, "figure"), tt.Plural(c.Worse, "figure"), tt.Plural(c.Same, "figure"), st.Alpha)
	}
	if c.Untested > 0 {
		s += fmt.Sprintf("; %s without a verdict", tt.Plural(c.Untested, "figure"))
	}
	if c.Better+c.Worse == 0 {
		if t := analysis.SensitivityText(c.Sensitivity); t != "" {
			s += "; " + t
		}
	}
	return s
}

// DescribeGroup says what a group holds: "4 runs (store runs 1–4), label
// baseline, sweep 20260101-120000, 1 partial".
func DescribeGroup(runs []analysis.Run) string {
	parts := []string{tt.Plural(len(runs), "run")}
	var ids []int64
	files := 0
	labels, sweeps := map[string]bool{}, map[string]bool{}
	partial := 0
	for _, r := range runs {
		if r.ID > 0 {
			ids = append(ids, r.ID)
		} else {
			files++
		}
		if r.Res.Label != "" {
			labels[r.Res.Label] = true
		}
		if r.Mark != nil {
			sweeps[r.Mark.ID] = true
		}
		if r.Res.Partial {
			partial++
		}
	}
	var from []string
	if len(ids) > 0 {
		from = append(from, "store "+tt.IDList(ids))
	}
	if files > 0 {
		from = append(from, tt.Plural(files, "file"))
	}
	parts[0] += " (" + strings.Join(from, ", ") + ")"
	if len(labels) > 0 {
		parts = append(parts, "label "+printable.String(strings.Join(tt.SortedSet(labels), ", ")))
	}
	if len(sweeps) > 0 {
		parts = append(parts, "sweep "+printable.String(strings.Join(tt.SortedSet(sweeps), ", ")))
	}
	if partial > 0 {
		parts = append(parts, fmt.Sprintf("%d partial (interrupted)", partial))
	}
	return strings.Join(parts, ", ")
}

// limitTally is what limited the runs of one side (their diagnoses), the
// most frequent first.
func limitTally(runs []analysis.Run) string {
	ds := make([]*results.Diagnosis, len(runs))
	for i, r := range runs {
		ds[i] = diagnosis.Of(r.Res)
	}
	return diagnosis.Tally(ds)
}

// writeRanOn prints what each configuration of the study ran on, which
// properties differ between them, and the warnings: configurations that
// differ in several things at once, runs of one configuration on
// different servers, a data size that changed along a sweep. Nothing
// when the runs recorded none of it.
func writeRanOn(w io.Writer, st *analysis.Study) {
	names := make([]string, len(st.Configs))
	groups := make([][]analysis.Run, len(st.Configs))
	for i, c := range st.Configs {
		names[i], groups[i] = c.Name, c.Runs
	}
	ro := analysis.GroupsRanOn(names, groups, st)
	warnings := ro.Warnings
	for _, c := range analysis.Confounders(names, groups) {
		warnings = append(warnings, c.String())
	}
	if len(ro.Rows) > 0 {
		fmt.Fprintln(w, "ran on:")
		rows := make([][]string, 0, len(ro.Rows))
		for _, r := range ro.Rows {
			row := []string{r.Property}
			for _, v := range r.Values {
				row = append(row, tt.Or(v.Text(), "not recorded"))
			}
			rows = append(rows, row)
		}
		left := map[int]bool{}
		for i := range len(names) + 1 {
			left[i] = true
		}
		tt.Write(w, append([]string{""}, names...), rows, left)
		var differ []string
		for _, r := range ro.Differing() {
			differ = append(differ, r.Property)
		}
		switch {
		case len(names) < 2:
		case len(differ) == 0:
			fmt.Fprintln(w, "differ: in nothing recorded (server, engine, topology, hosts)")
		default:
			fmt.Fprintf(w, "differ: %s\n", strings.Join(differ, ", "))
		}
	}
	for _, s := range warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}
