package cli

import (
	"io"

	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/sweep/sweeptext"
)

func trialNote(t sweep.Trial, err error) string { return sweeptext.TrialNote(t, err) }

// sweepTable is the sweep's table (sweeptext lays it out) and the trials
// it showed.
type sweepTable struct {
	t    *sweeptext.Table
	rows int
}

func newSweepTable(w io.Writer, format tableFormat, plan *sweep.Plan, ops []string) *sweepTable {
	return &sweepTable{t: sweeptext.NewTable(w, format, plan, ops)}
}

func (t *sweepTable) header() { t.t.Header() }

func (t *sweepTable) trialRow(p *sweep.Point, tr sweep.Trial, note string) {
	t.rows++
	t.t.TrialRow(p, tr, note)
}

func (t *sweepTable) meanRow(p *sweep.Point, trials []sweep.Trial) { t.t.MeanRow(p, trials) }
