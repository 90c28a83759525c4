package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/push"
	"github.com/prometheus/common/expfmt"

	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/promsink"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
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
	runs, err := runsAsMetrics(pos)
	if err != nil {
		return err
	}
	if o.push != "" {
		return pushRuns(ctx, o.push, runs, env)
	}
	reg := prometheus.NewPedanticRegistry()
	for _, r := range runs {
		if err := reg.Register(r.sink); err != nil {
			return badInputf("metrics: %s is run_id %q part %d again: give each run's results once (%v)", r.file, r.opts.RunID, r.opts.Part, err)
		}
	}
	write := func(w io.Writer) error { return writeOpenMetrics(w, reg) }
	if o.out == "" {
		return write(env.Stdout)
	}
	return outfile.Write(o.out, write)
}

// runMetric is one results file's figures as the endpoint's series.
type runMetric struct {
	file string
	opts promsink.Options
	sink *promsink.Sink
}

func runsAsMetrics(files []string) ([]runMetric, error) {
	runs := make([]runMetric, 0, len(files))
	for _, f := range files {
		r, err := results.ReadFile(f)
		if err != nil {
			return nil, badInputf("metrics: %w", err)
		}
		opts := promsink.RunOptions(r)
		sink, err := promsink.FromResults(r, opts)
		if err != nil {
			return nil, badInputf("metrics: %s: %w", f, err)
		}
		runs = append(runs, runMetric{file: f, opts: opts, sink: sink})
	}
	return runs, nil
}

func writeOpenMetrics(w io.Writer, g prometheus.Gatherer) error {
	families, err := g.Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeOpenMetrics))
	for _, mf := range families {
		if err := enc.Encode(mf); err != nil {
			return err
		}
	}
	if c, ok := enc.(expfmt.Closer); ok {
		return c.Close()
	}
	return nil
}

// pushRuns replaces each run's group on the Pushgateway (PUT): pushing a
// run again leaves it as it was, not counted twice. The group is named by
// an instance label, since the Pushgateway's client refuses a grouping
// label the series carry themselves (run_id, part).
func pushRuns(ctx context.Context, gateway string, runs []runMetric, env Env) error {
	for _, r := range runs {
		p := push.New(gateway, "mongobench").
			Grouping("instance", fmt.Sprintf("%s/part-%d", r.opts.RunID, r.opts.Part)).
			Collector(r.sink)
		if err := p.PushContext(ctx); err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			return badInputf("metrics: pushing %s to %s: %s: expected a reachable Pushgateway", r.file, redact.URL(gateway), redact.Text(err.Error()))
		}
		fmt.Fprintf(env.Stdout, "pushed %s: run_id %q, part %d, to %s\n", r.file, r.opts.RunID, r.opts.Part, redact.URL(gateway))
	}
	return nil
}
