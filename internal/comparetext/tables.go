package comparetext

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/mongobench/mongobench/internal/analysis"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// writeMarkdown prints the study as Markdown: a section per
// configuration with the table compare prints.
func writeMarkdown(w io.Writer, refs []string, st *analysis.Study) {
	base := st.Configs[st.Baseline]
	for i, c := range st.Configs {
		role := ""
		if i == st.Baseline {
			role = " (baseline)"
		}
		fmt.Fprintf(w, "- **%s**%s: %s: %s\n", c.Name, role, tt.MarkdownText(refs[i]), DescribeGroup(c.Runs))
	}
	fmt.Fprintf(w, "- latency: %s\n", st.Latency)
	for _, c := range st.Comparisons {
		if t := allowedText(st, c); t != "" {
			fmt.Fprintf(w, "- note: %s\n", t)
		}
	}
	for _, n := range st.Notes {
		fmt.Fprintf(w, "- note: %s\n", tt.MarkdownText(n))
	}
	for _, c := range st.Comparisons {
		name := st.Configs[c.Config].Name
		fmt.Fprintf(w, "\n## %s against %s\n", name, base.Name)
		for _, set := range c.Sets {
			fmt.Fprintf(w, "\n%s\n\n", setHead(set, base.Name, name))
			tt.WriteAs(w, tt.Markdown, tableHead(base.Name, name), setRows(set, base.Name, name), tableLeft)
		}
		fmt.Fprintf(w, "\n%s\n", VerdictLine(st, c))
	}
	if st.Tested > 1 {
		fmt.Fprintf(w, "\n%d figures were tested together: each verdict is corrected for all of them (Holm).\n", st.Tested)
	}
}

// csvHead heads the CSV table: a row per figure with its numbers in full.
var csvHead = []string{"group", "argument", "baseline", "kind", "point", "op", "figure", "unit",
	"baseline_mean", "baseline_ci95_lo", "baseline_ci95_hi", "baseline_runs",
	"mean", "ci95_lo", "ci95_hi", "runs", "change", "p", "p_holm", "significant", "verdict", "allowed_differences"}

// writeCSV prints the study as one CSV table, a row per figure with its
// numbers in full.
func writeCSV(w io.Writer, refs []string, st *analysis.Study) {
	base := st.Configs[st.Baseline]
	var rows [][]string
	for _, c := range st.Comparisons {
		name := st.Configs[c.Config].Name
		diffs := analysis.DifferencesText(c.Differences)
		for _, set := range c.Sets {
			for _, r := range set.Rows {
				am, alo, ahi := analysis.MeanAndCI(r.A)
				bm, blo, bhi := analysis.MeanAndCI(r.B)
				p, adj := math.NaN(), math.NaN()
				if r.Tested() {
					p, adj = r.Verdict.P, r.AdjustedP
				}
				rows = append(rows, []string{name, refs[c.Config], base.Name, set.Kind, set.Point, tt.Or(r.Op, "OVERALL"), r.Figure, r.Unit,
					tt.Number(am, len(r.A) > 0), tt.Number(alo, len(r.A) > 1), tt.Number(ahi, len(r.A) > 1), strconv.Itoa(len(r.A)),
					tt.Number(bm, len(r.B) > 0), tt.Number(blo, len(r.B) > 1), tt.Number(bhi, len(r.B) > 1), strconv.Itoa(len(r.B)),
					analysis.ChangeText(r), tt.Number(p, true), tt.Number(adj, true), strconv.FormatBool(r.Significant()),
					analysis.VerdictText(r, base.Name, name), diffs})
			}
		}
	}
	tt.WriteAs(w, tt.CSV, csvHead, rows, nil)
}
