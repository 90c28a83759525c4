package promsink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/redact"
)

// About is the help of mongobench metrics before its flags.
const About = `usage: mongobench metrics RESULTS... [-o FILE] [--push URL]

Prints the figures of finished runs as the live endpoint (--metrics-addr)
served them after their last interval, in the OpenMetrics text format: the
same series and labels (run_id, label, workload, part), so that a run
whose endpoint closed before Prometheus scraped it last, or that served
none, still reaches the same dashboard. RESULTS are results files (or the
journal of a run that did not finish). With --push the figures go to a
Prometheus Pushgateway instead, grouped by run_id and part.

flags:`

// Args are mongobench metrics' flags: where the figures go.
type Args struct{ Out, Push string }

// Flags are -o and --push, bound to a.
func (a *Args) Flags() []cmdflag.Def {
	out := cmdflag.Text("o", "FILE", "write the OpenMetrics text to FILE instead of standard output", false, &a.Out)
	out.Aliases = []string{"out"}
	return []cmdflag.Def{
		out,
		cmdflag.Text("push", "URL", "push to the Pushgateway at URL (such as http://pushgateway:9091)\ninstead of printing", true, &a.Push),
	}
}

// Check refuses a command line that names no results file, asks both to
// print and to push, or pushes to what is no Pushgateway URL.
func (a *Args) Check(files []string) error {
	if len(files) == 0 {
		return errors.New("no results file given: expected one or more results files, such as run.json")
	}
	if a.Out != "" && a.Push != "" {
		return errors.New("-o and --push both given: the figures are printed or pushed, so keep one")
	}
	if a.Push != "" {
		if u, err := url.Parse(a.Push); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--push %q is not a Pushgateway URL: expected http://HOST:PORT, such as http://pushgateway:9091", redact.URL(a.Push))
		}
	}
	return nil
}

// GatewayError is a Pushgateway that did not take a run: the URL the user
// gave is wrong, or nothing answers there.
type GatewayError struct{ Err error }

func (e GatewayError) Error() string { return e.Err.Error() }
func (e GatewayError) Unwrap() error { return e.Err }

// PushAll pushes each run to the Pushgateway and says so on w; the first
// that fails ends it, a GatewayError unless the push was stopped.
func PushAll(ctx context.Context, w io.Writer, gateway string, runs []Run) error {
	for _, r := range runs {
		if err := Push(ctx, gateway, r); err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			return GatewayError{fmt.Errorf("pushing %s to %s: %s: expected a reachable Pushgateway", r.File, redact.URL(gateway), redact.Text(err.Error()))}
		}
		fmt.Fprintf(w, "pushed %s: run_id %q, part %d, to %s\n", r.File, r.Options.RunID, r.Options.Part, redact.URL(gateway))
	}
	return nil
}
