package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/workload"
)

// maxKneeFraction bounds the knee's thresholds: a million-fold change is
// past anything a knee could mean, yet the way to ask for no knee at all.
const maxKneeFraction = 1_000_000

// ParseFraction reads a knee threshold given to flagName (knee-throughput,
// knee-latency): a fraction above 0; example shows one.
func ParseFraction(flagName, value, example string) (float64, error) {
	f, err := workload.ParseFloat(value, 0, maxKneeFraction)
	if err != nil || f == 0 {
		return 0, fmt.Errorf("--%s %q is invalid: expected a fraction > 0 and at most %d, such as %s", flagName, value, maxKneeFraction, example)
	}
	return f, nil
}

// ParseAlpha reads --alpha, a significance level strictly between 0 and 1.
func ParseAlpha(v string) (float64, error) {
	f, err := workload.ParseFloat(v, 0, 1)
	if err != nil || f == 0 || f == 1 {
		return 0, fmt.Errorf("--alpha %q is invalid: expected a significance level between 0 and 1, such as 0.05", v)
	}
	return f, nil
}

// ParseBaseline finds the group --baseline names among refs: an argument
// as given, or its letter; "" is the first group.
func ParseBaseline(v string, refs []string) (int, error) {
	if v == "" {
		return 0, nil
	}
	if i := slices.Index(refs, v); i >= 0 {
		return i, nil
	}
	if len(v) == 1 {
		if i := strings.Index(GroupLetters, strings.ToUpper(v)); i >= 0 && i < len(refs) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("--baseline %q names no group: expected one of the groups as given or its letter, A to %s", v, GroupLetter(len(refs)-1))
}

// ParseAllowed checks the names --allow-different lists: properties that
// shape the work, or phase; each once.
func ParseAllowed(v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	var names []string
	for _, n := range strings.Split(v, ",") {
		n = strings.TrimSpace(n)
		if n != PhaseProperty && !ShapesWork(n) {
			return nil, fmt.Errorf("--allow-different %q: %q is no property that shapes the work; expected phase or properties such as fieldcount, recordcount, readproportion", v, n)
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names, nil
}
