package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
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

// refError makes runref's refusals bad input.
func refError(err error) error {
	var ie runref.InputError
	if errors.As(err, &ie) {
		return badInput{err}
	}
	return err
}

// loadGroups loads each reference as a group of runs.
func (s *runSource) loadGroups(ctx context.Context, refs []string) ([][]analysis.Run, error) {
	groups, err := s.source().LoadGroups(ctx, refs)
	return groups, refError(err)
}

// shown are the arguments as a table or message shows them: control
// characters escaped and, with readings, how a bare word was read.
func (s *runSource) shown(refs []string, readings bool) []string {
	return s.source().Shown(refs, readings)
}

// inputs are the files the runs of groups were read from, and the store
// when one was read: what no output may overwrite.
func (s *runSource) inputs(groups [][]analysis.Run) []namedPath {
	var ins []namedPath
	for _, p := range s.source().Inputs(groups) {
		ins = append(ins, namedPath{"input", p})
	}
	return ins
}

// diskBaselines are the newest disk baseline of each device in the store,
// for the report to set each run's disk beside. A store that cannot say
// costs the report only those.
func (s *runSource) diskBaselines(ctx context.Context, env Env) []*results.DiskBaseline {
	bs, err := s.source().DiskBaselines(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mongobench: warning: no disk baselines: %v\n", err)
		return nil
	}
	return bs
}
