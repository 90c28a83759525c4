package sweep

import (
	"strconv"

	"github.com/mongobench/mongobench/internal/workload"
)

// FindMaxStart is the first rate find-max tries without a -target.
const FindMaxStart = 1000

// FindMaxDim is a find-max sweep's one varied property: target, starting
// where the properties' target says, when that is a rate, else at
// FindMaxStart.
func FindMaxDim(props *workload.Properties) Dim {
	start := strconv.Itoa(FindMaxStart)
	if v, ok := props.Get("target"); ok {
		if f, err := workload.ParseFloat(v, 0, 1e9); err == nil && f > 0 {
			start = v
		}
	}
	return Dim{Name: "target", Values: []string{start}}
}

// FindMaxStartOf is the rate a search over d (FindMaxDim's) starts at.
func FindMaxStartOf(d Dim) float64 {
	if f, err := strconv.ParseFloat(d.Values[0], 64); err == nil {
		return f
	}
	return FindMaxStart
}
