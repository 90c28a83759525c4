package calibrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/workload"
)

// rssSamplePeriod is how often the resident set size is read during a
// measurement: often enough to see the peak of a run of a few seconds, for
// a cost far below the figures' noise.
const rssSamplePeriod = 100 * time.Millisecond

// connectTimeout bounds connecting to the null server, as the binding
// bounds it when given none; the phase's closing reads get no longer.
const connectTimeout = 10 * time.Second

// calibrationSeed fixes the workload's random choices unless -p seed says
// otherwise, so repeats measure the same sequence of operations.
const calibrationSeed = 1

type measurer struct {
	// leanFallbacks is what the lean path left to the driver's.
	leanFallbacks []string
	url           string
	server        *server
	progress      io.Writer
}

func (m *measurer) logf(format string, args ...any) {
	if m.progress != nil {
		fmt.Fprintf(m.progress, format+"\n", args...)
	}
}

// measurePoint measures pt Repeats times, alternating the two paths so
// that a drift of the machine falls on both alike.
func (m *measurer) measurePoint(ctx context.Context, o *Options, pt point) (*Point, error) {
	spec, err := o.spec(pt, pt.threads)
	if err != nil {
		return nil, err
	}
	p := &Point{Name: pt.name, Phase: "run", Threads: pt.threads}
	if pt.load {
		p.Phase, p.BatchSize = "load", pt.batchSize
	}
	for i := range o.Repeats {
		trial := ""
		if o.Repeats > 1 {
			trial = fmt.Sprintf(" (%d of %d)", i+1, o.Repeats)
		}
		runBare := func() error {
			f, err := m.bare(ctx, spec, pt.threads, o.Operations)
			if err != nil {
				return fmt.Errorf("bare driver loop at %d threads: %w", pt.threads, err)
			}
			m.logf("calibrate: %-20s %4d threads  bare        %s%s", pt.name, pt.threads, f.brief(), trial)
			p.BareTrials = append(p.BareTrials, f)
			return nil
		}
		runPath := func(path string) error {
			f, err := m.mongobench(ctx, spec, pt, path)
			if err != nil {
				return fmt.Errorf("%s at %d threads (mongodb.path=%s): %w", pt.name, pt.threads, path, err)
			}
			name := "mongobench"
			if path == mongo.PathLean {
				name = "lean"
				p.LeanTrials = append(p.LeanTrials, f)
			} else {
				p.MongobenchTrials = append(p.MongobenchTrials, f)
			}
			m.logf("calibrate: %-20s %4d threads  %-10s  %s%s", pt.name, pt.threads, name, f.brief(), trial)
			return nil
		}
		// The measurements take turns, each trial starting one further
		// along, so that none always inherits another's after-effects.
		steps := []func() error{func() error { return runPath(mongo.PathDriver) }, func() error { return runPath(mongo.PathLean) }}
		if pt.bare {
			steps = append([]func() error{runBare}, steps...)
		}
		for j := range steps {
			if err := steps[(i+j)%len(steps)](); err != nil {
				return nil, err
			}
		}
	}
	p.Mongobench = medianFigures(p.MongobenchTrials)
	if len(p.LeanTrials) > 0 {
		l := medianFigures(p.LeanTrials)
		p.Lean = &l
	}
	if len(p.BareTrials) > 0 {
		b := medianFigures(p.BareTrials)
		p.Bare = &b
		if b.CPUPerOpUs > 0 {
			pct := 100 * (p.Mongobench.CPUPerOpUs/b.CPUPerOpUs - 1)
			p.OverheadPct = &pct
			if p.Lean != nil {
				lpct := 100 * (p.Lean.CPUPerOpUs/b.CPUPerOpUs - 1)
				p.LeanOverheadPct = &lpct
			}
		}
	}
	return p, nil
}

// warmUp runs every path briefly, unmeasured, so that the first point does
// not pay for what every later one finds ready: the heap grown, code paged
// in, the server's first connections accepted.
func (m *measurer) warmUp(ctx context.Context, o *Options) error {
	pt := point{name: o.Workload, threads: o.Threads[0]}
	spec, err := o.spec(pt, pt.threads)
	if err != nil {
		return err
	}
	ops := max(o.Operations/10, 1)
	spec.OperationCount = ops
	if _, err := m.bare(ctx, spec, pt.threads, ops); err != nil {
		return fmt.Errorf("warm-up: bare driver loop: %w", err)
	}
	for _, path := range []string{mongo.PathDriver, mongo.PathLean} {
		if _, err := m.mongobench(ctx, spec, pt, path); err != nil {
			return fmt.Errorf("warm-up: %s (mongodb.path=%s): %w", pt.name, path, err)
		}
	}
	return nil
}

func (f Figures) brief() string {
	return fmt.Sprintf("%9.0f ops/s  %6.1f µs CPU/op  p50 %d µs  p99 %d µs  RSS %.1f MiB",
		f.OpsPerSec, f.CPUPerOpUs, f.P50Us, f.P99Us, float64(f.PeakRSSBytes)/(1<<20))
}

// settle collects the garbage of the previous measurement and returns
// freed memory to the system, so that neither is billed to the next one.
func settle() { debug.FreeOSMemory() }

// window is the span of one measurement: the client's own usage and the
// child server's CPU.
type window struct {
	probe     *selfmon.Probe
	serverCPU time.Duration
	srv       *server
	// usage and serverUsed are what the span used, once stopped.
	usage      selfmon.Usage
	serverUsed time.Duration
}

func (m *measurer) begin() *window {
	settle()
	return &window{srv: m.server, serverCPU: m.server.cpu(), probe: selfmon.StartSampling(rssSamplePeriod)}
}

// stop ends the span: what the client and the server used up to now.
func (w *window) stop() {
	w.usage = w.probe.Stop()
	if w.srv.pid != 0 {
		w.serverUsed = w.srv.cpu() - w.serverCPU
	}
}

func (w *window) end(ops, failed int64, latency *hdrhistogram.Histogram) Figures {
	w.stop()
	return w.figures(ops, failed, latency)
}

// figures are the measurement's, from what the stopped span used.
func (w *window) figures(ops, failed int64, latency *hdrhistogram.Histogram) Figures {
	u := w.usage
	f := Figures{
		Operations:   ops,
		Failed:       failed,
		Seconds:      u.Wall.Seconds(),
		PeakRSSBytes: u.PeakRSS,
		Utilization:  u.Utilization,
	}
	if ops > 0 {
		n := float64(ops)
		f.OpsPerSec = n / u.Wall.Seconds()
		f.CPUPerOpUs = float64(u.CPU().Microseconds()) / n
		f.UserPerOpUs = float64(u.User.Microseconds()) / n
		f.SystemPerOpUs = float64(u.System.Microseconds()) / n
		if w.srv.pid != 0 {
			f.ServerCPUPerOpUs = float64(w.serverUsed.Microseconds()) / n
		}
	}
	if latency != nil && latency.TotalCount() > 0 {
		f.P50Us = latency.ValueAtQuantile(50)
		f.P99Us = latency.ValueAtQuantile(99)
	}
	return f
}

// mongobench measures the point through mongobench's own path, the one a
// load or run command takes: bench.Execute, the binding's client, the
// workload's core, and bench.Run's workers and collector, without the
// outputs, and sending the server nothing but the operations
// (bench.Target.OperationsOnly: no metrics sampled, no monitoring
// connection). Connecting and building the workload come before the
// measurement, as set-up; the measurement spans the phase alone, from
// BeforePhase to AfterPhase.
func (m *measurer) mongobench(ctx context.Context, spec *workload.Spec, pt point, path string) (Figures, error) {
	command := "run"
	if pt.load {
		command = "load"
	}
	if !spec.SeedSet {
		phase := *spec
		phase.Seed, phase.SeedSet = calibrationSeed, true
		spec = &phase
	}
	var w *window
	stopped := false
	done, err := bench.Execute(ctx, bench.Execution{
		Target: bench.Target{
			Settings: &bench.Settings{
				Command: command, Spec: spec, URL: m.url, BatchSize: max(pt.batchSize, 1),
				Connect: connectTimeout, Path: path,
			},
			Native:         pt.native,
			OperationsOnly: true,
			BeforePhase: func(_ context.Context, p *bench.Prepared) (*results.Part, error) {
				if got, fb := p.Client.Path(); got == mongo.PathLean && m.leanFallbacks == nil {
					m.leanFallbacks = fb
				}
				w = m.begin()
				return nil, nil
			},
			AfterPhase: func() {
				w.stop()
				stopped = true
			},
		},
		Meta: func(*bench.Prepared) results.Meta {
			return results.Meta{Tool: results.Tool{Name: "mongobench"}, Phase: command}
		},
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if w != nil && !stopped {
			w.probe.Stop()
		}
		return Figures{}, err
	}
	summary := done.Outcome.Summary
	latency, failed := overall(summary)
	f := w.figures(summary.Operations, failed, latency)
	if lag := summary.ScheduleLag; lag != nil && lag.TotalCount() > 0 {
		f.LagP50Us, f.LagP99Us = lag.ValueAtQuantile(50), lag.ValueAtQuantile(99)
	}
	if f.Operations > 0 && failed == f.Operations {
		return f, fmt.Errorf("every one of the %d operations failed (is %s a null server?)", failed, redact.URL(m.server.uri))
	}
	return f, nil
}

// overall merges the latencies of every counted operation, successes and
// failures, and counts the failures.
func overall(s *measure.Summary) (*hdrhistogram.Histogram, int64) {
	h := measure.NewHistogram()
	for _, m := range s.Measurements {
		if !measure.CountsAsOperation(m.Op) {
			continue
		}
		src := m.Service
		if src == nil {
			src = m.Intended
		}
		if src != nil {
			h.Merge(src)
		}
	}
	var failed int64
	for op := range s.Status {
		if !measure.CountsAsOperation(db.Op(op)) {
			continue
		}
		for st, n := range s.Status[op] {
			if !db.Status(st).IsOK() && db.Status(st) != db.NotFound {
				failed += n
			}
		}
	}
	return h, failed
}

// bare measures the floor: threads goroutines calling the driver's
// FindOne by _id on one fixed key, the reply kept raw, with nothing
// around the call but a clock read for its latency. The filter is encoded
// once: the floor is the driver's own cost.
func (m *measurer) bare(ctx context.Context, spec *workload.Spec, threads int, ops int64) (Figures, error) {
	// Its pool is opened before the loop, as mongobench's paths open
	// theirs, so that both measure a pool of one connection per thread
	// rather than one still dialling; the loop itself is the driver's.
	client, err := mongo.ConnectWarm(ctx, mongo.DefaultPoolSize(options.Client().ApplyURI(m.url), threads), threads, 30*time.Second)
	if err != nil {
		// The driver's message may quote the URL's option values.
		return Figures{}, fmt.Errorf("cannot connect to %s: %s", redact.URL(m.url), redact.Error(err.Error(), m.url))
	}
	defer client.Disconnect(context.WithoutCancel(ctx))
	if err := client.Ping(ctx, nil); err != nil {
		return Figures{}, fmt.Errorf("no server answered at %s: %s", redact.URL(m.server.uri), redact.Error(err.Error(), m.url))
	}
	coll := client.Database(mongo.DatabaseFromURL(m.url)).Collection(spec.Table)
	filter := bson.Raw(bsoncore.NewDocumentBuilder().AppendString("_id", spec.KeyName(0)).Build())

	// A few shared histograms rather than one per goroutine: a histogram
	// is a few hundred KiB, and at 1,000 threads the loop's own memory
	// figure would otherwise be mostly the harness's. Each goroutine
	// buffers its latencies and takes a shard's lock once per batch.
	shards := make([]latencyShard, min(threads, 8))
	for i := range shards {
		shards[i].h = measure.NewHistogram()
	}
	var (
		next, failed atomic.Int64
		firstErr     error
		errOnce      sync.Once
		wg           sync.WaitGroup
	)
	w := m.begin()
	for i := range threads {
		wg.Add(1)
		go func(sh *latencyShard) {
			defer wg.Done()
			var buf latencyBatch
			for next.Add(1) <= ops && ctx.Err() == nil {
				start := time.Now()
				raw, err := coll.FindOne(ctx, filter).Raw()
				us := time.Since(start).Microseconds()
				if err != nil || len(raw) == 0 {
					failed.Add(1)
					errOnce.Do(func() { firstErr = err })
				}
				buf.v[buf.n] = us
				if buf.n++; buf.n == len(buf.v) {
					sh.record(&buf)
				}
			}
			sh.record(&buf)
		}(&shards[i%len(shards)])
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		w.probe.Stop()
		return Figures{}, err
	}
	for i := range shards[1:] {
		shards[0].h.Merge(shards[i+1].h)
	}
	f := w.end(ops, failed.Load(), shards[0].h)
	if f.Failed == ops {
		if firstErr == nil {
			firstErr = errors.New("empty replies")
		}
		return f, fmt.Errorf("every find failed: %w", firstErr)
	}
	return f, nil
}

// latencyShard is one of the bare loop's histograms and its lock.
type latencyShard struct {
	mu sync.Mutex
	h  *hdrhistogram.Histogram
}

// latencyBatch is one goroutine's latencies not yet in a histogram.
type latencyBatch struct {
	v [128]int64
	n int
}

// record moves b's latencies into the shard's histogram and empties b.
func (s *latencyShard) record(b *latencyBatch) {
	s.mu.Lock()
	for _, us := range b.v[:b.n] {
		_ = s.h.RecordValue(max(us, measure.LowestTrackableUs))
	}
	s.mu.Unlock()
	b.n = 0
}

// medianFigures returns, figure by figure, the median of the trials.
func medianFigures(trials []Figures) Figures {
	if len(trials) == 1 {
		return trials[0]
	}
	mf := func(get func(Figures) float64) float64 {
		v := make([]float64, len(trials))
		for i, t := range trials {
			v[i] = get(t)
		}
		return median(v)
	}
	mi := func(get func(Figures) int64) int64 {
		return int64(mf(func(f Figures) float64 { return float64(get(f)) }) + 0.5)
	}
	return Figures{
		Operations:       mi(func(f Figures) int64 { return f.Operations }),
		Failed:           mi(func(f Figures) int64 { return f.Failed }),
		Seconds:          mf(func(f Figures) float64 { return f.Seconds }),
		OpsPerSec:        mf(func(f Figures) float64 { return f.OpsPerSec }),
		CPUPerOpUs:       mf(func(f Figures) float64 { return f.CPUPerOpUs }),
		UserPerOpUs:      mf(func(f Figures) float64 { return f.UserPerOpUs }),
		SystemPerOpUs:    mf(func(f Figures) float64 { return f.SystemPerOpUs }),
		ServerCPUPerOpUs: mf(func(f Figures) float64 { return f.ServerCPUPerOpUs }),
		P50Us:            mi(func(f Figures) int64 { return f.P50Us }),
		P99Us:            mi(func(f Figures) int64 { return f.P99Us }),
		LagP50Us:         mi(func(f Figures) int64 { return f.LagP50Us }),
		LagP99Us:         mi(func(f Figures) int64 { return f.LagP99Us }),
		PeakRSSBytes:     mi(func(f Figures) int64 { return f.PeakRSSBytes }),
		Utilization:      mf(func(f Figures) float64 { return f.Utilization }),
	}
}

// median returns the middle value, or the mean of the two middle values.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
