package analysis

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// PhaseProperty names the phase (load or run) where differences between
// runs are listed, and in --allow-different.
const PhaseProperty = "phase"

// observational are the known properties that change how a run is
// observed, reported or how long it lasts, or which server and collection
// it ran against and how that collection is sharded, but not the work each
// operation does: runs that differ only in them measured the same thing.
// The system under test is what a study most often compares: SSD against
// ESSD, sharded against not.
var observational = map[string]bool{
	"label": true, "status.interval": true, "exporter": true, "exportfile": true,
	"measurementtype": true, "measurement.interval": true, "hdrhistogram.percentiles": true,
	"hdrhistogram.fileoutput": true, "hdrhistogram.output.path": true, "seed": true,
	"mongodb.url": true, "mongodb.connecttimeout": true, "operationcount": true,
	"maxexecutiontime": true, "warmuptime": true, "optimeout": true,
	"table": true, "mongodb.shardkey": true, "mongodb.shardkey.chunks": true,
}

// ShapesWork reports whether a property shapes the work a run does: a
// property mongobench reads, other than those that only observe. Unknown
// properties are ignored by mongobench, so they cannot shape anything;
// dotransactions is the phase, which is compared as such.
func ShapesWork(name string) bool {
	if isNativeKey(name) {
		return true
	}
	return workload.IsKnown(name) && !workload.IgnoredProperties[name] && !observational[name] && name != "dotransactions"
}

// nativeKey is the key under which a run of a native workload records the
// workload, and the prefix of its parameters' keys (native.ConfigKey):
// the workload and its parameters shape the work as properties do.
const nativeKey = "native"

func isNativeKey(name string) bool {
	return name == nativeKey || strings.HasPrefix(name, nativeKey+".")
}

// parameterOf is the parameter a native run's key records (documents for
// native.documents), which a sweep varies by that name; "" for others.
func parameterOf(key string) string {
	if p, ok := strings.CutPrefix(key, nativeKey+"."); ok {
		return p
	}
	return ""
}

// Difference is one property on which two runs disagree.
type Difference struct {
	Property string
	A, B     string // the values; "" when the run has the property unset
}

func (d Difference) String() string {
	return fmt.Sprintf("%s %s vs %s", d.Property, orText(d.A, "(unset)"), orText(d.B, "(unset)"))
}

// Differences lists the properties shaping the work on which a and b
// disagree, the phase first, then by name; ignore names those a study
// varies or allows to differ. A property recorded by only one of the runs
// (a file from an older version) is not counted: it is unknown, not
// different.
func Differences(a, b *results.Results, ignore map[string]bool) []Difference {
	var diffs []Difference
	if a.Phase != b.Phase && !ignore[PhaseProperty] {
		diffs = append(diffs, Difference{PhaseProperty, a.Phase, b.Phase})
	}
	var names []string
	for k, va := range a.Config {
		vb, ok := b.Config[k]
		if ok && va != vb && !ignore[k] && !ignore[parameterOf(k)] && ShapesWork(k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		diffs = append(diffs, Difference{k, a.Config[k], b.Config[k]})
	}
	return diffs
}

// DifferencesText lists differences on one line: "fieldcount 10 vs 1,
// phase load vs run".
func DifferencesText(diffs []Difference) string {
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

// Kind is a set of runs that did the same work: same phase, same
// properties, except those the study varies or allows to differ.
type Kind struct {
	Runs []Run
}

// Phase is the phase of the kind's runs.
func (k Kind) Phase() string { return k.Runs[0].Res.Phase }

// Separate splits runs into kinds, in the order their first runs come.
// Each run joins the first kind whose first run did the same work.
func Separate(runs []Run, ignore map[string]bool) []Kind {
	var kinds []Kind
	for _, r := range runs {
		i := slices.IndexFunc(kinds, func(k Kind) bool { return len(Differences(k.Runs[0].Res, r.Res, ignore)) == 0 })
		if i < 0 {
			kinds = append(kinds, Kind{})
			i = len(kinds) - 1
		}
		kinds[i].Runs = append(kinds[i].Runs, r)
	}
	return kinds
}

// apart are the properties, sorted, in which any two of the kinds differ
// (PhaseProperty among them when their phases do).
func apart(kinds []Kind, ignore map[string]bool) []string {
	set := map[string]bool{}
	for i := range kinds {
		for j := range i {
			for _, d := range Differences(kinds[j].Runs[0].Res, kinds[i].Runs[0].Res, ignore) {
				set[d.Property] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// describeKinds names each kind by what sets it apart from the others:
// "load phase", "run phase, readproportion=0.9 insertproportion=0.1".
func describeKinds(kinds []Kind, ignore map[string]bool) []string {
	names := slices.DeleteFunc(apart(kinds, ignore), func(n string) bool { return n == PhaseProperty })
	out := make([]string, len(kinds))
	for i, k := range kinds {
		s := k.Phase() + " phase"
		var kv []string
		for _, n := range names {
			kv = append(kv, n+"="+orText(k.Runs[0].Res.Config[n], "(unset)"))
		}
		if len(kv) > 0 {
			s += ", " + strings.Join(kv, " ")
		}
		out[i] = s
	}
	return out
}
