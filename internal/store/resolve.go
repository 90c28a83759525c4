package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The prefixes of run references.
const (
	// SweepPrefix names a sweep: "sweep:ID".
	SweepPrefix = "sweep:"
	// LabelPrefix forces a reference to be read as a label, for labels
	// that look like run ids or start with SweepPrefix.
	LabelPrefix = "label:"
)

// maxSuggestions caps the close names an error lists.
const maxSuggestions = 5

// Resolve turns a reference to runs into run ids, in the order the runs were
// saved. A reference is a run id ("42"), a label (every run with that label,
// such as the trials of one sweep point), "sweep:ID" (every run of a sweep)
// or "label:NAME". A number that is no run id is tried as a label. When
// nothing matches, the error wraps ErrNotFound and names close labels or
// sweeps.
func (s *Store) Resolve(ctx context.Context, ref string) ([]int64, error) {
	switch {
	case ref == "":
		return nil, errors.New("run reference is empty: want a run id, a label or sweep:ID")
	case strings.HasPrefix(ref, SweepPrefix):
		return s.resolveSweep(ctx, strings.TrimPrefix(ref, SweepPrefix))
	case strings.HasPrefix(ref, LabelPrefix):
		return s.resolveLabel(ctx, strings.TrimPrefix(ref, LabelPrefix), false)
	}
	id, isID := parseRunID(ref)
	if isID {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE id = ?`, id).Scan(&n); err != nil {
			return nil, fmt.Errorf("resolve %q in %s: %w", ref, s.path, err)
		}
		if n > 0 {
			return []int64{id}, nil
		}
	}
	return s.resolveLabel(ctx, ref, isID)
}

// parseRunID accepts decimal digits only, so that labels such as "+1" or
// "1e3" stay labels.
func parseRunID(ref string) (int64, bool) {
	if ref == "" || strings.TrimLeft(ref, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.ParseInt(ref, 10, 64)
	return id, err == nil
}

func (s *Store) resolveLabel(ctx context.Context, label string, triedID bool) ([]int64, error) {
	if label == "" {
		return nil, fmt.Errorf("run reference %q: empty label", LabelPrefix)
	}
	ids, err := s.ids(ctx, `SELECT id FROM runs WHERE label = ? ORDER BY id`, label)
	if err != nil || len(ids) > 0 {
		return ids, err
	}
	what := fmt.Sprintf("no run has label %q", label)
	if triedID {
		what = fmt.Sprintf("no run has id %s or label %q", label, label)
	}
	labels, err := s.distinct(ctx, "label")
	if err != nil {
		return nil, err
	}
	sweeps, err := s.distinct(ctx, "sweep_id")
	if err != nil {
		return nil, err
	}
	var hints []string
	if slices.Contains(sweeps, label) {
		hints = append(hints, strconv.Quote(SweepPrefix+label))
	}
	for _, l := range closest(label, labels) {
		hints = append(hints, strconv.Quote(l))
	}
	return nil, s.notFound(what, "close labels", hints, len(labels) > 0 || len(sweeps) > 0)
}

func (s *Store) resolveSweep(ctx context.Context, sweep string) ([]int64, error) {
	if sweep == "" {
		return nil, fmt.Errorf("run reference %q: empty sweep id", SweepPrefix)
	}
	ids, err := s.ids(ctx, `SELECT id FROM runs WHERE sweep_id = ? ORDER BY id`, sweep)
	if err != nil || len(ids) > 0 {
		return ids, err
	}
	sweeps, err := s.distinct(ctx, "sweep_id")
	if err != nil {
		return nil, err
	}
	labels, err := s.distinct(ctx, "label")
	if err != nil {
		return nil, err
	}
	var hints []string
	for _, id := range closest(sweep, sweeps) {
		hints = append(hints, strconv.Quote(SweepPrefix+id))
	}
	if slices.Contains(labels, sweep) {
		hints = append(hints, strconv.Quote(sweep))
	}
	return nil, s.notFound(fmt.Sprintf("no sweep has id %q", sweep), "close sweeps", hints, len(labels) > 0 || len(sweeps) > 0)
}

func (s *Store) notFound(what, kind string, hints []string, anyNames bool) error {
	switch {
	case len(hints) > 0:
		what += "; " + kind + ": " + strings.Join(hints, ", ")
	case !anyNames:
		what += ": " + s.path + " holds no labelled runs and no sweeps"
	}
	return &notFoundError{what}
}

// notFoundError is ErrNotFound with a message of its own, which says it
// better than a wrapped "not in the store" would.
type notFoundError struct{ msg string }

func (e *notFoundError) Error() string { return e.msg }

func (e *notFoundError) Is(target error) bool { return target == ErrNotFound }

func (s *Store) ids(ctx context.Context, query string, arg string) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, query, arg)
	if err != nil {
		return nil, fmt.Errorf("resolve %q in %s: %w", arg, s.path, err)
	}
	defer func() { _ = rows.Close() }()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("resolve %q in %s: %w", arg, s.path, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("resolve %q in %s: %w", arg, s.path, err)
	}
	return ids, nil
}

// distinct returns the distinct non-empty values of a column; column is
// one of ours, never user input.
func (s *Store) distinct(ctx context.Context, column string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT `+column+` FROM runs WHERE `+column+` != '' ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("list %s values in %s: %w", column, s.path, err)
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("list %s values in %s: %w", column, s.path, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list %s values in %s: %w", column, s.path, err)
	}
	return out, nil
}

// closest returns up to maxSuggestions of names that look like a mistyped
// want: a few edits away, or one containing the other (a label typed without
// its suffix), closest first.
func closest(want string, names []string) []string {
	type scored struct {
		name string
		dist int
	}
	lw := strings.ToLower(want)
	limit := max(2, len([]rune(want))/3)
	var cands []scored
	for _, n := range names {
		ln := strings.ToLower(n)
		d := editDistance(lw, ln)
		// Containment only for names of some length: a label "a" is in
		// nearly every word.
		contains := (len(lw) >= 3 && strings.Contains(ln, lw)) || (len(ln) >= 3 && strings.Contains(lw, ln))
		if d <= limit || contains {
			cands = append(cands, scored{n, d})
		}
	}
	slices.SortFunc(cands, func(a, b scored) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, 0, min(len(cands), maxSuggestions))
	for i := 0; i < len(cands) && i < maxSuggestions; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
