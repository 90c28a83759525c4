package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/threshold"
)

// ErrStopped ends a sweep that Config.Stop asked to stop.
var ErrStopped = errors.New("sweep stopped")

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

// PointResult is a point with its trials.
type PointResult struct {
	Point  *Point
	Trials []Trial
}

// Counts reports whether any of the point's trials counts.
func (pr PointResult) Counts() bool { return slices.ContainsFunc(pr.Trials, Trial.Counts) }

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

// KneePoints are the finished points of a series along x, as knee
// detection takes them: the means over the trials that count. With all,
// a point none of whose trials counts is there too, with no figures.
func KneePoints(x string, done []PointResult, all bool) []stats.Point {
	var pts []stats.Point
	for _, pr := range done {
		v, err := strconv.ParseFloat(pr.Point.Values[x], 64)
		fs := CountedFigures(pr.Trials)
		switch {
		case len(fs) > 0 && err == nil:
			pts = append(pts, analysis.Summarize(fs).KneePoint(v))
		case all:
			pts = append(pts, stats.Point{X: v})
		}
	}
	return pts
}

// Events is what a sweep tells its caller as it goes, in order.
type Events interface {
	// Notice is a line to say: what the sweep did, or a warning, each
	// warning once per sweep.
	Notice(bench.Notice)
	TrialStarts(p *Point, trial, total int, warmup bool)
	// TrialDone follows every trial that measured anything; err is why
	// the sweep stops after it, if it does.
	TrialDone(p *Point, t Trial, err error)
	PointDone(p *Point, trials []Trial)
	SeriesDone(s *Series, done []PointResult)
}

// Config is what a sweep needs besides its plan.
type Config struct {
	Repeat       int
	DiscardFirst bool
	// Reload: nil loads again only when a varied property shapes the
	// data; true before every trial; false only into an empty collection.
	Reload *bool
	// OutDir is where results files go; "" for sweep-<id>.
	OutDir  string
	DataDir string // the embedded server's, when a point needs it
	Drop    bool   // a load sweep's --drop
	// Native is the native workload a load sweep runs; nil for YCSB's.
	// Each trial drops its collections first, as a YCSB load trial drops
	// the table.
	Native *native.File
	Limits bench.Limits
	Grace  time.Duration
	// Stop, when closed, stops the trial under way gracefully (its
	// results are kept, marked partial) and the sweep after it.
	Stop  <-chan struct{}
	Store *store.Store // nil: record nothing
	Tool  results.Tool
	// CommandLine is the load or run command line the sweep was given,
	// redacted; each trial records it with the point's values after it.
	CommandLine []string
	// Metrics is fed every trial, one phase after another (the
	// --metrics-addr endpoint); nil for none. MetricsRunID is its run_id
	// label, which each trial's results record.
	Metrics      bench.Sink
	MetricsRunID string
	// Display returns the sinks that show a trial as it runs.
	Display func() []bench.Sink
	// Knee decides when an automatic series has found its knee, and
	// bounds its threads (MaxX).
	Knee   stats.KneeOptions
	Events Events
	// Thresholds are judged on every trial (--threshold); those with
	// abortOnFail end the trial they fail in, not the sweep.
	Thresholds []threshold.Threshold
}

// ThresholdFailure is a trial that failed thresholds.
type ThresholdFailure struct {
	Point  map[string]string // the varied properties' values
	Trial  int
	File   string // its results file
	Failed []results.Threshold
}

// Sweep is a started sweep.
type Sweep struct {
	ID  string
	Dir string
	// IDs are the store's ids of the trials saved; Unsaved counts those
	// the store refused.
	IDs     []int64
	Unsaved int
	// ThresholdFailures are the trials that failed a threshold, in the
	// order they ran.
	ThresholdFailures []ThresholdFailure
	Server            *embedded.Server // serves the points without a URL; nil when none

	plan    *Plan
	cfg     Config
	clients map[string]*mongo.Client
	loaded  map[string]string // location → key of the data the sweep loaded there
	checked map[string]bool   // locations whose data was looked at
	said    map[string]bool   // warnings said
	// saturationSaid: a saturated embedded server is the machine's
	// limit, the same at every point: said once per sweep.
	saturationSaid bool
	points         int
	// findMax: the sweep is a search for the highest rate (FindMax).
	findMax bool
}

// Start creates the output directory, with an id unique against earlier
// directories and stored sweeps, and starts the embedded server when a
// point needs it. A directory the caller names must not hold results
// already, which the sweep's would be mixed with.
func Start(ctx context.Context, plan *Plan, cfg Config) (*Sweep, error) {
	s := &Sweep{plan: plan, cfg: cfg, clients: map[string]*mongo.Client{}, loaded: map[string]string{},
		checked: map[string]bool{}, said: map[string]bool{}}
	// The first point's warnings come first, before anything runs; each
	// point's own are said (once) as it starts.
	if len(plan.Points) > 0 {
		s.warn(plan.Points[0].Warnings)
	}
	s.ID = time.Now().UTC().Format("20060102-150405")
	dir, err := s.makeDir(ctx)
	if err != nil {
		return nil, err
	}
	s.Dir = dir
	if plan.NeedServer {
		srv, err := embedded.Start(ctx, embedded.Options{DataDir: cfg.DataDir})
		if err != nil {
			return nil, fmt.Errorf("cannot start the embedded server: %w", err)
		}
		s.Server = srv
		s.info("no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s for the whole sweep, data in %s", srv.URI(), srv.DataDir())
	}
	return s, nil
}

func (s *Sweep) makeDir(ctx context.Context) (string, error) {
	base := s.ID
	for n := 2; ; n++ {
		taken := false
		if s.cfg.OutDir == "" {
			_, err := os.Stat("sweep-" + s.ID)
			taken = err == nil
		}
		if !taken && s.cfg.Store != nil {
			runs, err := s.cfg.Store.List(ctx, store.Filter{SweepID: s.ID, Limit: 1})
			if err != nil {
				return "", err
			}
			taken = len(runs) > 0
		}
		if !taken {
			break
		}
		s.ID = fmt.Sprintf("%s-%d", base, n)
	}
	dir := s.cfg.OutDir
	if dir == "" {
		dir = "sweep-" + s.ID
	}
	if err := outfile.CheckDir(dir); err != nil {
		flag := "--out-dir"
		if s.cfg.OutDir == "" {
			flag = "the default --out-dir"
		}
		return "", bench.InputError{Err: fmt.Errorf("sweep: %s %s: %v: expected a directory mongobench may create files in (it is created if missing)", flag, dir, err)}
	}
	if entries, err := os.ReadDir(dir); err == nil && s.cfg.OutDir != "" {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") {
				return "", bench.InputError{Err: fmt.Errorf("sweep: --out-dir %s already holds results files (%s): name a new directory", dir, e.Name())}
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("sweep: cannot create the output directory: %w", err)
	}
	return dir, nil
}

// Close disconnects and stops the embedded server.
func (s *Sweep) Close() {
	for _, c := range s.clients {
		_ = c.Close(context.Background())
	}
	s.clients = nil
	if s.Server != nil {
		_ = s.Server.Close()
		s.Server = nil
	}
}

func (s *Sweep) info(format string, args ...any) {
	s.cfg.Events.Notice(bench.Notice{Kind: bench.Info, Text: fmt.Sprintf(format, args...)})
}

// notice passes n on, but a warning only the first time.
func (s *Sweep) notice(n bench.Notice) {
	if n.Kind == bench.Warning {
		if s.said[n.Text] {
			return
		}
		s.said[n.Text] = true
	}
	s.cfg.Events.Notice(n)
}

func (s *Sweep) warn(ws []string) {
	for _, w := range ws {
		s.notice(bench.Notice{Kind: bench.Warning, Text: w})
	}
}

func (s *Sweep) stopped() bool {
	select {
	case <-s.cfg.Stop:
		return true
	default:
		return false
	}
}

// Trials is how many trials each point runs, the warm-up included.
func (s *Sweep) Trials() int {
	if s.cfg.DiscardFirst {
		return s.cfg.Repeat + 1
	}
	return s.cfg.Repeat
}

// Run runs every series, then tells of each (also when stopped early).
// It returns ErrStopped when Config.Stop stopped it.
func (s *Sweep) Run(ctx context.Context) error {
	var runErr error
	for _, sr := range s.plan.Series {
		var done []PointResult
		if sr.Points == nil {
			done, runErr = s.runAuto(ctx, sr)
		} else {
			for _, p := range sr.Points {
				var pr PointResult
				pr, runErr = s.runPoint(ctx, p)
				if len(pr.Trials) > 0 {
					done = append(done, pr)
				}
				if runErr != nil {
					break
				}
			}
		}
		s.cfg.Events.SeriesDone(sr, done)
		if runErr != nil {
			break
		}
	}
	return runErr
}

// runAuto runs an automatic thread series: the threads double until
// stats.NextAutoStep sees the knee confirmed or reaches Knee.MaxX.
func (s *Sweep) runAuto(ctx context.Context, sr *Series) ([]PointResult, error) {
	var done []PointResult
	for {
		next, stop := stats.NextAutoStep(KneePoints(s.plan.X, done, true), s.cfg.Knee)
		if stop {
			return done, nil
		}
		p, err := s.plan.Point(withValue(sr.Fixed, s.plan.X, strconv.FormatFloat(next, 'f', -1, 64)))
		if err != nil {
			return done, err
		}
		pr, err := s.runPoint(ctx, p)
		if len(pr.Trials) > 0 {
			done = append(done, pr)
		}
		if err != nil {
			return done, err
		}
		if !pr.Counts() {
			return done, nil
		}
	}
}

// runPoint prepares the data for a point and runs its trials.
func (s *Sweep) runPoint(ctx context.Context, p *Point) (PointResult, error) {
	s.points++
	p.Index = s.points
	pr := PointResult{Point: p}
	s.warn(p.Warnings)
	url := p.Settings.URL
	if url == "" {
		url = s.Server.URI()
	}
	total := s.Trials()
	for trial := 1; trial <= total; trial++ {
		if s.stopped() {
			return pr, ErrStopped
		}
		// Before every trial: with Reload each one loads afresh, so that
		// the trials of a point measure the same thing; otherwise only
		// the first trial of a point may need a load.
		if s.plan.Command == "run" {
			if err := s.step(ctx, func(ctx context.Context) error { return s.prepareData(ctx, p, url, trial, total) }); err != nil {
				return pr, err
			}
		}
		warm := s.cfg.DiscardFirst && trial == 1
		s.cfg.Events.TrialStarts(p, trial, total, warm)
		if s.plan.Command == "load" {
			if err := s.step(ctx, func(ctx context.Context) error { return s.dropTable(ctx, p, url) }); err != nil {
				return pr, err
			}
		}
		t, err := s.runTrial(ctx, p, url, trial, warm)
		if t.Results != nil {
			pr.Trials = append(pr.Trials, t)
			s.cfg.Events.TrialDone(p, t, err)
		}
		if err != nil {
			return pr, err
		}
	}
	s.cfg.Events.PointDone(p, pr.Trials)
	return pr, nil
}

// step runs one of the sweep's own steps between runs (connecting,
// counting, dropping, loading) under a context the stop cancels: they
// would otherwise wait out their timeouts on a server that does not
// answer. A step cut short by the stop stops the sweep.
func (s *Sweep) step(ctx context.Context, f func(context.Context) error) error {
	c, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.cfg.Stop:
			cancel()
		case <-c.Done():
		}
	}()
	err := f(c)
	if err != nil && s.stopped() {
		return ErrStopped
	}
	return err
}

// trialSettings are a point's settings for one trial or load: its
// properties with set over them (mongodb.url when the embedded server
// serves it).
func (s *Sweep) trialSettings(p *Point, set ...string) (*bench.Settings, error) {
	props := p.Settings.Props.Clone()
	for i := 0; i+1 < len(set); i += 2 {
		props.Set(set[i], set[i+1], "-p")
	}
	st, _, err := resolve(s.plan.Command, props, s.plan.EnvURL)
	return st, err
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
			Settings: settings, Drop: (s.cfg.Drop || s.cfg.Native != nil) && s.plan.Command == "load",
			Native: s.cfg.Native,
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
