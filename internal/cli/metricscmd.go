package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/promsink"
)

type metricsCmdOptions struct {
	promsink.Args
	help bool
}

func metricsFlags(o *metricsCmdOptions) []flagDef {
	return append(fromDefs(o.Flags()), helpFlag(&o.help))
}

func metricsHelp() string {
	return promsink.About + "\n" + flagsHelp(metricsFlags(&metricsCmdOptions{}))
}

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
	if err := o.Check(pos); err != nil {
		return badInputf("metrics: %w", err)
	}
	if o.Out != "" {
		if err := output.CheckProperty("-o", o.Out); err != nil {
			return badInput{err}
		}
	}
	runs, err := promsink.ReadRuns(pos)
	if err != nil {
		return badInputf("metrics: %w", err)
	}
	if o.Push != "" {
		err := promsink.PushAll(ctx, env.Stdout, o.Push, runs)
		if ge := (promsink.GatewayError{}); errors.As(err, &ge) {
			return badInputf("metrics: %w", err)
		}
		return err
	}
	reg, err := promsink.Registry(runs)
	if err != nil {
		return badInputf("metrics: %w", err)
	}
	write := func(w io.Writer) error { return promsink.WriteOpenMetrics(w, reg) }
	if o.Out == "" {
		return write(env.Stdout)
	}
	return outfile.Write(o.Out, write)
}
