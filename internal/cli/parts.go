package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// runIDEnv names the run when --run-id is not given: a Kubernetes Job sets
// it to its own uid, unique to each run of the job.
const runIDEnv = "MONGOBENCH_RUN_ID"

// defaultBarrierTimeout is long enough for a cluster to schedule every
// pod of a job and pull its image.
const defaultBarrierTimeout = 10 * time.Minute

// partArgs are the flags of a partitioned run, as given.
type partArgs struct {
	part           string // --part I/N
	parts          int64  // --parts N
	runID          string // --run-id
	startAt        time.Time
	barrierTimeout time.Duration
}

// defs are the flags, bound to a.
func (a *partArgs) defs() []flagDef {
	return []flagDef{
		textFlag("part", "I/N", "run part I of N (counted from 0) of a run split over N client processes:\nits slice of the keys to load, or its share of operationcount and -target", true, &a.part),
		funcFlag("parts", "N", "split the run into N parts, this process's being $"+partition.EnvIndex+"\n(as a Kubernetes Indexed Job sets it), unless --part says", true, func(v string) (err error) {
			a.parts, err = workload.ParseInt(v, 1, partition.MaxParts)
			if err != nil {
				return fmt.Errorf("--parts %q is invalid: expected a number of parts from 1 to %d", v, partition.MaxParts)
			}
			return nil
		}),
		textFlag("run-id", "ID", "the name the parts of one run share (default $"+runIDEnv+", else a hash of\nthe command's properties)", true, &a.runID),
		funcFlag("start-at", "TIME", "start measuring at TIME (RFC 3339, such as 2026-01-02T15:04:05Z), not at a\nbarrier with the other parts", true, func(v string) error {
			t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("--start-at %q is invalid: expected a time in RFC 3339 form, such as 2026-01-02T15:04:05Z", shortArg(v))
			}
			if ahead := time.Until(t); ahead > maxStartAhead {
				return fmt.Errorf("--start-at %s is %s from now: expected an instant within %s, which the parts wait for doing nothing", t.UTC().Format(time.RFC3339), roundAhead(ahead), maxStartAheadText)
			}
			a.startAt = t
			return nil
		}),
		funcFlag("barrier-timeout", "D", "how long a part waits for the others at the barrier, such as 5m\n(default 10m)", true, func(v string) (err error) {
			a.barrierTimeout, err = time.ParseDuration(strings.TrimSpace(v))
			if err != nil || a.barrierTimeout <= 0 {
				return fmt.Errorf("--barrier-timeout %q is invalid: expected a duration greater than 0, such as 30s or 10m", shortArg(v))
			}
			return nil
		}),
	}
}

// partPlan is a resolved partitioned run: which part, of which run, its
// share and the whole's.
type partPlan struct {
	part    partition.Part
	runID   string
	whole   results.Share
	share   results.Share
	startAt time.Time
	timeout time.Duration
}

// resolvePart narrows spec to this process's part, if it is one. The url
// is the one the parts share; "" for the embedded server.
func resolvePart(command string, a *partArgs, props *workload.Properties, spec *workload.Spec, url string, env Env) (*partPlan, error) {
	part, err := partition.Resolve(a.part, int(a.parts), env.Getenv)
	if err != nil {
		return nil, badInput{err}
	}
	if part.Whole() {
		if a.runID != "" || a.barrierTimeout != 0 {
			return nil, badInputf("--run-id and --barrier-timeout go with --part or --parts: this run is not split into parts")
		}
		if !a.startAt.IsZero() {
			return &partPlan{part: part, startAt: a.startAt}, nil
		}
		return nil, nil
	}
	if url == "" {
		return nil, badInputf("--part %s needs mongodb.url (or $MONGOBENCH_URL): the parts of a run share one server, and each would start an embedded server of its own", part)
	}
	p := &partPlan{part: part, whole: shareOf(spec), startAt: a.startAt, timeout: a.barrierTimeout}
	if p.timeout == 0 {
		p.timeout = defaultBarrierTimeout
	}
	if err := part.Apply(spec); err != nil {
		return nil, badInput{err}
	}
	p.share = shareOf(spec)
	p.runID = strings.TrimSpace(a.runID)
	if p.runID == "" {
		p.runID = strings.TrimSpace(env.Getenv(runIDEnv))
	}
	if p.runID == "" {
		p.runID = defaultRunID(command, props, part.Count)
	}
	if n := utf8.RuneCountInString(p.runID); n > maxRunID {
		// Named by its start and length: echoed whole, a run id of
		// 100,000 characters would be the whole message.
		return nil, badInputf("--run-id %q… (%d characters) is too long: expected printable text of at most %d characters", printable.String(string([]rune(p.runID)[:24])), n, maxRunID)
	}
	if len(p.runID) > 4*maxRunID || !printable.Clean(p.runID) {
		return nil, badInputf("--run-id %q is invalid: expected printable text of at most %d characters", printable.String(p.runID), maxRunID)
	}
	return p, nil
}

// maxStartAhead bounds --start-at: the parts of a run are started
// together by hand or by a scheduler minutes or hours ahead; an instant
// years away is a typo, and would leave the processes waiting for it.
const (
	maxStartAhead     = 24 * time.Hour
	maxStartAheadText = "24 hours"
)

// roundAhead says how far ahead an instant is, in days past two days.
func roundAhead(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days", int64(d/(24*time.Hour)))
	}
	return d.Round(time.Minute).String()
}

// shortArg is a flag's value as a message quotes it: redacted, and cut
// to its start when long, so that a value of 100,000 characters is not
// the whole message.
func shortArg(v string) string {
	const keep = 40
	v = redact.Arg(v)
	if r := []rune(v); len(r) > keep {
		return fmt.Sprintf("%s… (%d characters)", string(r[:keep]), len(r))
	}
	return v
}

// maxRunID bounds --run-id (and $MONGOBENCH_RUN_ID), which names the
// parts' documents in the coordination collection and every message
// about the run.
const maxRunID = 128

func shareOf(spec *workload.Spec) results.Share {
	return results.Share{InsertStart: spec.InsertStart, InsertCount: spec.InsertCount, OperationCount: spec.OperationCount, Target: spec.Target}
}

// defaultRunID names a run by what every part of it shares: the command,
// the number of parts and the properties (the seed aside, which a part
// picks for itself when none is given).
func defaultRunID(command string, props *workload.Properties, parts int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", command, parts)
	keys := slices.Clone(props.Keys())
	slices.Sort(keys)
	for _, k := range keys {
		if k == "seed" {
			continue
		}
		v, _ := props.Get(k)
		fmt.Fprintf(h, "%s=%s\x00", k, v)
	}
	return command + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// synchronize waits for the instant this part starts measuring at: the
// one given by --start-at, or the barrier's in the coordination
// collection of the database under test (coll); how is "start-at" or
// "barrier".
func (p *partPlan) synchronize(ctx context.Context, env Env, b *partition.Barrier) (at time.Time, how string, err error) {
	b.RunID, b.Part, b.Timeout = p.runID, p.part, p.timeout
	return partition.StartInstant(ctx, p.startAt, b, func(msg string) { fmt.Fprintf(env.Stderr, "mongobench: %s\n", msg) })
}

// record is the results file's account of the part.
func (p *partPlan) record(seed uint64, at time.Time, how string) *results.Part {
	if p.part.Whole() {
		return nil
	}
	return &results.Part{Index: p.part.Index, Count: p.part.Count, RunID: p.runID, Share: p.share, Whole: p.whole,
		Seed: seed, StartAt: at.UTC(), Sync: how}
}
