package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
)

// runPlace names a part of a partitioned run as the part's own results
// and its merged whole both record it: its run id, index, start and end
// to the nanosecond, operations and label.
func runPlace(phase string, start, end time.Time, ops int64, label, runID string, index, count int) string {
	return fmt.Sprintf("%s|%d|%d|%d|%q|part %d of %d of %q", phase, start.UnixNano(), end.UnixNano(), ops, label, index, count, runID)
}

// runIDs are what tell whether two readings measured the same work.
type runIDs struct {
	// content is the results as read, encoded again: a results file and
	// the store's copy of it read alike, two runs never do.
	content string
	// place is a part's place in its run, "" for a run not split.
	place string
	// parts are the places of a merged whole's parts.
	parts []string
}

func identify(r Run) runIDs {
	ids := placesOf(r)
	h := sha256.New()
	if err := results.WriteJSON(h, r.Res); err != nil {
		// Unencodable results are none of another's: the run stands
		// for itself.
		ids.content = "unencodable " + r.Key()
	} else {
		ids.content = hex.EncodeToString(h.Sum(nil))
	}
	return ids
}

// placesOf is a run's place in a partitioned run and its parts' places,
// without its content: what telling a part from its whole needs.
func placesOf(r Run) runIDs {
	var ids runIDs
	res := r.Res
	if res.Extra != nil && res.Extra.Part != nil {
		p := res.Extra.Part
		ids.place = runPlace(res.Phase, res.Start, res.End, res.Operations, res.Label, p.RunID, p.Index, p.Count)
	}
	if res.Extra != nil && res.Extra.Merged != nil {
		m := res.Extra.Merged
		for _, mp := range res.Extra.MergedFrom {
			ids.parts = append(ids.parts, runPlace(res.Phase, mp.Start, mp.End, mp.Operations, mp.Label, m.RunID, mp.Part, m.Parts))
		}
	}
	return ids
}

// SameRunError is the refusal of a comparison of work with itself: one
// run in two groups, or a part of a run in one group and its merged whole
// in another (or beside it in the same group).
type SameRunError struct{ msg string }

func (e *SameRunError) Error() string { return e.msg }

func sameRunf(format string, args ...any) error {
	return &SameRunError{fmt.Sprintf(format, args...)}
}

// SeparateRuns refuses groups that share a run: the same run named twice
// (1 and 1; A,B and B; a results file and its copy in the store), or a
// part of a run in one group and the merged whole in another. Such a
// comparison sets work against itself and would find "no difference" or
// noise as if between configurations. names name the groups ("A (ssd)").
func SeparateRuns(names []string, groups [][]Run) error {
	type seen struct {
		group int
		run   Run
		whole bool // the key is a part's place in this merged whole
	}
	at := map[string]seen{}
	group := func(i int) string { return names[i] }
	// The first pair of groups found sharing runs is named with every run
	// they share.
	pairA, pairB := -1, -1
	var same []string
	for gi, g := range groups {
		// Within a group a run counts once already; only another group's
		// claim on it matters.
		mine := map[string]bool{}
		for _, r := range g {
			ids := identify(r)
			keys := []string{ids.content}
			if ids.place != "" {
				keys = append(keys, ids.place)
			}
			keys = append(keys, ids.parts...)
			for ki, k := range keys {
				if mine[k] {
					continue
				}
				mine[k] = true
				isWhole := ki >= len(keys)-len(ids.parts)
				prev, ok := at[k]
				if !ok {
					at[k] = seen{group: gi, run: r, whole: isWhole}
					continue
				}
				if prev.group == gi {
					continue
				}
				switch {
				case prev.whole == isWhole:
					// The same run, or the same whole merged twice.
					if pairA < 0 {
						pairA, pairB = prev.group, gi
					}
					if pairA == prev.group && pairB == gi {
						if n := sourceName(prev.run) + alsoAs(sourceName(prev.run), sourceName(r)); !slices.Contains(same, n) {
							same = append(same, n)
						}
					}
				case pairA >= 0:
					// The pair found first is named.
				case prev.whole:
					return sameRunf("group %s holds %s, a part of %s, which group %s holds whole: a part compared with its whole is the same work; name each run in one group only",
						group(gi), sourceName(r), sourceName(prev.run), group(prev.group))
				default:
					return sameRunf("group %s holds %s, a part of %s, which group %s holds whole: a part compared with its whole is the same work; name each run in one group only",
						group(prev.group), sourceName(prev.run), sourceName(r), group(gi))
				}
			}
		}
	}
	if pairA >= 0 {
		return sameRunf("groups %s and %s both hold %s: a run compared with itself tells nothing; name each run in one group only",
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

// WholeApart refuses a group, read from ref, that holds a part of a run
// beside the merged whole: the part's operations would count twice in the
// group's figures.
func WholeApart(ref string, runs []Run) error {
	places := map[string]Run{}
	ids := make([]runIDs, len(runs))
	for i, r := range runs {
		ids[i] = placesOf(r)
		if ids[i].place != "" {
			places[ids[i].place] = r
		}
	}
	for i, r := range runs {
		for _, p := range ids[i].parts {
			if part, ok := places[p]; ok {
				return sameRunf("%s holds %s and %s, a part of it: its operations would count twice; name the whole or its parts", printable.String(ref), printable.String(sourceName(r)), printable.String(sourceName(part)))
			}
		}
	}
	return nil
}

// sourceName names a run by where it was read.
func sourceName(r Run) string {
	if r.ID > 0 {
		return fmt.Sprintf("run %d", r.ID)
	}
	return r.Source
}

// OnceEach keeps each run once: a run read twice under one key, or as a
// results file and as the store's copy of it, counts once in a group, so
// that no run counts twice in a mean.
func OnceEach(runs []Run) []Run {
	seen := map[string]bool{}
	copies := map[string]bool{} // content, and whether read from the store
	var out []Run
	for _, r := range runs {
		k := r.Key()
		if seen[k] {
			continue
		}
		content := identify(r).content
		if fromStore, ok := copies[content]; ok && fromStore != (r.ID > 0) {
			continue
		}
		seen[k], copies[content] = true, r.ID > 0
		out = append(out, r)
	}
	return out
}
