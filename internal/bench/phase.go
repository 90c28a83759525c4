package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// PostPhaseLimit bounds what is asked of the server once the phase is over
// (sizes, disconnecting): the run may have ended because the server went
// away or hung, and without a deadline each command would wait out the
// driver's server selection, holding the summary back by half a minute.
const PostPhaseLimit = 5 * time.Second

// postPhaseContext is ctx without its cancellation (a stop must not lose
// the figures) but with a deadline of PostPhaseLimit, or the connect
// timeout when that is shorter.
func postPhaseContext(ctx context.Context, connect time.Duration) (context.Context, context.CancelFunc, time.Duration) {
	d := min(PostPhaseLimit, connect)
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	return c, cancel, d
}

// sizesWithin reads the collection's and database's sizes under ctx, whose
// deadline is limit; what could not be read keeps its reason, and one cut
// short by the deadline says so rather than leave the driver's "context
// deadline exceeded" to explain it.
func sizesWithin(ctx context.Context, limit time.Duration, when string, monitor *driver.Client, dbName, table string) metrics.SizeStats {
	sizes, _ := metrics.Sizes(ctx, monitor, dbName, table)
	if ctx.Err() != nil {
		for _, e := range []*string{&sizes.DBError, &sizes.CollectionError} {
			if *e != "" {
				*e = fmt.Sprintf("no answer within %s %s (%s)", limit, when, *e)
			}
		}
	}
	return sizes
}

// Limits are the stop rules on failures of a prepared phase.
type Limits struct {
	// MaxErrors stops the phase once that many operations failed; 0 for
	// no limit.
	MaxErrors int64
	// MaxErrorRate stops the phase once more than this share of the
	// operations finished in a window of whole intervals failed; 0 for
	// no limit.
	MaxErrorRate float64
	// Abort, when closed, ends the phase as Stop does, for the caller's
	// own rule (a threshold with abortOnFail); nil for none.
	Abort <-chan struct{}
}

// Config is the phase p runs with limits: every operation of a load
// (insertcount) or a run (operationcount), observed.
func (p *Prepared) Config(limits Limits) Config {
	spec := p.t.Spec
	ops := spec.OperationCount
	if p.t.Command == "load" {
		ops = spec.InsertCount
		if f := p.t.Native; f != nil && f.Load.Count == 0 {
			ops = 0 // the load phase's duration ends it
		}
	}
	return Config{
		Command: p.t.Command, Core: p.core, Ops: p.ops, Spec: spec, Client: p.Client, Seed: p.Seed,
		BatchSize: p.t.BatchSize, Operations: ops,
		MaxErrors: limits.MaxErrors, MaxErrorRate: limits.MaxErrorRate, Abort: limits.Abort,
		Observe: !p.t.OperationsOnly, Monitor: p.Monitor, LocalHost: p.Server != nil || IsLocalURL(p.URL),
		Stop: p.t.Stop, Grace: p.t.Grace, Notify: p.t.Notify,
	}
}

// Run runs the prepared phase: the warm-up (warmuptime), the topology and
// sizes before it, the phase itself feeding sinks, and the sizes after it.
// What it read around the phase is in the Observation, ready for
// Outcome.Results. A stop before the phase starts is an *Interrupted
// error; one during it makes the outcome partial.
func (p *Prepared) Run(ctx context.Context, limits Limits, sinks ...Sink) (*Outcome, Observation, error) {
	t, spec := &p.t, p.t.Spec
	cfg := p.Config(limits)
	setup, cancel := stoppable(ctx, t.Stop)
	defer cancel()
	var obs Observation
	if t.OperationsOnly {
		out, err := p.runPhase(ctx, setup, &cfg, &obs, sinks)
		return out, obs, err
	}
	if t.Command == "run" && (spec.WarmupTime > 0 || p.warmupOps != nil) {
		// Under setup: a stop during the warm-up ends the command, and
		// nothing of the warm-up is kept, so its operations in flight are
		// cut short rather than granted Grace.
		w, s, err := p.warmup(setup, cfg)
		if err != nil {
			return nil, obs, err
		}
		t.notify(Info, "%s", warmupLine(w, s))
		if err := t.step(nil, "warming up"); err != nil {
			return nil, obs, err
		}
		obs.Warmup = w
	}
	// The facts read before the phase get a deadline too: a server that
	// stalls after answering the first ping must not hang the run here,
	// before its clock has even started.
	preLimit := max(t.Connect, 10*time.Second)
	preCtx, cancelPre := context.WithTimeout(setup, preLimit)
	topology := metrics.Topology(preCtx, p.Monitor, p.Database, spec.Table)
	sizesBefore := sizesWithin(preCtx, preLimit, "before the phase", p.Monitor, p.Database, spec.Table)
	cancelPre()
	p.shards = p.openShardMonitors(setup, &topology)
	cfg.Shards = p.shards
	if err := t.step(nil, "reading the server's topology and sizes"); err != nil {
		return nil, obs, err
	}
	out, err := p.runPhase(ctx, setup, &cfg, &obs, sinks)
	if err != nil {
		return nil, obs, err
	}
	postCtx, cancelPost, postLimit := postPhaseContext(ctx, t.Connect)
	sizesAfter := sizesWithin(postCtx, postLimit, "after the phase", p.Monitor, p.Database, spec.Table)
	obs.Sharding = readShardingRun(postCtx, p.Monitor, &topology, out.Summary, spec.StatusInterval)
	cancelPost()
	// Sizes that could not be read are kept with the reason: the summary
	// and results file say "not available" and why.
	obs.Topology, obs.SizesBefore, obs.SizesAfter = &topology, &sizesBefore, &sizesAfter
	obs.Client = out.Client(p.Server != nil || ServedInProcess(p.URL))
	if p.Server != nil {
		if err := p.Server.EnsureIDIndexes(ctx); err != nil {
			t.notify(Warning, "embedded server: %v", err)
		}
	}
	return out, obs, nil
}

// runPhase runs the phase itself, between the hooks that bound it: the
// caller's BeforePhase (under setup, which a stop cancels) and
// AfterPhase.
func (p *Prepared) runPhase(ctx, setup context.Context, cfg *Config, obs *Observation, sinks []Sink) (*Outcome, error) {
	t := &p.t
	if t.BeforePhase != nil {
		part, err := t.BeforePhase(setup, p)
		if err := t.step(err, "waiting for the start"); err != nil {
			return nil, err
		}
		obs.Part = part
		cfg.Part = part
	}
	p.measuring = true
	out, err := Run(ctx, *cfg, sinks...)
	if t.AfterPhase != nil {
		t.AfterPhase()
	}
	return out, err
}

// warmupLine says what a warm-up did in one line.
func warmupLine(w *results.Warmup, s *measure.Summary) string {
	var parts []string
	for _, m := range s.Measurements {
		if p99, ok := w.P99us[m.Name]; ok && !m.Failed {
			parts = append(parts, fmt.Sprintf("%s p99 %d us", m.Name, p99))
		}
	}
	return fmt.Sprintf("warm-up: %d %s in %.1f s (%.0f ops/s; %s), left out of the summary",
		w.Operations, operations(w.Operations), w.Seconds, w.Throughput, strings.Join(parts, ", "))
}

// FailedOperations counts operations whose status is not OK, excluding
// NOT_FOUND, which is a legitimate answer.
func FailedOperations(s *measure.Summary) int64 {
	var n int64
	for op := range s.Status {
		if db.Op(op) == db.InsertBatch {
			continue
		}
		for st, c := range s.Status[op] {
			if !db.Status(st).IsOK() && db.Status(st) != db.NotFound {
				n += c
			}
		}
	}
	return n
}

// Failure is the phase's verdict on itself: stopped by a limit on
// failures, every operation failed, or its key lookups found (almost)
// nothing (db.NotFoundFailShare); nil when it measured what it was to
// measure.
func (o *Outcome) Failure() error {
	if o.finishErr != nil {
		return o.finishErr
	}
	if es := o.ErrorStop; es != nil {
		if es.Flag == "--max-errors" {
			return fmt.Errorf("stopped after %d failed operations (--max-errors %d); the summary and results cover what ran", es.Failed, o.maxErrors)
		}
		return fmt.Errorf("stopped early: %s; the summary and results cover what ran", es.Reason)
	}
	if failed := FailedOperations(o.Summary); failed > 0 && failed == o.Summary.Operations {
		if failed == 1 {
			return errors.New("the one operation failed (see the Return= and Error lines)")
		}
		return fmt.Errorf("every one of the %d operations failed (see the Return= and Error lines)", failed)
	}
	if w := o.NotFound().Sentence(); w != "" {
		return errors.New(w)
	}
	return nil
}

// NotFound counts the phase's key lookups and those answered NOT_FOUND;
// its Sentence is the warning of a phase that found (almost) nothing.
func (o *Outcome) NotFound() db.NotFoundCount {
	var c db.NotFoundCount
	for op := range o.Summary.Status {
		for st, n := range o.Summary.Status[op] {
			c.Add(db.Op(op), db.Status(st), n)
		}
	}
	return c
}

// urlHosts returns the host:port list of a mongodb:// URL; nil for a
// mongodb+srv:// URL, whose hosts only DNS knows.
func urlHosts(uri string) []string {
	rest, ok := strings.CutPrefix(uri, "mongodb://")
	if !ok {
		return nil
	}
	// A password may hold '/' unescaped; the last '@' ends it.
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	return strings.Split(rest, ",")
}

// ServedInProcess reports whether a host of the URL is an embedded server
// running in this process, as a sweep's is.
func ServedInProcess(uri string) bool {
	for _, h := range urlHosts(uri) {
		if embedded.InProcess(h) {
			return true
		}
	}
	return false
}

// IsLocalURL reports whether every host of a mongodb:// URL is this
// machine, so host metrics describe the server too.
func IsLocalURL(uri string) bool {
	hosts := urlHosts(uri)
	if hosts == nil {
		return false
	}
	for _, h := range hosts {
		host := h
		if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
			host = h[:i]
		}
		host = strings.Trim(host, "[]")
		if host != "localhost" && !strings.HasPrefix(host, "127.") && host != "::1" {
			return false
		}
	}
	return true
}

// ScheduleNote says how many operations started late or were cut short
// by the end of the phase; "" when none. Without a target there is no
// schedule to be behind.
func (o *Outcome) ScheduleNote(target float64) string {
	late, cut := o.Result.LateStarts, o.Result.Abandoned
	switch {
	case target > 0 && (late > 0 || cut > 0):
		return fmt.Sprintf("%d %s started over 1 ms behind schedule; %d %s cut short by the end of the phase and not counted",
			late, operations(late), cut, wasWere(cut))
	case cut > 0:
		return fmt.Sprintf("%d %s cut short by the end of the phase and not counted", cut, operations(cut)+" "+wasWere(cut))
	}
	return ""
}

func operations(n int64) string {
	if n == 1 {
		return "operation"
	}
	return "operations"
}

func wasWere(n int64) string {
	if n == 1 {
		return "was"
	}
	return "were"
}
