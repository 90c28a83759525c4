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

// What a run ran on, as its results file recorded it: one figure per
// property, each a text ("" when the run did not record it), so that
// configurations can be set side by side and told apart by equal texts.
const (
	EnvServer   = "server"
	EnvEngine   = "storage engine"
	EnvTopology = "topology"
	EnvCache    = "WiredTiger cache size"
	EnvWhere    = "server runs"
	EnvHostCPUs = "mongobench's host: CPUs"
	EnvHostMem  = "mongobench's host: memory"
	EnvClient   = "mongobench: CPUs it may use"
)

// EnvProperties are the properties of Environment in the order tables
// show them.
var EnvProperties = []string{EnvServer, EnvEngine, EnvTopology, EnvCache, EnvWhere, EnvHostCPUs, EnvHostMem, EnvClient}

// envSubject are the properties that describe the system under test: a
// difference in one of them between configurations is a difference in what
// was measured. The others describe the client's machine, which changes
// the figures too, but less directly.
var envSubject = map[string]bool{EnvServer: true, EnvEngine: true, EnvTopology: true, EnvCache: true, EnvWhere: true}

// Environment is what one run ran on, by property (EnvProperties).
type Environment map[string]string

// EnvironmentOf reads what a run ran on from its results file: the
// server's version and engine and the topology from the topology section,
// the WiredTiger cache's size from the server metrics, the host's CPUs and
// memory from the host metrics (the machine mongobench ran on, which is
// the server's too when describes_server says so).
func EnvironmentOf(r *results.Results) Environment {
	env := Environment{}
	if r == nil || r.Extra == nil {
		return env
	}
	x := r.Extra
	if t := x.Topology; t != nil {
		env[EnvServer] = serverText(t)
		env[EnvEngine] = t.StorageEngine
		env[EnvTopology] = topologyText(t)
	}
	for _, s := range x.ServerMetrics {
		if s.Server != nil && s.Server.Cache != nil {
			if v, ok := s.Server.Cache.MaxBytes.Get(); ok && v > 0 {
				env[EnvCache] = BytesText(v)
			}
		}
	}
	describes := false
	for _, s := range x.HostMetrics {
		h := s.Host
		if h == nil {
			continue
		}
		describes = describes || h.DescribesServer
		if h.CPU != nil && h.CPU.NumCPU > 0 && env[EnvHostCPUs] == "" {
			env[EnvHostCPUs] = strconv.Itoa(h.CPU.NumCPU)
		}
		if h.Memory != nil && env[EnvHostMem] == "" {
			if v, ok := h.Memory.TotalBytes.Get(); ok && v > 0 {
				env[EnvHostMem] = BytesText(v)
			}
		}
	}
	if c := x.Client; c != nil {
		if env[EnvHostCPUs] == "" && c.HostCPUs > 0 {
			env[EnvHostCPUs] = strconv.Itoa(c.HostCPUs)
		}
		if c.AllowedCPUs > 0 {
			env[EnvClient] = strconv.FormatFloat(c.AllowedCPUs, 'f', -1, 64)
		}
		switch {
		case c.IncludesEmbeddedServer:
			env[EnvWhere] = "embedded, in mongobench's process"
		case describes:
			env[EnvWhere] = "on mongobench's host"
		case len(x.HostMetrics) > 0:
			env[EnvWhere] = "on another host"
		}
	}
	for k, v := range env {
		if v == "" {
			delete(env, k)
		}
	}
	return env
}

// serverText names the server: "MongoDB 7.0.42", "FerretDB 1.24.0 (as
// MongoDB 7.0.42)".
func serverText(t *metrics.TopologyInfo) string {
	v := t.Version
	if t.FerretDBVersion != "" {
		fv := "FerretDB"
		if t.FerretDBVersion != "unknown" {
			fv += " " + t.FerretDBVersion
		}
		if v == "" {
			return fv
		}
		return fv + " (as MongoDB " + v + ")"
	}
	if v == "" {
		return ""
	}
	return "MongoDB " + v
}

// topologyText says what kind of deployment answered: "standalone",
// "replica set rs0, 3 members", "sharded, 2 shards, collection sharded".
func topologyText(t *metrics.TopologyInfo) string {
	switch t.Kind {
	case metrics.KindStandalone:
		return "standalone"
	case metrics.KindReplicaSet:
		s := "replica set"
		if t.SetName != "" {
			s += " " + t.SetName
		}
		n := len(t.Hosts)
		if t.ReplicaSet != nil && len(t.ReplicaSet.Members) > 0 {
			n = len(t.ReplicaSet.Members)
		}
		if n > 0 {
			s += ", " + plural(n, "member")
		}
		return s
	case metrics.KindSharded:
		s := "sharded cluster"
		if sh := t.Sharding; sh != nil {
			if len(sh.Shards) > 0 {
				s += ", " + plural(len(sh.Shards), "shard")
			}
			if sh.CollectionSharded != nil {
				if *sh.CollectionSharded {
					s += ", collection sharded"
				} else {
					s += ", collection not sharded"
				}
			}
		}
		return s
	}
	return ""
}

// BytesText formats a size in binary units with three significant digits:
// "976 KiB", "1.91 MiB", "8 GiB".
func BytesText(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for math.Abs(b) >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	switch {
	case b == math.Trunc(b) || math.Abs(b) >= 100:
		return strconv.FormatFloat(math.Round(b), 'f', -1, 64) + " " + units[i]
	case math.Abs(b) >= 10:
		return strings.TrimSuffix(strconv.FormatFloat(b, 'f', 1, 64), ".0") + " " + units[i]
	}
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(b, 'f', 2, 64), "0"), ".") + " " + units[i]
}

// EnvValue is one property of a configuration over its runs: each
// distinct value with how many runs recorded it, the most frequent first.
type EnvValue struct {
	Values []string
	Counts []int
	// Unknown counts the runs that did not record the property.
	Unknown int
}

// Text is the value as a table shows it: the one value, "7.0.42 (3
// runs), 6.0.5 (2 runs)" when the runs disagree, "" when none recorded it.
func (v EnvValue) Text() string {
	switch len(v.Values) {
	case 0:
		return ""
	case 1:
		return v.Values[0]
	}
	parts := make([]string, len(v.Values))
	for i, s := range v.Values {
		parts[i] = fmt.Sprintf("%s (%s)", s, plural(v.Counts[i], "run"))
	}
	return strings.Join(parts, ", ")
}

// RanOn is what the configurations of a study ran on, property by
// property, and what in it deserves a warning.
type RanOn struct {
	// Names are the configurations', in order.
	Names []string
	// Rows are the properties any run recorded, in EnvProperties' order.
	Rows []RanOnRow
	// Varied are the properties the configurations' sweeps vary, each
	// with the values it took in each configuration ("1, 2, 4"), and
	// those the study allowed to differ.
	Varied []RanOnRow
	// Warnings say what the reader must know before trusting a comparison:
	// configurations that differ in several things at once, runs of one
	// configuration that ran on different servers.
	Warnings []string
}

// RanOnRow is one property across the configurations.
type RanOnRow struct {
	Property string
	Values   []EnvValue // one per configuration
	// Differs is true when two configurations' values differ: both
	// recorded it and their texts are not the same.
	Differs bool
	// Within is true when the runs of one configuration disagree.
	Within bool
}

// RanOnOf sets what each group of runs ran on side by side. allowed are
// the properties the study allows to differ (--allow-different): each is
// a thing the study meant to vary, as is a property of the system under
// test that differs (an engine against another). A study whose
// configurations differ in two or more such things at once is warned of:
// any difference between them is the sum of both.
func RanOnOf(names []string, groups [][]*results.Results, allowedDiffs []Difference) RanOn {
	ro := RanOn{Names: names}
	envs := make([][]Environment, len(groups))
	for i, g := range groups {
		for _, r := range g {
			envs[i] = append(envs[i], EnvironmentOf(r))
		}
	}
	for _, p := range EnvProperties {
		row := RanOnRow{Property: p}
		any := false
		for i := range groups {
			v := envValue(envs[i], p)
			any = any || len(v.Values) > 0
			row.Within = row.Within || len(v.Values) > 1
			row.Values = append(row.Values, v)
		}
		if !any {
			continue
		}
		var texts []string
		for _, v := range row.Values {
			if t := v.Text(); t != "" && !slices.Contains(texts, t) {
				texts = append(texts, t)
			}
		}
		row.Differs = len(texts) > 1
		ro.Rows = append(ro.Rows, row)
	}
	ro.Varied = variedRows(groups, allowedDiffs)
	for i, n := range names {
		if variesSystem(groups[i]) {
			// A sweep over servers (--vary mongodb.url=…) or shard keys
			// means its runs to differ in what they ran on.
			continue
		}
		for _, row := range ro.Rows {
			if v := row.Values[i]; len(v.Values) > 1 && envSubject[row.Property] {
				ro.Warnings = append(ro.Warnings, fmt.Sprintf("%s's runs did not all run on the same system: %s %s; its figures mix them",
					n, row.Property, v.Text()))
			}
		}
	}
	if len(names) > 1 {
		var things []string
		for _, row := range ro.Rows {
			if row.Differs {
				things = append(things, row.Property+" ("+ro.valuesText(row)+")")
			}
		}
		for _, d := range allowedDiffs {
			things = append(things, d.Property+" ("+orText(d.A, "(unset)")+" vs "+orText(d.B, "(unset)")+")")
		}
		if len(things) > 1 {
			ro.Warnings = append(ro.Warnings, fmt.Sprintf("the configurations differ in %d things at once: %s; whichever the study meant to compare, the others are mixed into every difference it shows",
				len(things), strings.Join(things, ", ")))
		}
	}
	return ro
}

// valuesText names each configuration's value of a row: "A 7.0.42, B
// 6.0.5".
func (ro RanOn) valuesText(row RanOnRow) string {
	parts := make([]string, 0, len(ro.Names))
	for i, n := range ro.Names {
		parts = append(parts, n+" "+orText(row.Values[i].Text(), "not recorded"))
	}
	return strings.Join(parts, ", ")
}

// envValue counts the values of property p over envs.
func envValue(envs []Environment, p string) EnvValue {
	var v EnvValue
	for _, e := range envs {
		s, ok := e[p]
		if !ok {
			v.Unknown++
			continue
		}
		if i := slices.Index(v.Values, s); i >= 0 {
			v.Counts[i]++
		} else {
			v.Values = append(v.Values, s)
			v.Counts = append(v.Counts, 1)
		}
	}
	// The most frequent first; ties in the order the runs came.
	idx := make([]int, len(v.Values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return v.Counts[b] - v.Counts[a] })
	out := EnvValue{Unknown: v.Unknown}
	for _, i := range idx {
		out.Values = append(out.Values, v.Values[i])
		out.Counts = append(out.Counts, v.Counts[i])
	}
	return out
}

// Differing are the rows whose values differ between configurations.
func (ro RanOn) Differing() []RanOnRow {
	var out []RanOnRow
	for _, r := range ro.Rows {
		if r.Differs {
			out = append(out, r)
		}
	}
	return out
}

// variedRows are the varied properties with their values in each group,
// then the properties allowed to differ, with each group's value.
func variedRows(groups [][]*results.Results, allowed []Difference) []RanOnRow {
	var names []string
	for _, g := range groups {
		for _, r := range g {
			if m := MarkOf(r); m != nil {
				for _, n := range m.Varied {
					if !slices.Contains(names, n) {
						names = append(names, n)
					}
				}
			}
		}
	}
	for _, d := range allowed {
		if !slices.Contains(names, d.Property) {
			names = append(names, d.Property)
		}
	}
	var rows []RanOnRow
	for _, n := range names {
		row := RanOnRow{Property: n}
		var texts []string
		for _, g := range groups {
			var vals []string
			for _, r := range g {
				v, ok := "", false
				if m := MarkOf(r); m != nil {
					v, ok = m.Point[n]
				}
				if !ok && n == PhaseProperty {
					v, ok = r.Phase, true
				}
				if !ok {
					v, ok = r.Config[n]
				}
				if ok && !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			sortValues(vals)
			t := strings.Join(vals, ", ")
			row.Values = append(row.Values, EnvValue{Values: []string{t}, Counts: []int{len(g)}})
			if !slices.Contains(texts, t) {
				texts = append(texts, t)
			}
		}
		row.Differs = len(texts) > 1
		rows = append(rows, row)
	}
	return rows
}

// sortValues orders a property's values as numbers when they all are.
func sortValues(vs []string) {
	nums := make(map[string]float64, len(vs))
	for _, v := range vs {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return
		}
		nums[v] = f
	}
	slices.SortFunc(vs, func(a, b string) int { return cmp.Compare(nums[a], nums[b]) })
}

// systemProperties choose the system a run measures: a sweep that varies
// one of them runs on several systems on purpose.
var systemProperties = []string{"mongodb.url", "mongodb.shardkey", "mongodb.shardkey.chunks"}

// variesSystem reports whether any of the runs' sweeps varies a property
// of systemProperties.
func variesSystem(runs []*results.Results) bool {
	for _, r := range runs {
		if m := MarkOf(r); m != nil {
			for _, v := range m.Varied {
				for _, n := range strings.Split(v, ",") {
					if slices.Contains(systemProperties, n) {
						return true
					}
				}
			}
		}
	}
	return false
}
