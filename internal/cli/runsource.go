package cli

import (
	"context"
	"errors"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/runref"
)

// runSource is runref.Source as compare and report use it: a reference
// that names nothing readable is bad input, and the store is opened as
// every command that only reads it opens it.
type runSource struct {
	storePath string
	src       *runref.Source
}

func (s *runSource) source() *runref.Source {
	if s.src == nil {
		s.src = &runref.Source{StorePath: storePath(s.storePath), Open: openExistingStore}
	}
	return s.src
}

func (s *runSource) close() { s.source().Close() }

// loadGroups loads each reference as a group of runs; runref's refusals
// are bad input.
func (s *runSource) loadGroups(ctx context.Context, refs []string) ([][]analysis.Run, error) {
	groups, err := s.source().LoadGroups(ctx, refs)
	if ie := (runref.InputError{}); errors.As(err, &ie) {
		return nil, badInput{err}
	}
	return groups, err
}
