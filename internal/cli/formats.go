package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
)

// tableFormat is how a command prints its tables: aligned text for the
// terminal, CSV for spreadsheets, Markdown for slides and notes.
type tableFormat int

const (
	textFormat tableFormat = iota
	csvFormat
	markdownFormat
)

func parseTableFormat(v string) (tableFormat, error) {
	switch v {
	case "", "text":
		return textFormat, nil
	case "csv":
		return csvFormat, nil
	case "markdown", "md":
		return markdownFormat, nil
	}
	return 0, fmt.Errorf("--format %q is invalid: expected text, csv or markdown", v)
}

// writeTableAs prints a table in format f; text is writeTable's.
func writeTableAs(w io.Writer, f tableFormat, head []string, rows [][]string, left map[int]bool) {
	switch f {
	case csvFormat:
		cw := csv.NewWriter(w)
		_ = cw.Write(head)
		_ = cw.WriteAll(rows) // WriteAll flushes
	case markdownFormat:
		fmt.Fprintln(w, markdownRow(head))
		seps := make([]string, len(head))
		for i := range head {
			seps[i] = "---:"
			if left[i] {
				seps[i] = "---"
			}
		}
		fmt.Fprintln(w, "|"+strings.Join(seps, "|")+"|")
		for _, r := range rows {
			fmt.Fprintln(w, markdownRow(r))
		}
	default:
		writeTable(w, head, rows, left)
	}
}

// markdownRow is one row of a Markdown table; a cell's pipes are escaped
// and its control characters shown, so that no cell breaks the table.
func markdownRow(cells []string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + strings.ReplaceAll(printable.String(c), "|", `\|`) + " |")
	}
	return b.String()
}

// number formats a figure for a spreadsheet: every digit, no unit; empty
// when there is none.
func number(v float64, ok bool) string {
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// writeStudyTable prints a study as one CSV table, a row per figure with
// its numbers in full, or as Markdown: a section per configuration with
// the table compare prints.
func writeStudyTable(w io.Writer, f tableFormat, refs []string, st *analysis.Study) {
	base := st.Configs[st.Baseline]
	if f == markdownFormat {
		for i, c := range st.Configs {
			role := ""
			if i == st.Baseline {
				role = " (baseline)"
			}
			fmt.Fprintf(w, "- **%s**%s: %s: %s\n", c.Name, role, markdownText(refs[i]), describeGroup(c.Runs))
		}
		fmt.Fprintf(w, "- latency: %s\n", st.Latency)
		for _, c := range st.Comparisons {
			if t := allowedText(st, c); t != "" {
				fmt.Fprintf(w, "- note: %s\n", t)
			}
		}
		for _, n := range st.Notes {
			fmt.Fprintf(w, "- note: %s\n", markdownText(n))
		}
		for _, c := range st.Comparisons {
			name := st.Configs[c.Config].Name
			fmt.Fprintf(w, "\n## %s against %s\n", name, base.Name)
			for _, set := range c.Sets {
				fmt.Fprintf(w, "\n%s\n\n", setHead(set, base.Name, name))
				var rows [][]string
				for _, r := range set.Rows {
					rows = append(rows, []string{orText(r.Op, "OVERALL"), r.Name(), meanText(r.A, r.Unit), meanText(r.B, r.Unit), analysis.ChangeText(r), analysis.VerdictText(r, base.Name, name)})
				}
				writeTableAs(w, markdownFormat, []string{"op", "figure", base.Name, name, "change", "verdict"}, rows, map[int]bool{0: true, 1: true, 5: true})
			}
			fmt.Fprintf(w, "\n%s\n", verdictLine(st, c))
		}
		if st.Tested > 1 {
			fmt.Fprintf(w, "\n%d figures were tested together: each verdict is corrected for all of them (Holm).\n", st.Tested)
		}
		return
	}
	head := []string{"group", "argument", "baseline", "kind", "point", "op", "figure", "unit",
		"baseline_mean", "baseline_ci95_lo", "baseline_ci95_hi", "baseline_runs",
		"mean", "ci95_lo", "ci95_hi", "runs", "change", "p", "p_holm", "significant", "verdict", "allowed_differences"}
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
				rows = append(rows, []string{name, refs[c.Config], base.Name, set.Kind, set.Point, orText(r.Op, "OVERALL"), r.Figure, r.Unit,
					number(am, len(r.A) > 0), number(alo, len(r.A) > 1), number(ahi, len(r.A) > 1), strconv.Itoa(len(r.A)),
					number(bm, len(r.B) > 0), number(blo, len(r.B) > 1), number(bhi, len(r.B) > 1), strconv.Itoa(len(r.B)),
					analysis.ChangeText(r), number(p, true), number(adj, true), strconv.FormatBool(r.Significant()),
					analysis.VerdictText(r, base.Name, name), diffs})
			}
		}
	}
	writeTableAs(w, csvFormat, head, rows, nil)
}

// markdownText escapes what Markdown would take for markup in a line of
// text given by the user.
func markdownText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "|", `\|`, "[", `\[`, "]", `\]`, "<", `\<`)
	return r.Replace(printable.String(s))
}
