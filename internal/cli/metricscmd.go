package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"

	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/promsink"
	"github.com/mongobench/mongobench/internal/redact"
)

const metricsAbout = `usage: mongobench metrics RESULTS... [-o FILE] [--push URL]

Prints the figures of finished runs as the live endpoint (--metrics-addr)
served them after their last interval, in the OpenMetrics text format: the
same series and labels (run_id, label, workload, part), so that a run
whose endpoint closed before Prometheus scraped it last, or that served
none, still reaches the same dashboard. RESULTS are results files (or the
journal of a run that did not finish). With --push the figures go to a
Prometheus Pushgateway instead, grouped by run_id and part.

flags:`

type metricsCmdOptions struct {
	out, push string
	help      bool
}

func metricsFlags(o *metricsCmdOptions) []flagDef {
	out := textFlag("o", "FILE", "write the OpenMetrics text to FILE instead of standard output", false, &o.out)
	out.aliases = []string{"out"}
	return []flagDef{
		out,
		textFlag("push", "URL", "push to the Pushgateway at URL (such as http://pushgateway:9091)\ninstead of printing", true, &o.push),
		helpFlag(&o.help),
	}
}

func metricsHelp() string { return metricsAbout + "\n" + flagsHelp(metricsFlags(&metricsCmdOptions{})) }

// runMetrics is "mongobench metrics".
func runMetrics(ctx context.Context, args []string, env Env) error {
	o := &metricsCmdOptions{}
	fs := newFlagSet("metrics", metricsFlags(o))
	pos, err := fs.parseInterleaved(args)
	help, bad := fs.refusal(err)
	if bad != nil {
		return bad
	}
	if o.help || help {
		fmt.Fprintln(env.Stdout, metricsHelp())
		return nil
	}
	if len(pos) == 0 {
		return badInputf("metrics: no results file given: expected one or more results files, such as run.json")
	}
	if o.out != "" && o.push != "" {
		return badInputf("metrics: -o and --push both given: the figures are printed or pushed, so keep one")
	}
	if o.push != "" {
		if u, err := url.Parse(o.push); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return badInputf("metrics: --push %q is not a Pushgateway URL: expected http://HOST:PORT, such as http://pushgateway:9091", redact.URL(o.push))
		}
	}
	if o.out != "" {
		if err := checkOutputFile("-o", o.out); err != nil {
			return badInput{err}
		}
	}
	runs, err := promsink.ReadRuns(pos)
	if err != nil {
		return badInputf("metrics: %w", err)
	}
	if o.push != "" {
		return pushRuns(ctx, o.push, runs, env)
	}
	reg, err := promsink.Registry(runs)
	if err != nil {
		return badInputf("metrics: %w", err)
	}
	write := func(w io.Writer) error { return promsink.WriteOpenMetrics(w, reg) }
	if o.out == "" {
		return write(env.Stdout)
	}
	return outfile.Write(o.out, write)
}

// pushRuns pushes each run to the Pushgateway; one it cannot reach is
// bad input.
func pushRuns(ctx context.Context, gateway string, runs []promsink.Run, env Env) error {
	for _, r := range runs {
		if err := promsink.Push(ctx, gateway, r); err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			return badInputf("metrics: pushing %s to %s: %s: expected a reachable Pushgateway", r.File, redact.URL(gateway), redact.Text(err.Error()))
		}
		fmt.Fprintf(env.Stdout, "pushed %s: run_id %q, part %d, to %s\n", r.File, r.Options.RunID, r.Options.Part, redact.URL(gateway))
	}
	return nil
}
