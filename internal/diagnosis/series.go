package diagnosis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
)

// Of returns the diagnosis r carries, or judges r now when it was written
// before runs were diagnosed.
func Of(r *results.Results, ceilings ...*results.DiskCeiling) *results.Diagnosis {
	if r.Extra != nil && r.Extra.Diagnosis != nil {
		return r.Extra.Diagnosis
	}
	return Diagnose(r, ceilings...)
}

// Verdict is a diagnosis's answer in a word or two, borderline marked:
// "server CPU", "disk (borderline)", "none" for a run nothing limited,
// "not judged" for one that could not be judged. It fits a table's column.
func Verdict(d *results.Diagnosis) string {
	switch {
	case d == nil || strings.HasPrefix(d.Verdict, "cannot judge"):
		return "not judged"
	case len(d.Limits) == 0:
		return "none"
	}
	return d.Verdict
}

// Tally is the verdicts of several runs of one configuration, the most
// frequent first: "server CPU" when all agree, else
// "server CPU (2 of 3), disk (1 of 3)".
func Tally(ds []*results.Diagnosis) string {
	if len(ds) == 0 {
		return ""
	}
	var order []string
	count := map[string]int{}
	for _, d := range ds {
		v := Verdict(d)
		if count[v] == 0 {
			order = append(order, v)
		}
		count[v]++
	}
	if len(order) == 1 {
		return order[0]
	}
	// Stable: ties keep the order of the runs.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && count[order[j]] > count[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = fmt.Sprintf("%s (%d of %d)", v, count[v], len(ds))
	}
	return strings.Join(parts, ", ")
}

// saturated says, for each kind of limit, what a knee at it means.
var saturated = map[string]string{
	ClientCPU:   "the client's CPU is saturated",
	ServerCPU:   "the server host's CPU is saturated",
	Disk:        "the disk is saturated",
	Cache:       "the working set no longer fits the WiredTiger cache",
	Queues:      "operations queue for locks or tickets",
	Connections: "the server's connections run out",
	Network:     "the network may be saturated",
	HostBusy:    "the host is busy with other processes, not with the benchmark",
	Target:      "the runs held their -target: the target set the throughput, not a saturated resource",
}

// ClientBound says whether the run's verdict is its client's CPU, past
// its threshold: the one client-bound judgement that the summary's
// [CLIENT] line, the results' client_bound, stderr and the sweep's table
// share.
func ClientBound(d *results.Diagnosis) bool {
	return Leading(d) == ClientCPU && !d.Limits[0].Borderline
}

// Leading is the kind of the verdict's first limit, "" when nothing
// limited the run or it was not judged.
func Leading(d *results.Diagnosis) string {
	if d == nil || len(d.Limits) == 0 {
		return ""
	}
	return d.Limits[0].Kind
}

// Beyond is the knee's sentence naming the limit there: "beyond 10
// threads the server host's CPU is saturated". x is the knee's value and
// unit how the sweep names it ("threads"); d is the diagnosis of the
// point at the knee (one of its trials'). "" when d says nothing.
func Beyond(x float64, unit string, d *results.Diagnosis) string {
	if d == nil {
		return ""
	}
	if x == 1 && (unit == "threads" || unit == "connections") {
		unit = strings.TrimSuffix(unit, "s")
	}
	at := "beyond " + strconv.FormatFloat(x, 'f', -1, 64) + " " + unit + " "
	if len(d.Limits) == 0 {
		if strings.HasPrefix(d.Verdict, "cannot judge") {
			return ""
		}
		return at + "no resource mongobench watches is saturated: the runs found none"
	}
	l := d.Limits[0]
	s, ok := saturated[l.Kind]
	if !ok {
		s = l.Kind + " is the limit"
	}
	if l.Borderline {
		s += " (borderline: near its threshold, not past it)"
	}
	return at + s
}

// BeyondMost is Beyond for the point past a knee, judged by the most
// frequent verdict of its trials' diagnoses ds (the first trial with it).
func BeyondMost(x float64, unit string, ds []*results.Diagnosis) string {
	count := map[string]int{}
	var best *results.Diagnosis
	for _, d := range ds {
		v := Verdict(d)
		count[v]++
		if best == nil || count[v] > count[Verdict(best)] {
			best = d
		}
	}
	return Beyond(x, unit, best)
}
