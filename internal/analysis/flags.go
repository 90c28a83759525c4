package analysis

import (
	"fmt"
	"slices"
	"strings"
)

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
