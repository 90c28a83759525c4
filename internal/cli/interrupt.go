package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/interrupt"
)

// stopsOnSignal makes a command that measures nothing (it reads, adds up
// and writes) end on the first SIGINT or SIGTERM: its context is
// cancelled, its loops and any child process stop, and it exits with the
// signal's code. Such a command writes each output whole or not at all,
// and none once the signal is heard: there is no partial merge, report or
// comparison worth keeping.
func stopsOnSignal(name string, run func(context.Context, []string, Env) error) func(context.Context, []string, Env) error {
	return func(ctx context.Context, args []string, env Env) error {
		code, err := interrupt.Run(ctx, env.Interrupt, func(ctx context.Context) error { return run(ctx, args, env) })
		switch {
		case code == 0:
			return err
		case errors.Is(err, context.Canceled):
			return exitError{code, fmt.Errorf("%s: interrupted: nothing was written", name)}
		case err != nil:
			return exitError{code, fmt.Errorf("%s: interrupted: %w", name, err)}
		}
		// The signal came as the command finished: what it wrote is whole.
		return exitError{code, fmt.Errorf("%s: interrupted as it finished: what it wrote is whole", name)}
	}
}
