package store

import "context"

// Page lists the runs f matches, as List does, and says whether more
// match than f.Limit: a listing that stops short says so.
func (s *Store) Page(ctx context.Context, f Filter) (runs []RunInfo, more bool, err error) {
	limit := f.Limit
	if limit > 0 {
		// One more than asked tells whether there are more.
		f.Limit++
	}
	if runs, err = s.List(ctx, f); err != nil {
		return nil, false, err
	}
	if limit > 0 && len(runs) > limit {
		return runs[:limit], true, nil
	}
	return runs, false, nil
}

// CheckFilter says why f matches no run when the reason is a mistake: a
// label or sweep no run has (a typo, most often) is an error wrapping
// ErrNotFound that names the close ones. nil when the names exist, and
// an empty store or a combination nothing matches is no mistake.
func (s *Store) CheckFilter(ctx context.Context, f Filter) error {
	for _, ref := range []string{prefixed(LabelPrefix, f.Label), prefixed(SweepPrefix, f.SweepID)} {
		if ref == "" {
			continue
		}
		if _, err := s.Resolve(ctx, ref); err != nil {
			return err
		}
	}
	return nil
}

func prefixed(prefix, name string) string {
	if name == "" {
		return ""
	}
	return prefix + name
}
