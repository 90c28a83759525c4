package report

import (
	"html/template"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
)

// A task is what a single run outside any sweep did: a phase and the
// operations it ran ("load: INSERT", "run: READ"). Timed per configuration
// it is the 004 report's "single-thread insert, query and delete of 1M
// documents, per engine".
type task struct {
	name string
	// runtime (s), throughput (ops/s) and the mean latency (µs) over the
	// task's operations, one value per run.
	runtime, throughput, avg []float64
}

// taskName names what a run did: its phase and its operations in the
// summary's order.
func taskName(r *results.Results) string {
	var ops []string
	for _, m := range r.Measurements {
		if m.Failed || m.Service == nil || m.Service.Count == 0 || m.Op == "CLEANUP" {
			continue
		}
		if !slices.Contains(ops, m.Op) {
			ops = append(ops, m.Op)
		}
	}
	if len(ops) == 0 {
		return ""
	}
	sortOps(ops)
	return orDefault(r.Phase, "run") + ": " + strings.Join(ops, ", ")
}

// runAverage is the mean service latency over a run's operations.
func runAverage(r *results.Results) float64 {
	sum, n := 0.0, int64(0)
	for _, m := range r.Measurements {
		if m.Failed || m.Service == nil || m.Op == "CLEANUP" {
			continue
		}
		sum += m.Service.MeanUs * float64(m.Service.Count)
		n += m.Service.Count
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// tasksView is the tasks timed per configuration: a bar chart of the time
// each took and a table.
type tasksView struct {
	Figure figureView
	Table  tableView
}

// buildTasks times the tasks of each configuration's single runs (the
// runs outside sweeps, complete): nil unless two configurations ran one.
func buildTasks(cs []Configuration, alpha float64) *tasksView {
	var names []string
	perConf := make([]map[string]*task, len(cs))
	withTasks := 0
	for i, c := range cs {
		perConf[i] = map[string]*task{}
		for _, r := range c.Runs {
			if r == nil || r.Partial || r.Extra != nil && r.Extra.Sweep != nil {
				continue
			}
			name := taskName(r)
			if name == "" {
				continue
			}
			t := perConf[i][name]
			if t == nil {
				t = &task{name: name}
				perConf[i][name] = t
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
			t.runtime = append(t.runtime, float64(r.RuntimeMs)/1000)
			t.throughput = append(t.throughput, r.ThroughputOpsSec)
			if a := runAverage(r); isFinite(a) {
				t.avg = append(t.avg, a)
			}
		}
		if len(perConf[i]) > 0 {
			withTasks++
		}
	}
	if withTasks < 2 {
		return nil
	}
	// Loads first, as they ran.
	sort.SliceStable(names, func(i, j int) bool {
		return strings.HasPrefix(names[i], "load") && !strings.HasPrefix(names[j], "load")
	})
	var confNames, colors []string
	var confIdx []int
	for i, c := range cs {
		if len(perConf[i]) > 0 {
			confNames = append(confNames, c.Name)
			colors = append(colors, palette[len(colors)%len(palette)])
			confIdx = append(confIdx, i)
		}
	}
	// One unit for the table's latency column.
	var avgs []float64
	for i := range cs {
		for _, t := range perConf[i] {
			avgs = append(avgs, t.avg...)
		}
	}
	lu := latencyUnitFor(avgs...)
	bc := barChart{title: "Time taken per task", yLabel: "seconds", seriesNames: confNames, colors: colors, format: formatSecondsTick}
	tv := &tasksView{Table: tableView{Title: "Single runs per configuration", Head: []string{"task", "configuration", "runs", "time taken", "throughput", "average latency"}}}
	for _, name := range names {
		g := barGroup{label: name}
		for _, i := range confIdx {
			t := perConf[i][name]
			if t == nil {
				g.bars = append(g.bars, bar{value: math.NaN()})
				continue
			}
			rt, lo, hi := meanRange(t.runtime)
			g.bars = append(g.bars, bar{value: rt, lo: lo, hi: hi, hasErr: hi > lo, tip: cs[i].Name + ", " + name + ": " + formatSeconds(rt)})
			tp, _, _ := meanRange(t.throughput)
			avg := "–"
			if a, _, _ := meanRange(t.avg); isFinite(a) {
				avg = lu.format(a)
			}
			tv.Table.Rows = append(tv.Table.Rows, []cell{{V: name}, {V: cs[i].Name}, {V: formatInt(int64(len(t.runtime)))},
				{V: formatSeconds(rt), Sub: spanText(lo, hi, formatSeconds)}, {V: formatRate(tp)}, {V: avg}})
		}
		bc.groups = append(bc.groups, g)
	}
	tv.Table.Note = "The runs outside any sweep, by what they ran: the mean over a configuration's runs of each task; the small print is the range of the runs."
	tv.Figure = figureView{
		ID: "tasks", Title: bc.title,
		Sentence: tasksCaption(names, cs, perConf, confIdx, alpha),
		Note:     "The mean time of each configuration's runs of the task; error bars span the runs' range.",
		SVG:      template.HTML(bc.render()),
	}
	return tv
}

// meanRange is the mean of vs and the range of its values.
func meanRange(vs []float64) (avg, lo, hi float64) {
	if len(vs) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return mean(vs), slices.Min(vs), slices.Max(vs)
}

// tasksCaption names the fastest configuration of the first task all of
// them ran, and by how much it led the slowest, when Welch's test on their
// runs sets the two apart at the page's level shared (Bonferroni) among
// every pair of configurations; otherwise it says the times are within
// the noise of the runs, or that single runs cannot tell them apart.
func tasksCaption(names []string, cs []Configuration, perConf []map[string]*task, confIdx []int, alpha float64) string {
	for _, name := range names {
		best, worst := -1, -1
		var bestT, worstT float64
		all := true
		for _, i := range confIdx {
			t := perConf[i][name]
			if t == nil {
				all = false
				break
			}
			rt, _, _ := meanRange(t.runtime)
			if best < 0 || rt < bestT {
				best, bestT = i, rt
			}
			if worst < 0 || rt > worstT {
				worst, worstT = i, rt
			}
		}
		if !all || best == worst || !(worstT > 0) {
			continue
		}
		spread := spreadText(formatSeconds(bestT), cs[best].Name, formatSeconds(worstT), cs[worst].Name, true)
		fast, slow := perConf[best][name].runtime, perConf[worst][name].runtime
		if len(fast) < 2 || len(slow) < 2 {
			return "The times for " + name + " " + spread + "; with one run per configuration they cannot be told apart: repeat each task (3 runs or more) to test them."
		}
		k := len(confIdx)
		family := max(k*(k-1)/2, 1)
		level := alphaOf(alpha) / float64(family)
		v := stats.Verdict(slow, fast, level, false)
		tested := "Welch's t-test at α=" + strconv.FormatFloat(level, 'g', 2, 64) + ", " + alphaText(alpha) + " shared among " + plural(family, "pair")
		if v.Kind != stats.Better {
			return "The times for " + name + " " + spread + ", within the noise of the runs: no configuration is significantly faster (" + tested + ", " + stats.PText(v.P) + ")."
		}
		return cs[best].Name + " took the least time for " + name + ", " + formatSeconds(bestT) + ", " + formatPct((worstT-bestT)/worstT) + " less than " + cs[worst].Name + "'s " + formatSeconds(worstT) + " (" + tested + ", " + stats.PText(v.P) + ")."
	}
	return "The configurations ran different tasks: the table below gives each one's time."
}

// spanText is the range of several runs' values for a cell's small print;
// empty for a single run.
func spanText(lo, hi float64, f func(float64) string) string {
	if !(hi > lo) {
		return ""
	}
	return "runs " + f(lo) + " – " + f(hi)
}

// spreadText says how far apart two figures are: "ranged from 0.2 s (A)
// to 0.3 s (B)", or "were (was) about 0.2 s in each" when they read the
// same; plural says which the sentence's subject takes.
func spreadText(lo, loName, hi, hiName string, plural bool) string {
	if lo == hi {
		if plural {
			return "were about " + lo + " in each"
		}
		return "was about " + lo + " in each"
	}
	return "ranged from " + lo + " (" + loName + ") to " + hi + " (" + hiName + ")"
}
