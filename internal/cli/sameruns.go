package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/printable"
)

// runIdentity names one measured run however it was read: from its
// results file, from the store's copy, or as a part named in a merged
// whole. Its start and end to the nanosecond make it; the phase, the
// operations, the label and the part keep two runs that started together
// apart.
func runIdentity(phase string, start, end time.Time, ops int64, label string, part string) string {
	return fmt.Sprintf("%s|%d|%d|%d|%q|%s", phase, start.UnixNano(), end.UnixNano(), ops, label, part)
}

// partName is a part's place in its run, for runIdentity.
func partName(runID string, index, count int) string {
	return fmt.Sprintf("part %d of %d of %q", index, count, runID)
}

// identities are the runs r measured: itself, and for a merged whole each
// of its parts.
func identities(r analysis.Run) (self string, parts []string) {
	res := r.Res
	part := ""
	if res.Extra != nil && res.Extra.Part != nil {
		p := res.Extra.Part
		part = partName(p.RunID, p.Index, p.Count)
	}
	self = runIdentity(res.Phase, res.Start, res.End, res.Operations, res.Label, part)
	if res.Extra != nil && res.Extra.Merged != nil {
		m := res.Extra.Merged
		for _, mp := range res.Extra.MergedFrom {
			parts = append(parts, runIdentity(res.Phase, mp.Start, mp.End, mp.Operations, mp.Label, partName(m.RunID, mp.Part, m.Parts)))
		}
	}
	return self, parts
}

// checkSeparateRuns refuses groups that share a run: the same run named
// twice (1 and 1; A,B and B; a results file and its copy in the store),
// or a part of a run in one group and the merged whole in another. Such a
// comparison sets work against itself and would find "no difference" or
// noise as if between configurations. shown names the groups.
func checkSeparateRuns(shown []string, groups [][]analysis.Run) error {
	type seen struct {
		group int
		run   analysis.Run
		whole bool // seen as a part of this merged whole
	}
	at := map[string]seen{}
	name := func(r analysis.Run) string {
		if r.ID > 0 {
			return fmt.Sprintf("run %d", r.ID)
		}
		return r.Source
	}
	group := func(i int) string { return fmt.Sprintf("%s (%s)", groupLetter(i), shown[i]) }
	// The first pair of groups found sharing runs is named with every run
	// they share.
	pairA, pairB := -1, -1
	var same []string
	for gi, g := range groups {
		// Within a group a run counts once already; only another group's
		// claim on it matters.
		mine := map[string]bool{}
		for _, r := range g {
			self, parts := identities(r)
			for _, id := range append([]string{self}, parts...) {
				if mine[id] {
					continue
				}
				mine[id] = true
				prev, ok := at[id]
				if !ok {
					at[id] = seen{group: gi, run: r, whole: id != self}
					continue
				}
				if prev.group == gi {
					continue
				}
				isPart := id != self
				switch {
				case !prev.whole && !isPart:
					if pairA < 0 {
						pairA, pairB = prev.group, gi
					}
					if pairA == prev.group && pairB == gi {
						same = append(same, name(prev.run)+alsoAs(name(prev.run), name(r)))
					}
				case pairA >= 0:
					// The pair found first is named.
				case prev.whole:
					return badInputf("group %s holds %s, a part of %s, which group %s holds whole: a part compared with its whole is the same work; name each run in one group only",
						group(gi), name(r), name(prev.run), group(prev.group))
				default:
					return badInputf("group %s holds %s, a part of %s, which group %s holds whole: a part compared with its whole is the same work; name each run in one group only",
						group(prev.group), name(prev.run), name(r), group(gi))
				}
			}
		}
	}
	if pairA >= 0 {
		return badInputf("groups %s and %s both hold %s: a run compared with itself tells nothing; name each run in one group only",
			group(pairA), group(pairB), strings.Join(same, ", "))
	}
	return nil
}

// alsoAs says that a run was read under another name too (a file and
// its copy in the store).
func alsoAs(a, b string) string {
	if a == b {
		return ""
	}
	return " (also read as " + b + ")"
}

// checkWholeApart refuses a group that holds a part of a run beside the
// merged whole: the part's operations would count twice in the group's
// figures.
func checkWholeApart(ref string, runs []analysis.Run) error {
	selves := map[string]analysis.Run{}
	for _, r := range runs {
		self, _ := identities(r)
		selves[self] = r
	}
	for _, r := range runs {
		_, parts := identities(r)
		for _, p := range parts {
			if part, ok := selves[p]; ok {
				return badInputf("%s holds %s and %s, a part of it: its operations would count twice; name the whole or its parts", printable.String(ref), printable.String(sourceName(r)), printable.String(sourceName(part)))
			}
		}
	}
	return nil
}

// sourceName names a run by where it was read.
func sourceName(r analysis.Run) string {
	if r.ID > 0 {
		return fmt.Sprintf("run %d", r.ID)
	}
	return r.Source
}
