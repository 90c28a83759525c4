package partition

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// EnvRunID names the run when --run-id is not given: a Kubernetes Job
// sets it to its own uid, unique to each run of the job.
const EnvRunID = "MONGOBENCH_RUN_ID"

// DefaultBarrierTimeout is long enough for a cluster to schedule every
// pod of a job and pull its image.
const DefaultBarrierTimeout = 10 * time.Minute

// MaxRunID bounds a run id, which names the parts' documents in the
// coordination collection and every message about the run.
const MaxRunID = 128

// Given is how a process was told it is a part, as given: --part, --parts,
// --run-id, --start-at and --barrier-timeout.
type Given struct {
	Part           string // "I/N"; "" when not given
	Parts          int    // 0 when not given
	RunID          string
	StartAt        time.Time
	BarrierTimeout time.Duration
}

// Plan is a resolved partitioned run: which part, of which run, its share
// and the whole's; or, for a whole run, only the instant it starts at.
type Plan struct {
	Part    Part
	RunID   string
	Whole   results.Share
	Share   results.Share
	StartAt time.Time
	Timeout time.Duration
}

// NewPlan narrows spec to this process's part, if it is one, and says
// which; nil when the run is whole and starts when it is ready. url is
// the server the parts share, "" for the embedded server. Every error is
// in what was given.
func NewPlan(command string, g Given, props *workload.Properties, spec *workload.Spec, url string, getenv func(string) string) (*Plan, error) {
	part, err := Resolve(g.Part, g.Parts, getenv)
	if err != nil {
		return nil, err
	}
	if part.Whole() {
		if g.RunID != "" || g.BarrierTimeout != 0 {
			return nil, fmt.Errorf("--run-id and --barrier-timeout go with --part or --parts: this run is not split into parts")
		}
		if !g.StartAt.IsZero() {
			return &Plan{Part: part, StartAt: g.StartAt}, nil
		}
		return nil, nil
	}
	if url == "" {
		return nil, fmt.Errorf("--part %s needs mongodb.url (or $MONGOBENCH_URL): the parts of a run share one server, and each would start an embedded server of its own", part)
	}
	p := &Plan{Part: part, Whole: shareOf(spec), StartAt: g.StartAt, Timeout: g.BarrierTimeout}
	if p.Timeout == 0 {
		p.Timeout = DefaultBarrierTimeout
	}
	if err := part.Apply(spec); err != nil {
		return nil, err
	}
	p.Share = shareOf(spec)
	p.RunID = strings.TrimSpace(g.RunID)
	if p.RunID == "" {
		p.RunID = strings.TrimSpace(getenv(EnvRunID))
	}
	if p.RunID == "" {
		p.RunID = DefaultRunID(command, props, part.Count)
	}
	if n := utf8.RuneCountInString(p.RunID); n > MaxRunID {
		// Named by its start and length: echoed whole, a run id of
		// 100,000 characters would be the whole message.
		return nil, fmt.Errorf("--run-id %q… (%d characters) is too long: expected printable text of at most %d characters", printable.String(string([]rune(p.RunID)[:24])), n, MaxRunID)
	}
	if len(p.RunID) > 4*MaxRunID || !printable.Clean(p.RunID) {
		return nil, fmt.Errorf("--run-id %q is invalid: expected printable text of at most %d characters", printable.String(p.RunID), MaxRunID)
	}
	return p, nil
}

func shareOf(spec *workload.Spec) results.Share {
	return results.Share{InsertStart: spec.InsertStart, InsertCount: spec.InsertCount, OperationCount: spec.OperationCount, Target: spec.Target}
}

// DefaultRunID names a run by what every part of it shares: the command,
// the number of parts and the properties (the seed aside, which a part
// picks for itself when none is given).
func DefaultRunID(command string, props *workload.Properties, parts int) string {
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

// Start waits for the instant this process starts measuring at: the one
// given by --start-at, or the barrier's in the coordination collection of
// db, the database under test. Once it has passed, release ends the
// barrier's hold on this part's registration, which keeps another run
// under the same id out while this one measures; seed is the part's.
// say gets what the part waits for, for the user. The part is what the
// results file records of it; nil for a whole run.
func (p *Plan) Start(ctx context.Context, db *driver.Database, seed uint64, say func(string)) (part *results.Part, release func(), err error) {
	b := &Barrier{Coll: db.Collection(Collection), Clock: SystemClock{}, RunID: p.RunID, Part: p.Part, Timeout: p.Timeout}
	at, how, err := StartInstant(ctx, p.StartAt, b, say)
	if err != nil {
		return nil, nil, err
	}
	release = b.Hold(context.WithoutCancel(ctx))
	if p.Part.Whole() {
		return nil, release, nil
	}
	return &results.Part{Index: p.Part.Index, Count: p.Part.Count, RunID: p.RunID, Share: p.Share, Whole: p.Whole,
		Seed: seed, StartAt: at.UTC(), Sync: how}, release, nil
}
