package cli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/stats"
)

// meanText formats the mean of xs with the half-width of its 95%
// confidence interval relative to the mean: "731 ±12%".
func meanText(xs []float64, unit string) string { return estimateText(analysis.EstimateOf(xs), unit) }

// estimateText formats an estimate as meanText does.
func estimateText(e analysis.Estimate, unit string) string {
	if len(e.Values) == 0 {
		return "–"
	}
	iv := e.CI
	s := formatFigure(iv.Mean, unit)
	if iv.OK && iv.HalfWidth() > 0 {
		s += " " + relCI(iv)
	}
	return s
}

// relCI is the half-width of a confidence interval relative to its mean:
// "±12%". Few trials give wide intervals (Student's t for 2 trials is
// 12.7); printing them keeps that honest.
func relCI(iv stats.Interval) string {
	rel := iv.RelHalfWidth()
	switch {
	case math.IsInf(rel, 0) || rel >= 10:
		return "±>999%"
	case rel < 0.001:
		return "±<0.1%"
	case rel < 0.1:
		return fmt.Sprintf("±%.1f%%", 100*rel)
	}
	return fmt.Sprintf("±%.0f%%", 100*rel)
}

// formatFigure prints a figure with as many digits as it deserves:
// latencies and large rates as whole numbers, small rates with decimals.
func formatFigure(v float64, unit string) string {
	switch {
	case unit == "" && v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// idList prints run ids, runs of consecutive ids as ranges: "runs 1–4, 9".
func idList(ids []int64) string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", ids[i], ids[j]))
		} else {
			parts = append(parts, strconv.FormatInt(ids[i], 10))
		}
		i = j + 1
	}
	word := "run "
	if len(ids) > 1 {
		word = "runs "
	}
	return word + strings.Join(parts, ", ")
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// writeTable prints rows under head in aligned columns: numbers to the
// right, the columns in left to the left. The last column is not padded.
func writeTable(w io.Writer, head []string, rows [][]string, left map[int]bool) {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(printable.String(c))))
		}
	}
	for _, r := range append([][]string{head}, rows...) {
		fmt.Fprintln(w, formatRow(r, widths, left))
	}
}

// formatRow pads the cells of one table row to widths. A cell's control
// characters are escaped: a label holding a newline would break the table.
func formatRow(cells []string, widths []int, left map[int]bool) string {
	var b strings.Builder
	for i, c := range cells {
		c = printable.String(c)
		if i > 0 {
			b.WriteString("  ")
		}
		pad := max(0, widths[i]-len([]rune(c)))
		switch {
		case i == len(cells)-1 && left[i]:
			b.WriteString(c)
		case left[i]:
			b.WriteString(c + strings.Repeat(" ", pad))
		default:
			b.WriteString(strings.Repeat(" ", pad) + c)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
