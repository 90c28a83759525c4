package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/threshold"
)

// Trial is one finished (or stopped) run of a point.
type Trial struct {
	Trial   int
	Warmup  bool // run first and left out of the point's figures
	Results *results.Results
	Figures analysis.Figures // of the plan's latency kind
	ID      int64            // store run id; 0 when not stored
}

// Counts reports whether the trial counts in its point's figures: not a
// warm-up, not cut short.
func (t Trial) Counts() bool { return !t.Warmup && t.Results != nil && !t.Results.Partial }

// CountedFigures are the figures of the trials that count.
func CountedFigures(trials []Trial) []analysis.Figures {
	var fs []analysis.Figures
	for _, t := range trials {
		if t.Counts() {
			fs = append(fs, t.Figures)
		}
	}
	return fs
}

// ThresholdFailure is a trial that failed thresholds.
type ThresholdFailure struct {
	Point  map[string]string // the varied properties' values
	Trial  int
	File   string // its results file
	Failed []results.Threshold
}

// fileSafe turns a point's label into part of a file name.
func fileSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '=' || c == '-'
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) > 80 {
		b = b[:80]
	}
	return string(b)
}

// runTrial runs one trial of a point, marks its results with their place
// in the sweep, writes them and saves them.
func (s *Sweep) runTrial(ctx context.Context, p *Point, url string, trial int, warm bool) (Trial, error) {
	t := Trial{Trial: trial, Warmup: warm}
	name := fmt.Sprintf("p%02d", p.Index)
	if p.Label != "" {
		name += "-" + fileSafe(p.Label)
	}
	name += fmt.Sprintf("-t%d", trial)
	file := filepath.Join(s.Dir, name+".json")
	// What the trial sets over the point's properties, recorded with its
	// command line as the load or run that would repeat it.
	var set []string
	if p.Settings.URL == "" {
		set = append(set, "mongodb.url", url)
	}
	if p.Settings.Spec.HdrFileOutput {
		set = append(set, "hdrhistogram.output.path", filepath.Join(s.Dir, name+"-"))
	}
	// The trial's summary stays unwritten: an exportfile of the sweep's
	// properties would be overwritten by every trial.
	set = append(set, "exportfile", "")
	settings, err := s.trialSettings(p, set...)
	if err != nil {
		return t, s.trialError(p, trial, err)
	}
	exec := bench.Execution{
		Target: bench.Target{
			Settings: settings, Drop: (s.cfg.Drop || s.native(p) != nil) && s.plan.Command == "load",
			Native: s.native(p),
			Stop:   s.cfg.Stop, Grace: s.cfg.Grace, Notify: s.notice,
		},
		Limits: s.cfg.Limits,
		Meta: func(prep *bench.Prepared) results.Meta {
			return results.Meta{
				Tool: s.cfg.Tool, Command: s.commandLine(p, set, file), Label: settings.Spec.Label, RunID: s.cfg.MetricsRunID, Phase: s.plan.Command,
				Config: bench.ResolvedConfig(settings, prep.Seed, redact.URL(prep.URL), prep.Database),
			}
		},
		Journal:  file + results.JournalSuffix,
		Endpoint: s.cfg.Metrics,
	}
	if s.cfg.Display != nil {
		exec.Display = s.cfg.Display()
	}
	if st := s.cfg.Store; st != nil {
		// The trial's disk is judged against its baseline, as a lone
		// run's is.
		exec.DiskCeilings = func(ctx context.Context) []*results.DiskCeiling {
			cs, err := st.DiskCeilings(ctx)
			if err != nil {
				s.notice(bench.Notice{Kind: bench.Warning, Text: fmt.Sprintf("the disk baselines could not be read, disks are judged by their utilisation: %v", err)})
			}
			return cs
		}
	}
	live := threshold.NewLive(s.cfg.Thresholds)
	if live != nil {
		exec.Display = append(exec.Display, liveSink{live})
		exec.Limits.Abort = live.Abort()
	}
	done, err := bench.Execute(ctx, exec)
	if err != nil {
		return t, s.trialError(p, trial, err)
	}
	out, obs := done.Outcome, done.Observation
	if line := out.ScheduleNote(settings.Spec.PeakTarget()); line != "" {
		s.info("%s", line)
	}
	res, err := done.Results, done.ResultsErr
	if err != nil {
		return t, s.trialError(p, trial, err)
	}
	if c := obs.Client; c != nil {
		if w := s.clientWarning(*c, res.Extra.Diagnosis); w != "" {
			s.notice(bench.Notice{Kind: bench.Warning, Text: w})
		}
	}
	res.Extra.Sweep = &results.SweepMark{ID: s.ID, Varied: s.plan.Varied, Point: s.plan.Show(p.Values), Trial: trial, Warmup: warm, FindMax: s.findMax}
	if err := s.judge(res, live, file); err != nil {
		return t, s.trialError(p, trial, err)
	}
	failed := out.SinkErrors
	if err := outfile.Write(file, func(w io.Writer) error { return results.WriteJSON(w, res) }); err != nil {
		failed = append(failed, err)
	}
	t.Results = res
	t.Figures = analysis.FiguresOf(res, s.plan.Kind)
	if st := s.cfg.Store; st != nil {
		id, serr := st.Save(context.WithoutCancel(ctx), res, store.SaveOptions{SweepID: s.ID, Point: s.plan.Show(p.Values), Trial: trial})
		if serr != nil {
			if s.Unsaved == 0 {
				s.notice(bench.Notice{Kind: bench.Warning, Text: fmt.Sprintf("results store: %v; the results files in %s keep every run", serr, s.Dir)})
			}
			s.Unsaved++
		} else {
			t.ID = id
			s.IDs = append(s.IDs, id)
		}
	}
	if s.stopped() {
		return t, ErrStopped
	}
	if len(failed) > 0 {
		for _, err := range failed {
			s.info("not written: %v", err)
		}
		return t, s.trialError(p, trial, fmt.Errorf("the run was measured, but %d of its outputs could not be written (above)", len(failed)))
	}
	if note := out.DuplicateKeyNote(s.plan.Command, done.Database, settings.Spec.Table); note != "" {
		s.info("%s", note)
	}
	return t, s.trialError(p, trial, out.Failure())
}

// clientWarning is the client's warning to say after a trial, from its
// diagnosis d, or "". A saturated embedded server is the machine's limit,
// the same at every point: said once per sweep, whatever its figures.
func (s *Sweep) clientWarning(c bench.ClientReport, d *results.Diagnosis) string {
	w := c.Warning(d)
	machine := c.MachineSaturated(d)
	if w == "" || (machine && s.saturationSaid) {
		return ""
	}
	s.saturationSaid = s.saturationSaid || machine
	return w
}

// commandLine is the load or run command line that would repeat a trial,
// redacted, as its results record it.
func (s *Sweep) commandLine(p *Point, set []string, file string) []string {
	line := slices.Clone(s.cfg.CommandLine)
	for _, name := range s.plan.Varied {
		if v, ok := p.Values[name]; ok {
			line = append(line, "-p", redact.Arg(name+"="+v))
		}
	}
	for i := 0; i+1 < len(set); i += 2 {
		line = append(line, "-p", redact.Arg(set[i]+"="+set[i+1]))
	}
	return append(line, "--out", redact.Arg(file))
}

// trialError says which run an error belongs to; a stop becomes the
// sweep's stop.
func (s *Sweep) trialError(p *Point, trial int, err error) error {
	if err == nil {
		return nil
	}
	var intr *bench.Interrupted
	if errors.As(err, &intr) || s.stopped() {
		return ErrStopped
	}
	if p.Label == "" {
		return fmt.Errorf("sweep trial %d: %w", trial, err)
	}
	return fmt.Errorf("sweep point %s, trial %d: %w", p.Label, trial, err)
}

// judge records on a trial's results how it met the sweep's thresholds,
// and keeps the trial among the failures when it failed one.
func (s *Sweep) judge(res *results.Results, live *threshold.Live, file string) error {
	recs, err := threshold.Judge(s.cfg.Thresholds, res, live)
	if err != nil {
		return fmt.Errorf("judging the thresholds: %w", err)
	}
	res.Extra.Thresholds = recs
	var failed []results.Threshold
	for _, r := range recs {
		if !r.Pass {
			failed = append(failed, r)
		}
	}
	if len(failed) > 0 {
		m := res.Extra.Sweep
		s.ThresholdFailures = append(s.ThresholdFailures, ThresholdFailure{Point: m.Point, Trial: m.Trial, File: file, Failed: failed})
	}
	return nil
}

// liveSink feeds a trial's intervals to its thresholds with abortOnFail.
type liveSink struct{ live *threshold.Live }

func (liveSink) Open(bench.Phase) error { return nil }
func (s liveSink) Interval(u bench.Update) error {
	s.live.Observe(u.Interval)
	return nil
}
func (liveSink) Close(bool) error { return nil }
