package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/stats"
)

// Study is several configurations of one benchmark, each compared against
// a baseline: what compare prints and what a report draws. Configurations
// are the groups of runs named on the command line; within each, runs that
// did different work (a load phase beside a run phase, two read/insert
// mixes) are told apart as kinds and never averaged together.
type Study struct {
	Configs  []Config
	Baseline int // index of the baseline in Configs
	Latency  LatencyKind
	Alpha    float64
	// Varied are the properties the study's sweeps vary: runs are paired
	// point by point over them.
	Varied []string
	// Allowed are the properties the user allowed to differ between
	// configurations (--allow-different).
	Allowed []string
	// Comparisons compare each configuration but the baseline against it,
	// in the order of Configs.
	Comparisons []Comparison
	// Tested is the number of figures tested over the whole study: the
	// family over which Holm's correction bounds false alarms.
	Tested int
	// Notes say what was left out, separated or mixed.
	Notes []string
}

// Config is one configuration of a study: the runs of one group.
type Config struct {
	Name string
	// Runs are every run of the group, warm-up trials included.
	Runs []Run
	// Kinds are the runs that count, separated by the work they did.
	Kinds []Kind
}

// Comparison is one configuration against the baseline.
type Comparison struct {
	Config int // index in Study.Configs
	// Sets are the paired runs, kind by kind and point by point, each
	// with its rows of figures.
	Sets []Set
	// Differences are the properties on which the configuration's runs
	// differ from the baseline's, all of them allowed.
	Differences []Difference
	// Better, Worse and Same count the tested figures by verdict after
	// Holm's correction; Untested those without a test.
	Better, Worse, Same, Untested int
	// Sensitivity is what the least sensitive of the throughput tests
	// could tell: how large a difference could go unseen, and how many
	// trials would see one of SensitivityGoal. OK is false when no
	// throughput was tested.
	Sensitivity stats.Sensitivity
}

// SensitivityGoal is the relative difference of throughput whose trials
// a comparison names: "about 17 trials per side would detect ±10%".
const SensitivityGoal = 0.10

// DifferentError is the refusal to compare two configurations that did
// different work.
type DifferentError struct {
	A, B        string
	Differences []Difference
}

func (e *DifferentError) Error() string {
	names := make([]string, len(e.Differences))
	for i, d := range e.Differences {
		names[i] = d.Property
	}
	return fmt.Sprintf("%s and %s ran different things (%s): compare like with like, or name what may differ with --allow-different %s",
		e.A, e.B, DifferencesText(e.Differences), strings.Join(names, ","))
}

// StudyOptions are the choices of a study.
type StudyOptions struct {
	// Names name the groups, in their order; without them the groups are
	// lettered (GroupLetter).
	Names []string
	// Refs are the groups as the command line gave them, when Names are
	// letters (GroupLetters): a refusal then names a group by both, "A
	// (ssd)", since the letter alone says nothing to whoever reads it.
	Refs []string
	// Baseline is the index of the baseline group.
	Baseline int
	Latency  LatencyKind
	Alpha    float64
	Allowed  []string
}

// NewStudy builds the study of groups of runs. It refuses, with a
// *DifferentError, a configuration none of whose runs did the same work as
// any of the baseline's, unless the properties that differ are allowed.
func NewStudy(groups [][]Run, o StudyOptions) (*Study, error) {
	if o.Names == nil {
		o.Names = make([]string, len(groups))
		for i := range groups {
			o.Names[i] = GroupLetter(i)
		}
	}
	s := &Study{Baseline: o.Baseline, Latency: o.Latency, Alpha: o.Alpha, Allowed: o.Allowed}
	for _, g := range groups {
		for _, r := range g {
			if r.Mark != nil {
				for _, v := range r.Mark.Varied {
					if !slices.Contains(s.Varied, v) {
						s.Varied = append(s.Varied, v)
					}
				}
			}
		}
	}
	ignore := map[string]bool{}
	for _, n := range append(slices.Clone(s.Varied), o.Allowed...) {
		ignore[n] = true
	}
	for i, g := range groups {
		c := Config{Name: o.Names[i], Runs: g}
		counted, left := CountedRuns(g)
		if left > 0 {
			s.Notes = append(s.Notes, fmt.Sprintf("%d warm-up run(s) of %s left out", left, c.Name))
		}
		c.Kinds = Separate(counted, ignore)
		if len(c.Kinds) > 1 {
			s.Notes = append(s.Notes, fmt.Sprintf("%s holds runs of %d kinds, compared apart: %s", c.Name, len(c.Kinds), kindCounts(c.Kinds, describeKinds(c.Kinds, ignore))))
		}
		s.Configs = append(s.Configs, c)
	}
	base := s.Configs[o.Baseline]
	for i, c := range s.Configs {
		if i == o.Baseline {
			continue
		}
		cmp, err := s.compare(base, c, i, ignore)
		if err != nil {
			return nil, o.named(err)
		}
		s.Comparisons = append(s.Comparisons, cmp)
	}
	s.correct()
	return s, nil
}

// GroupLetters name the groups of a study in tables and verdicts, in
// their order: at most this many groups are studied at once.
const GroupLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// GroupLetter is the letter of the i-th group.
func GroupLetter(i int) string { return GroupLetters[i : i+1] }

// named names, in a refusal, each group by its name and its reference
// when Refs gives them.
func (o StudyOptions) named(err error) error {
	var de *DifferentError
	if len(o.Refs) == 0 || !errors.As(err, &de) {
		return err
	}
	a, b := slices.Index(o.Names, de.A), slices.Index(o.Names, de.B)
	if a < 0 || b < 0 || a >= len(o.Refs) || b >= len(o.Refs) {
		return err
	}
	de.A = fmt.Sprintf("%s (%s)", de.A, o.Refs[a])
	de.B = fmt.Sprintf("%s (%s)", de.B, o.Refs[b])
	return de
}

func kindCounts(kinds []Kind, descs []string) string {
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s (%s)", descs[i], plural(len(k.Runs), "run"))
	}
	return strings.Join(parts, "; ")
}

// compare pairs each kind of the baseline with the first kind of c that
// did the same work, in the baseline's order.
func (s *Study) compare(base, c Config, ci int, ignore map[string]bool) (Comparison, error) {
	cmp := Comparison{Config: ci}
	baseDescs := describeKinds(base.Kinds, ignore)
	descs := describeKinds(c.Kinds, ignore)
	matched := make([]bool, len(c.Kinds))
	var unmatched []string
	for j, bk := range base.Kinds {
		i := slices.IndexFunc(c.Kinds, func(k Kind) bool {
			return len(Differences(bk.Runs[0].Res, k.Runs[0].Res, ignore)) == 0
		})
		if i < 0 {
			unmatched = append(unmatched, fmt.Sprintf("%s's %s runs have no counterpart in %s: not compared", base.Name, baseDescs[j], c.Name))
			continue
		}
		k := c.Kinds[i]
		matched[i] = true
		sets, notes := Pair(base.Name, c.Name, bk.Runs, k.Runs)
		s.Notes = append(s.Notes, notes...)
		for _, set := range sets {
			if len(base.Kinds) > 1 || len(c.Kinds) > 1 {
				set.Kind = baseDescs[j]
			}
			set.Rows = CompareRows(set.A, set.B, s.Latency, s.Alpha)
			cmp.Sets = append(cmp.Sets, set)
		}
		// What differs, allowed, between the runs set side by side.
		for _, d := range Differences(bk.Runs[0].Res, k.Runs[0].Res, onlyVaried(s.Varied)) {
			if !slices.ContainsFunc(cmp.Differences, func(x Difference) bool { return x.Property == d.Property }) {
				cmp.Differences = append(cmp.Differences, d)
			}
		}
	}
	if len(cmp.Sets) == 0 {
		if len(base.Kinds) == 0 || len(c.Kinds) == 0 {
			return cmp, nil
		}
		return cmp, &DifferentError{A: base.Name, B: c.Name, Differences: closestDifferences(base.Kinds, c.Kinds, ignore)}
	}
	for i, ok := range matched {
		if !ok {
			unmatched = append(unmatched, fmt.Sprintf("%s's %s runs have no counterpart in %s: not compared", c.Name, descs[i], base.Name))
		}
	}
	s.Notes = append(s.Notes, unmatched...)
	for _, set := range cmp.Sets {
		for _, r := range set.Rows {
			if r.Op != "" || r.Figure != "throughput" {
				continue
			}
			if sv := stats.SensitivityOf(r.A, r.B, s.Alpha, SensitivityGoal); sv.OK && (!cmp.Sensitivity.OK || sv.Detectable > cmp.Sensitivity.Detectable) {
				cmp.Sensitivity = sv
			}
		}
	}
	return cmp, nil
}

// closestDifferences are the differences between the two kinds that
// differ least, for the refusal to name.
func closestDifferences(a, b []Kind, ignore map[string]bool) []Difference {
	var best []Difference
	for _, ka := range a {
		for _, kb := range b {
			d := Differences(ka.Runs[0].Res, kb.Runs[0].Res, ignore)
			if best == nil || len(d) < len(best) {
				best = d
			}
		}
	}
	return best
}

func onlyVaried(varied []string) map[string]bool {
	m := map[string]bool{}
	for _, v := range varied {
		m[v] = true
	}
	return m
}

// correct applies Holm's correction over every figure the study tested,
// and counts the verdicts.
func (s *Study) correct() {
	var ps []float64
	for _, c := range s.Comparisons {
		for _, set := range c.Sets {
			for _, r := range set.Rows {
				ps = append(ps, testedP(r))
			}
		}
	}
	adj := stats.Holm(ps)
	s.Tested = 0
	for _, p := range ps {
		if !math.IsNaN(p) {
			s.Tested++
		}
	}
	i := 0
	for ci := range s.Comparisons {
		c := &s.Comparisons[ci]
		for si := range c.Sets {
			for ri := range c.Sets[si].Rows {
				r := &c.Sets[si].Rows[ri]
				r.AdjustedP, r.Family = adj[i], s.Tested
				i++
				switch {
				case !r.Tested():
					c.Untested++
				case !r.Significant():
					c.Same++
				case r.Verdict.Kind == stats.Better:
					c.Better++
				default:
					c.Worse++
				}
			}
		}
	}
}

func testedP(r Row) float64 {
	if !r.Tested() {
		return math.NaN()
	}
	return r.Verdict.P
}

// KneeAlpha is the level each knee of a study is tested at: the study's
// level shared among its series (Bonferroni), so that the knees stated
// together are backed at the study's level.
func KneeAlpha(alpha float64, series int) float64 {
	if !(alpha > 0 && alpha < 1) {
		alpha = stats.DefaultAlpha
	}
	if series > 1 {
		return alpha / float64(series)
	}
	return alpha
}
