package stats

import (
	"fmt"

	"github.com/mongobench/mongobench/internal/workload"
)

// ParseAlpha reads --alpha, a significance level strictly between 0 and 1.
func ParseAlpha(v string) (float64, error) {
	f, err := workload.ParseFloat(v, 0, 1)
	if err != nil || f == 0 || f == 1 {
		return 0, fmt.Errorf("--alpha %q is invalid: expected a significance level between 0 and 1, such as 0.05", v)
	}
	return f, nil
}
