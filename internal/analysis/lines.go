package analysis

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
)

// Line is one line through a group's sweeps as a page draws it: the
// trials that count at one set of values of the varied properties other
// than the line's x, by their value of x.
type Line struct {
	Name string
	ByX  map[float64][]*results.Results
}

// Xs are the line's values of x, in increasing order.
func (l *Line) Xs() []float64 { return slices.Sorted(maps.Keys(l.ByX)) }

// SweepLines splits the trials of runs that count (marked by a sweep,
// neither warm-ups nor interrupted) into lines along x, each named by
// name, in the order the names first come. A trial whose value of x is no
// finite number has no place on a line: unplaced counts them, so that a
// caller that draws against x can refuse the lot.
func SweepLines(runs []Run, x string, name func(Run) string) (lines []*Line, unplaced int) {
	for _, r := range runs {
		if r.Mark == nil || r.Mark.Warmup || r.Res.Partial {
			continue
		}
		xv, err := strconv.ParseFloat(r.Mark.Point[x], 64)
		if err != nil || math.IsNaN(xv) || math.IsInf(xv, 0) {
			unplaced++
			continue
		}
		n := name(r)
		i := slices.IndexFunc(lines, func(l *Line) bool { return l.Name == n })
		if i < 0 {
			lines = append(lines, &Line{Name: n, ByX: map[float64][]*results.Results{}})
			i = len(lines) - 1
		}
		lines[i].ByX[xv] = append(lines[i].ByX[xv], r.Res)
	}
	return lines, unplaced
}

// LineName names a line by the values of the dimensions other than x, in
// command-line order and by the last part of each property's name
// ("maxconnections=4" for mongodb.maxconnections), so that a legend and a
// pivot table's headers stay short enough to read.
func LineName(m *results.SweepMark, x string) string {
	var parts []string
	for _, n := range m.Varied {
		if v, ok := m.Point[n]; ok && n != x {
			parts = append(parts, n[strings.LastIndexByte(n, '.')+1:]+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// ShortName is a property as a legend or a table's header names it: the
// last part of its name, a proportion by its operation ("read" for
// readproportion), short enough for a column of a pivot table.
func ShortName(n string) string {
	n = n[strings.LastIndexByte(n, '.')+1:]
	if op := strings.TrimSuffix(n, "proportion"); op != "" {
		return op
	}
	return n
}

// KindNames names the kinds of a group's sweep runs when there are
// several (an engine's 95:5 and 90:10 thread sweeps under one label), by
// the properties that set them apart ("insert=0.05 read=0.95"), so that
// each is a line of its own rather than one line through both. Empty when
// the group's sweeps did one kind of work.
func KindNames(g []Run, varied map[string]bool) map[*results.Results]string {
	var swept []Run
	for _, r := range g {
		if r.Mark != nil && r.Counted() && !r.Res.Partial {
			swept = append(swept, r)
		}
	}
	kinds := Separate(swept, varied)
	names := map[*results.Results]string{}
	if len(kinds) < 2 {
		return names
	}
	props := apart(kinds, varied)
	for _, k := range kinds {
		var parts []string
		for _, n := range props {
			v := k.Runs[0].Res.Config[n]
			if n == PhaseProperty {
				v = k.Runs[0].Res.Phase
			}
			parts = append(parts, ShortName(n)+"="+v)
		}
		for _, r := range k.Runs {
			names[r.Res] = strings.Join(parts, " ")
		}
	}
	return names
}
