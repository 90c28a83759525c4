package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// DataProperties shape the loaded data: varying one of them means each
// point of a sweep needs its own load, and its data size is meant to
// change along the sweep.
var DataProperties = []string{
	"recordcount", "insertstart", "insertcount", "table", "fieldcount", "fieldlength", "minfieldlength",
	"fieldlengthdistribution", "fieldlengthhistogram", "fieldnameprefix", "insertorder", "zeropadding",
	"dataintegrity", "mongodb.url", "mongodb.shardkey", "mongodb.shardkey.chunks",
}

// ShapesData says whether varying name changes the loaded data: one of
// the DataProperties, or a parameter of the native workload whose runs'
// configuration is config (they record it as native.NAME), which shapes
// its documents as recordcount shapes YCSB's.
func ShapesData(name string, config map[string]string) bool {
	if slices.Contains(DataProperties, name) {
		return true
	}
	_, native := config[nativeKey+"."+name]
	return native
}

// DataGrowthLimit is how much the data may grow (or shrink) between two
// points before they count as run on different data: a tenth more
// documents changes what the cache holds and how deep the indexes are,
// while the few inserts of a short run stay well below it.
const DataGrowthLimit = 0.10

// DataSizeChanged reports whether two data sizes differ by more than
// DataGrowthLimit of the smaller. Sizes not above 0 are unknown, and
// unknown sizes never differ.
func DataSizeChanged(a, b float64) bool {
	if !(a > 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	return math.Max(a, b) > math.Min(a, b)*(1+DataGrowthLimit)
}

// SizePoint is the data size one sweep point ran on.
type SizePoint struct {
	// Label names the point ("threadcount=4"); X orders the points.
	Label string
	X     float64
	Bytes float64
}

// PointDataSize is the data size a point's trials ran on: the mean over
// them of the collection's data size at the start of each (at its end
// when the start was not read). ok is false when no trial read it.
func PointDataSize(runs []*results.Results) (float64, bool) {
	var sizes []float64
	for _, r := range runs {
		if r == nil || r.Extra == nil || r.Extra.Sizes == nil {
			continue
		}
		sz := r.Extra.Sizes
		v := dataSize(sz.Start)
		if !(v > 0) {
			v = dataSize(sz.End)
		}
		if v > 0 {
			sizes = append(sizes, v)
		}
	}
	if len(sizes) == 0 {
		return 0, false
	}
	return meanOf(sizes), true
}

// dataSize is a reading's data size: the collection's, else the
// database's; 0 when neither was read.
func dataSize(s *metrics.SizeStats) float64 {
	if s == nil {
		return 0
	}
	if v, ok := s.Coll.DataSize.Get(); ok {
		return v
	}
	if v, ok := s.DB.DataSize.Get(); ok {
		return v
	}
	return 0
}

// DataSizeConfounder says when the data size changed along a sweep that
// did not mean to change it (it varies no property in DataProperties):
// the points then differ in two things, what was varied and the data it
// ran on, and the sweep cannot tell their effects apart. It compares the
// first and last points in X order, and speaks when the smallest and
// largest sizes along the sweep differ by more than DataGrowthLimit. ""
// when nothing is to be said.
func DataSizeConfounder(varied []string, config map[string]string, pts []SizePoint) string {
	for _, v := range varied {
		for _, n := range strings.Split(v, ",") {
			if ShapesData(n, config) {
				return ""
			}
		}
	}
	var known []SizePoint
	for _, p := range pts {
		if p.Bytes > 0 {
			known = append(known, p)
		}
	}
	if len(known) < 2 {
		return ""
	}
	slices.SortStableFunc(known, func(a, b SizePoint) int { return cmp.Compare(a.X, b.X) })
	lo, hi := known[0].Bytes, known[0].Bytes
	for _, p := range known {
		lo, hi = math.Min(lo, p.Bytes), math.Max(hi, p.Bytes)
	}
	if !DataSizeChanged(lo, hi) {
		return ""
	}
	first, last := known[0], known[len(known)-1]
	what := "nothing that shapes the data was varied"
	if len(varied) > 0 {
		what = "only " + strings.Join(varied, " and ") + " was varied"
	}
	from, to := first, last
	if !DataSizeChanged(first.Bytes, last.Bytes) {
		// The size came back: name its extremes instead.
		from, to = known[slices.IndexFunc(known, func(p SizePoint) bool { return p.Bytes == lo })], known[slices.IndexFunc(known, func(p SizePoint) bool { return p.Bytes == hi })]
	}
	return fmt.Sprintf("the data size at the start changed from %s at %s to %s at %s along the sweep (%s) while %s: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data",
		BytesText(from.Bytes), orText(from.Label, "the first point"), BytesText(to.Bytes), orText(to.Label, "the last point"), factorText(to.Bytes/from.Bytes), what)
}

// factorText is a ratio as a factor: "1.9×", "0.52×".
func factorText(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f×", r)
	}
	if r >= 1 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", r), ".0") + "×"
	}
	return fmt.Sprintf("%.2f×", r)
}

// Confounder is what a line of a group's sweep mixes in: Where names the
// group and the line ("" for a single group's single line), What says
// what changed.
type Confounder struct{ Where, What string }

func (c Confounder) String() string {
	if c.Where == "" {
		return c.What
	}
	return c.Where + ": " + c.What
}

// Confounders say, for each line of each group's sweeps, when the data
// size changed along it though nothing varied shapes the data. Lines are
// the values of the varied properties other than the fastest, as a page
// draws them; groups are named by names when there are several.
func Confounders(names []string, groups [][]Run) []Confounder {
	var out []Confounder
	for gi, g := range groups {
		var varied []string
		var config map[string]string
		for _, r := range g {
			if r.Mark != nil && !r.Mark.Warmup && !r.Res.Partial {
				varied, config = r.Mark.Varied, r.Res.Config
				break
			}
		}
		x := XDim(varied)
		if x == "" {
			continue
		}
		lines, _ := SweepLines(g, x, func(r Run) string { return LineName(r.Mark, x) })
		for _, l := range lines {
			var pts []SizePoint
			for _, xv := range l.Xs() {
				if b, ok := PointDataSize(l.ByX[xv]); ok {
					pts = append(pts, SizePoint{Label: x + "=" + strconv.FormatFloat(xv, 'f', -1, 64), X: xv, Bytes: b})
				}
			}
			what := DataSizeConfounder(varied, config, pts)
			if what == "" {
				continue
			}
			var where []string
			if len(groups) > 1 {
				where = append(where, names[gi])
			}
			if l.Name != "" {
				where = append(where, l.Name)
			}
			out = append(out, Confounder{strings.Join(where, " · "), what})
		}
	}
	return out
}
