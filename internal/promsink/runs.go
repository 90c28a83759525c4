package promsink

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/push"
	"github.com/prometheus/common/expfmt"

	"github.com/mongobench/mongobench/internal/results"
)

// NewRunID is a whole run's id: its start in UTC, then a random suffix
// for two runs started in one second.
func NewRunID(now time.Time) string {
	b := make([]byte, 2)
	_, _ = rand.Read(b)
	return now.UTC().Format(RunIDTimeLayout) + "-" + hex.EncodeToString(b)
}

// Run is one finished run's figures as the endpoint's series, for
// mongobench metrics.
type Run struct {
	File    string
	Options Options
	Sink    *Sink
}

// ReadRuns reads results files (or journals) as the series their runs'
// endpoints served after their last interval.
func ReadRuns(files []string) ([]Run, error) {
	runs := make([]Run, 0, len(files))
	for _, f := range files {
		r, err := results.ReadFile(f)
		if err != nil {
			return nil, err
		}
		opts := RunOptions(r)
		sink, err := FromResults(r, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		runs = append(runs, Run{File: f, Options: opts, Sink: sink})
	}
	return runs, nil
}

// Registry gathers runs' series, refusing a run given twice (the same
// run id and part), whose series would clash.
func Registry(runs []Run) (prometheus.Gatherer, error) {
	reg := prometheus.NewPedanticRegistry()
	for _, r := range runs {
		if err := reg.Register(r.Sink); err != nil {
			return nil, fmt.Errorf("%s is run_id %q part %d again: give each run's results once (%v)", r.File, r.Options.RunID, r.Options.Part, err)
		}
	}
	return reg, nil
}

// WriteOpenMetrics writes what g gathers in the OpenMetrics text format.
func WriteOpenMetrics(w io.Writer, g prometheus.Gatherer) error {
	families, err := g.Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeOpenMetrics))
	for _, mf := range families {
		if err := enc.Encode(mf); err != nil {
			return err
		}
	}
	if c, ok := enc.(expfmt.Closer); ok {
		return c.Close()
	}
	return nil
}

// Push replaces the run's group on the Pushgateway at gateway (PUT):
// pushing a run again leaves it as it was, not counted twice. The group
// is named by an instance label, since the Pushgateway's client refuses
// a grouping label the series carry themselves (run_id, part).
func Push(ctx context.Context, gateway string, r Run) error {
	return push.New(gateway, "mongobench").
		Grouping("instance", fmt.Sprintf("%s/part-%d", r.Options.RunID, r.Options.Part)).
		Collector(r.Sink).
		PushContext(ctx)
}
