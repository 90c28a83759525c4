package partition

import (
	"fmt"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// Flags are the flags of a partitioned run (--part, --parts, --run-id,
// --start-at, --barrier-timeout), bound to g.
func (g *Given) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Text("part", "I/N", "run part I of N (counted from 0) of a run split over N client processes:\nits slice of the keys to load, or its share of operationcount and -target", true, &g.Part),
		cmdflag.Func("parts", "N", "split the run into N parts, this process's being $"+EnvIndex+"\n(as a Kubernetes Indexed Job sets it), unless --part says", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, MaxParts)
			if err != nil {
				return fmt.Errorf("--parts %q is invalid: expected a number of parts from 1 to %d", v, MaxParts)
			}
			g.Parts = int(n)
			return nil
		}),
		cmdflag.Text("run-id", "ID", "the name the parts of one run share (default $"+EnvRunID+", else a hash of\nthe command's properties)", true, &g.RunID),
		cmdflag.Func("start-at", "TIME", "start measuring at TIME (RFC 3339, such as 2026-01-02T15:04:05Z), not at a\nbarrier with the other parts", true, func(v string) error {
			t, err := parseStartAt(v, time.Now())
			g.StartAt = t
			return err
		}),
		cmdflag.Func("barrier-timeout", "D", "how long a part waits for the others at the barrier, such as 5m\n(default 10m)", true, func(v string) (err error) {
			g.BarrierTimeout, err = time.ParseDuration(strings.TrimSpace(v))
			if err != nil || g.BarrierTimeout <= 0 {
				return fmt.Errorf("--barrier-timeout %q is invalid: expected a duration greater than 0, such as 30s or 10m", shortArg(v))
			}
			return nil
		}),
	}
}

// maxStartAhead bounds --start-at: the parts of a run are started
// together by hand or by a scheduler minutes or hours ahead; an instant
// years away is a typo, and would leave the processes waiting for it.
const (
	maxStartAhead     = 24 * time.Hour
	maxStartAheadText = "24 hours"
)

// parseStartAt reads --start-at at now.
func parseStartAt(v string, now time.Time) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
	if err != nil {
		return time.Time{}, fmt.Errorf("--start-at %q is invalid: expected a time in RFC 3339 form, such as 2026-01-02T15:04:05Z", shortArg(v))
	}
	if ahead := t.Sub(now); ahead > maxStartAhead {
		return time.Time{}, fmt.Errorf("--start-at %s is %s from now: expected an instant within %s, which the parts wait for doing nothing", t.UTC().Format(time.RFC3339), roundAhead(ahead), maxStartAheadText)
	}
	return t, nil
}

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
