package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
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
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/threshold"
)

// ErrStopped ends a sweep that Config.Stop asked to stop.
var ErrStopped = errors.New("sweep stopped")

// PointResult is a point with its trials.
type PointResult struct {
	Point  *Point
	Trials []Trial
}

// Counts reports whether any of the point's trials counts.
func (pr PointResult) Counts() bool { return slices.ContainsFunc(pr.Trials, Trial.Counts) }

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
	// Native is the native workload the sweep runs, for points that have
	// none of their own (Point.Native); nil for YCSB's. Each load trial
	// drops its collections first, as a YCSB load trial drops the table.
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
		// the first trial of a point may need a load. TPC-C's run phase
		// loads its own data, into an empty server (bench.prepareTPCC).
		if s.plan.Command == "run" && p.Settings.TPCC == nil {
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
