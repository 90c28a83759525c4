package report

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// regime is what a run says of the regime it ran in: how big the data
// was, how much of it the WiredTiger cache held, and how hard the disk
// worked (the 001 report's table). A figure the run did not record is NaN.
type regime struct {
	dataBytes, indexBytes, storageBytes float64
	cacheFill, hitRatio, readIntoMB     float64
	iops, awaitMs, utilPct              float64
}

// regimeColumn is one column of the regime table.
type regimeColumn struct {
	head   string
	get    func(regime) float64
	format func(float64) string
}

var regimeColumns = []regimeColumn{
	{"data size", func(r regime) float64 { return r.dataBytes }, formatBytes},
	{"index size", func(r regime) float64 { return r.indexBytes }, formatBytes},
	{"on disk", func(r regime) float64 { return r.storageBytes }, formatBytes},
	{"cache fill", func(r regime) float64 { return r.cacheFill }, formatShare},
	{"cache hit ratio", func(r regime) float64 { return r.hitRatio }, formatShare},
	{"read into cache", func(r regime) float64 { return r.readIntoMB }, func(v float64) string { return formatNum(v) + " MB" }},
	{"disk IOPS", func(r regime) float64 { return r.iops }, formatNum},
	{"disk await", func(r regime) float64 { return r.awaitMs }, func(v float64) string { return formatLatency(v * 1000) }},
	{"disk utilisation", func(r regime) float64 { return r.utilPct }, func(v float64) string { return formatNum(v) + "%" }},
}

// formatShare formats a ratio of 0…1 as a percentage: 0.873 → "87%".
func formatShare(r float64) string {
	if r != 0 && math.Abs(r) < 0.095 {
		return formatPct(r)
	}
	return formatNum(r*100) + "%"
}

// regimeOf reads a run's regime from its results file: the collection's
// sizes at the end of the phase (the database's when the collection's were
// not read), the cache's fill at the end, its hit ratio over the run, the
// megabytes read into it, and the busiest disk's mean IOPS, await and
// utilisation.
func regimeOf(r *results.Results) regime {
	g := regime{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	if r == nil || r.Extra == nil {
		return g
	}
	if sz := r.Extra.Sizes; sz != nil && sz.End != nil {
		g.dataBytes, g.indexBytes, g.storageBytes = sizeFigures(sz.End)
	}
	var hits []float64
	prevT := 0.0
	readMB, readOK := 0.0, false
	for _, s := range r.Extra.ServerMetrics {
		dt := s.T - prevT
		prevT = s.T
		if s.Server == nil || s.Server.Cache == nil {
			continue
		}
		c := s.Server.Cache
		if v, ok := c.FillRatio.Get(); ok {
			g.cacheFill = v
		}
		if v, ok := c.HitRatio.Get(); ok {
			hits = append(hits, v)
		}
		if v, ok := c.ReadIntoMBPerSec.Get(); ok && dt > 0 {
			readMB += v * dt
			readOK = true
		}
	}
	if len(hits) > 0 {
		g.hitRatio = mean(hits)
	}
	if readOK {
		g.readIntoMB = readMB
	}
	type disk struct{ iops, await, util []float64 }
	disks := map[string]*disk{}
	var names []string
	for _, s := range r.Extra.HostMetrics {
		if s.Host == nil {
			continue
		}
		for _, d := range s.Host.Disks {
			dk := disks[d.Name]
			if dk == nil {
				dk = &disk{}
				disks[d.Name] = dk
				names = append(names, d.Name)
			}
			if v, ok := d.IOPS.Get(); ok {
				dk.iops = append(dk.iops, v)
			}
			if v, ok := d.AwaitMs.Get(); ok {
				dk.await = append(dk.await, v)
			}
			if v, ok := d.UtilPct.Get(); ok {
				dk.util = append(dk.util, v)
			}
		}
	}
	busiest := ""
	for _, n := range names {
		if len(disks[n].iops) == 0 {
			continue
		}
		if busiest == "" || mean(disks[n].iops) > mean(disks[busiest].iops) {
			busiest = n
		}
	}
	if dk := disks[busiest]; dk != nil {
		g.iops = mean(dk.iops)
		if len(dk.await) > 0 {
			g.awaitMs = mean(dk.await)
		}
		if len(dk.util) > 0 {
			g.utilPct = mean(dk.util)
		}
	}
	return g
}

// sizeFigures are the data, index and on-disk sizes of a size reading:
// the collection's, or the database's when the collection's are absent.
func sizeFigures(s *metrics.SizeStats) (data, index, storage float64) {
	pick := func(coll, db metrics.Value) float64 {
		if v, ok := coll.Get(); ok {
			return v
		}
		if v, ok := db.Get(); ok {
			return v
		}
		return math.NaN()
	}
	return pick(s.Coll.DataSize, s.DB.DataSize), pick(s.Coll.IndexSize, s.DB.IndexSize), pick(s.Coll.StorageSize, s.DB.StorageSize)
}

func mean(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	return sum / float64(len(vs))
}

// pointRegime is the mean regime of a point's trials.
func pointRegime(runs []*results.Results) regime {
	var rs []regime
	for _, r := range runs {
		rs = append(rs, regimeOf(r))
	}
	out := regime{}
	for _, col := range regimeColumnsAll {
		var vs []float64
		for _, r := range rs {
			if v := *col(&r); isFinite(v) {
				vs = append(vs, v)
			}
		}
		*col(&out) = mean(vs)
	}
	return out
}

// regimeColumnsAll are the fields of a regime, to average them all.
var regimeColumnsAll = []func(*regime) *float64{
	func(r *regime) *float64 { return &r.dataBytes },
	func(r *regime) *float64 { return &r.indexBytes },
	func(r *regime) *float64 { return &r.storageBytes },
	func(r *regime) *float64 { return &r.cacheFill },
	func(r *regime) *float64 { return &r.hitRatio },
	func(r *regime) *float64 { return &r.readIntoMB },
	func(r *regime) *float64 { return &r.iops },
	func(r *regime) *float64 { return &r.awaitMs },
	func(r *regime) *float64 { return &r.utilPct },
}

// regimeRow is one row of a regime table before formatting.
type regimeRow struct {
	lead []string
	r    regime
}

// regimeTable is the regime of every point of every line: a row each,
// with only the columns some point recorded. Nil when no run recorded any.
func regimeTable(w sweepWords, by string, ss []StudySeries) *tableView {
	var rows []regimeRow
	for _, s := range ss {
		for _, p := range s.Points {
			if len(p.Runs) == 0 {
				continue
			}
			rows = append(rows, regimeRow{lead: []string{s.Name, formatX(p.X)}, r: pointRegime(p.Runs)})
		}
	}
	heads := []string{by, w.axisLabel()}
	if len(ss) == 1 {
		for i := range rows {
			rows[i].lead = rows[i].lead[1:]
		}
		heads = heads[1:]
	}
	return formatRegime("Regime at each point", heads, rows)
}

// formatRegime lays out regime rows, keeping the columns with a value.
func formatRegime(title string, heads []string, rows []regimeRow) *tableView {
	var cols []regimeColumn
	for _, c := range regimeColumns {
		for _, r := range rows {
			if isFinite(c.get(r.r)) {
				cols = append(cols, c)
				break
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	t := &tableView{Title: title, Head: heads}
	for _, c := range cols {
		t.Head = append(t.Head, c.head)
	}
	for _, r := range rows {
		var row []cell
		for _, l := range r.lead {
			row = append(row, cell{V: l})
		}
		for _, c := range cols {
			v := c.get(r.r)
			if !isFinite(v) {
				row = append(row, cell{V: "–"})
				continue
			}
			row = append(row, cell{V: c.format(v)})
		}
		t.Rows = append(t.Rows, row)
	}
	t.Note = "Sizes are the collection's at the end of the phase (data uncompressed; on disk as stored); cache fill at the end; hit ratio, disk IOPS, await and utilisation (of the busiest disk) are means over the run's intervals; read into cache is the total over the run. Each is the mean over the point's trials; – where the server or host did not report it."
	return t
}

// sweepRegime is the regime table of a single sweep.
func sweepRegime(w sweepWords, pts []SweepPoint) *tableView {
	return regimeTable(w, "", []StudySeries{{Points: pts}})
}

// Configuration is one configuration of a comparison or study and its runs,
// for the table of sizes per configuration.
type Configuration struct {
	Name string
	Runs []*results.Results
}

// loadedSizes are the sizes of each configuration's data as loaded (see
// sizesTable), a row per configuration.
func loadedSizes(cs []Configuration) []regimeRow {
	var rows []regimeRow
	for _, c := range cs {
		var last *results.Results
		for _, r := range c.Runs {
			if r == nil || r.Extra == nil || r.Extra.Sizes == nil || r.Extra.Sizes.End == nil {
				continue
			}
			// The data as loaded is what the sizes describe: a later run
			// that deleted or inserted changes it (a delete test leaves
			// an empty collection).
			isLoad, lastLoad := r.Phase == results.PhaseLoad, last != nil && last.Phase == results.PhaseLoad
			if last == nil || isLoad && !lastLoad || isLoad == lastLoad && r.End.After(last.End) {
				last = r
			}
		}
		g := regime{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		if last != nil {
			g.dataBytes, g.indexBytes, g.storageBytes = sizeFigures(last.Extra.Sizes.End)
		}
		rows = append(rows, regimeRow{lead: []string{c.Name}, r: g})
	}
	return rows
}

// sizesTable gives each configuration's data size, index size and disk
// use at the end of its last load (or, without one, its last run) that
// read them: the 004 report's disk use per engine. Nil when no run read
// its sizes.
func sizesTable(cs []Configuration) *tableView {
	rows := loadedSizes(cs)
	t := formatRegime("Sizes per configuration", []string{"configuration"}, rows)
	if t != nil {
		t.Note = "The collection's sizes at the end of each configuration's last load (or last run, without a load): data uncompressed, on disk as stored (compressed, with free space), as db.collection.stats() shows them."
	}
	return t
}

// regimeFinding says how the regime changed from a sweep's first point to
// its last, beside throughput: "From recordcount 300 to 4,800, the data at
// the end of the runs went from 620 KiB to 9.57 MiB, the cache hit ratio
// from 99% to 80%, and throughput from 1,190 to 1,193 ops/s (means …)".
// The data is named only when its size changed by more than
// analysis.DataGrowthLimit. Empty when the points recorded no sizes, or
// nothing but throughput to tell.
func regimeFinding(w sweepWords, pts []SweepPoint) string {
	if len(pts) < 2 || len(pts[0].Runs) == 0 || len(pts[len(pts)-1].Runs) == 0 {
		return ""
	}
	first, last := pts[0], pts[len(pts)-1]
	a, b := pointRegime(first.Runs), pointRegime(last.Runs)
	if !isFinite(a.dataBytes) || !isFinite(b.dataBytes) {
		return ""
	}
	var parts []string
	// Sizes that hardly changed are no finding: "the data went from
	// 1 MiB to 1 MiB" said nothing.
	if analysis.DataSizeChanged(a.dataBytes, b.dataBytes) {
		parts = append(parts, fromTo("the data at the end of the runs", formatBytes(a.dataBytes), formatBytes(b.dataBytes), ""))
	}
	if isFinite(a.hitRatio) && isFinite(b.hitRatio) {
		parts = append(parts, fromTo("the cache hit ratio", formatShare(a.hitRatio), formatShare(b.hitRatio), ""))
	}
	if isFinite(a.readIntoMB) && isFinite(b.readIntoMB) {
		parts = append(parts, fromTo("the data read into the cache", formatNum(a.readIntoMB), formatNum(b.readIntoMB), " MB"))
	}
	if isFinite(a.iops) && isFinite(b.iops) {
		parts = append(parts, fromTo("the busiest disk", formatNum(a.iops), formatNum(b.iops), " IOPS"))
	}
	if len(parts) == 0 {
		return ""
	}
	rate := rateUnitOf(append(slices.Clone(first.Runs), last.Runs...))
	parts = append(parts, "and "+fromTo("throughput", formatNum(first.Throughput), formatNum(last.Throughput), " "+rate.short))
	return capitalize(w.span(first.X, last.X)) + ", " + strings.Join(parts, ", ") + " (means over the trials)."
}

// fromTo says how a figure changed as it reads: "the data went from 620
// KiB to 9.57 MiB", or "the data stayed at 1 MiB" when the two read the
// same (it said "went from 1 MiB to 1 MiB").
func fromTo(what, a, b, unit string) string {
	if a == b {
		return what + " stayed at " + a + unit
	}
	return what + " went from " + a + " to " + b + unit
}

// sizesFinding names the configurations' disk use as loaded, smallest
// first: "On disk: B 27 MiB, A 453 MiB (…)". Empty unless two
// configurations read their sizes.
func sizesFinding(cs []Configuration) string {
	type use struct {
		name string
		v    float64
	}
	var uses []use
	for _, r := range loadedSizes(cs) {
		if isFinite(r.r.storageBytes) {
			uses = append(uses, use{r.lead[0], r.r.storageBytes})
		}
	}
	if len(uses) < 2 {
		return ""
	}
	slices.SortStableFunc(uses, func(a, b use) int { return cmp.Compare(a.v, b.v) })
	parts := make([]string, len(uses))
	for i, u := range uses {
		parts[i] = u.name + " " + formatBytes(u.v)
	}
	return "On disk: " + strings.Join(parts, ", ") + " (the collection as loaded, or after the last run without a load)."
}
