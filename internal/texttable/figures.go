package texttable

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/stats"
)

// Mean formats the mean of xs with the half-width of its 95% confidence
// interval relative to the mean: "731 ±12%".
func Mean(xs []float64, unit string) string { return Estimate(analysis.EstimateOf(xs), unit) }

// Estimate formats an estimate as Mean does; "–" when it has no values.
func Estimate(e analysis.Estimate, unit string) string {
	if len(e.Values) == 0 {
		return "–"
	}
	iv := e.CI
	s := Figure(iv.Mean, unit)
	if iv.OK && iv.HalfWidth() > 0 {
		s += " " + RelCI(iv)
	}
	return s
}

// RelCI is the half-width of a confidence interval relative to its mean:
// "±12%". Few trials give wide intervals (Student's t for 2 trials is
// 12.7); printing them keeps that honest.
func RelCI(iv stats.Interval) string {
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

// Figure prints a figure with as many digits as it deserves: latencies
// and large rates as whole numbers, small rates with decimals.
func Figure(v float64, unit string) string {
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

// Number formats a figure for a spreadsheet: every digit, no unit; empty
// when there is none.
func Number(v float64, ok bool) string {
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Percent is a relative change as a signed percentage, "–" when there is
// none (NaN).
func Percent(rel float64) string {
	if rel != rel {
		return "–"
	}
	return fmt.Sprintf("%+.1f%%", 100*rel)
}

// IDList prints run ids, runs of consecutive ids as ranges: "runs 1–4, 9".
func IDList(ids []int64) string {
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

// SortedSet is the keys of m in order.
func SortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Plural counts n of word: "1 run", "3 runs".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Or is s, or def when s is empty.
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
