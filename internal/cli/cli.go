// Package cli is mongobench's command line: it parses arguments, wires the
// packages together for each subcommand and turns errors into exit codes.
// All process state (arguments, streams, environment, signals) comes in
// through Env, so the whole command line is testable in-process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/interrupt"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/progress"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/store"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitFailed   = 1 // the benchmark could not run or finish
	ExitBadInput = 2 // a flag, property, file or URL is wrong
	ExitSIGINT   = 130
	ExitSIGTERM  = 143
)

// exitCodes say what each exit code means, for the reference.
var exitCodes = []struct {
	code    int
	meaning string
}{
	{ExitOK, "the command did what it was asked; a benchmark ran to its end and every output was written"},
	{ExitFailed, "the benchmark could not run or finish: the server failed or was unreachable mid-run, an output could not be written, a phase ended on its error limit; what was measured is kept, marked partial"},
	{ExitBadInput, "bad input, refused before anything ran: a flag, a property, a workload file, a URL, a damaged store or results file, runs that did different work compared; one line names what is wrong and what is accepted"},
	{ExitThresholds, "a --threshold (or compare's --fail-on) failed: the benchmark ran and its outputs were written, but the run did not meet a limit it was given; `[THRESHOLD]` lines and stderr say which"},
	{ExitSIGINT, "stopped by SIGINT (Ctrl-C): a load, run or sweep writes what it measured, marked partial; merge, report, compare, history and disk write nothing"},
	{ExitSIGTERM, "stopped by SIGTERM: as SIGINT"},
}

// Version is set at build time (-ldflags "-X .../cli.Version=...").
var Version = "0.1.0-dev"

// Env is the process state a command may use.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Interrupt delivers SIGINT (130) or SIGTERM (143) as the exit code a
	// graceful stop should end with. nil means no signals.
	Interrupt <-chan int
	// StderrIsTerminal selects the live progress display over status lines.
	StderrIsTerminal bool
}

// badInput marks errors in what the user gave (exit 2).
type badInput struct{ err error }

func (e badInput) Error() string { return e.err.Error() }
func (e badInput) Unwrap() error { return e.err }

func badInputf(format string, args ...any) error { return badInput{fmt.Errorf(format, args...)} }

// exitError carries an exit code other than the default for its error.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

const usage = `mongobench benchmarks MongoDB with YCSB's workloads and command lines.

usage:
  mongobench load mongodb [-P file]... [-p name=value]... [-threads N] [-target N] [-l label] [-s]
  mongobench run  mongodb [-P file]... [-p name=value]... [-threads N] [-target N] [-l label] [-s]
  mongobench server [--addr HOST:PORT] [--data-dir DIR] [--null]
  mongobench sweep [run|load] mongodb [load/run flags] --vary NAME=V1,V2,... [--repeat N] [--discard-first] [--out-dir DIR]
  mongobench merge PARTS... [-o merged.json]
  mongobench compare A B [C...] [--alpha P]
  mongobench history [--label L] [--sweep ID] [--limit N]
  mongobench report RESULTS... [-o report.html]
  mongobench calibrate [-threads LIST] [-P file]... [-p name=value]... [--repeat N] [--json PATH]
  mongobench k8s --parts N --image IMAGE --results-claim CLAIM [flags] run|load mongodb [flags]
  mongobench disk [--dir D] [--size S] [--runtime T]
  mongobench validate FILE... [-p name=value]...
  mongobench metrics RESULTS... [-o FILE] [--push URL]
  mongobench tpcc load|run|check [--data-dir DIR] [--part I/N] [--drop] [-p name=value]...
  mongobench version
  mongobench help [command]

With no -p mongodb.url (and no MONGOBENCH_URL), mongobench starts an embedded
MongoDB-compatible server for the run. The summary goes to stdout in YCSB's
format; "mongobench COMMAND -h" lists a command's flags.`

// RunProcess runs mongobench as the process: real streams, environment and
// signals. The first SIGINT/SIGTERM asks the benchmark to stop and write
// what it measured; a second one exits at once.
func RunProcess(args []string) int {
	signals, stop := interrupt.Signals(os.Stderr, interruptNotice, ExitSIGINT, ExitSIGTERM)
	defer stop()
	return Main(context.Background(), args, Env{
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		Getenv:           os.Getenv,
		Interrupt:        signals,
		StderrIsTerminal: progress.IsTerminal(os.Stderr),
	})
}

// interruptNotice is what the first signal is answered with.
const interruptNotice = "stopping; a second signal exits at once, without writing what was measured"

// Main runs mongobench with args (without the program name) and returns the
// exit code.
func Main(ctx context.Context, args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	// Every message of every command passes here: whatever a message
	// quotes of what the user typed, no password reaches the terminal.
	env.Stdout, env.Stderr = redact.Writer(env.Stdout), redact.Writer(env.Stderr)
	if len(args) == 0 {
		fmt.Fprintln(env.Stdout, usage)
		return ExitBadInput
	}
	stdout := &output.Checked{W: env.Stdout}
	env.Stdout = stdout
	err := runCommand(ctx, args, env)
	if err == nil && stdout.Err() != nil {
		// What a command prints is its result: a table, a summary, a
		// comparison lost to a full disk or a closed pipe is a failure.
		err = fmt.Errorf("cannot write standard output: %w", stdout.Err())
	}
	return report(err, env)
}

// command is one subcommand: what runs it and its help, defined once so
// that dispatch, help and the unknown-command message cannot disagree.
type command struct {
	name    string
	aliases []string
	run     func(ctx context.Context, args []string, env Env) error
	help    func() string
}

// commands lists the subcommands in the order messages name them. A
// function rather than a variable: help refers back to the list.
func commands() []command {
	bench := func(name string) command {
		return command{
			name: name,
			run: func(ctx context.Context, args []string, env Env) error {
				return runBench(ctx, name, args, env)
			},
			help: func() string { return benchHelp(name) },
		}
	}
	return []command{
		bench("load"),
		bench("run"),
		{name: "server", run: runServer, help: serverHelp},
		{name: "sweep", run: runSweep, help: sweepHelp},
		{name: "merge", run: stopsOnSignal("merge", runMerge), help: mergeHelp},
		{name: "compare", run: stopsOnSignal("compare", runCompare), help: compareHelp},
		{name: "history", run: stopsOnSignal("history", runHistory), help: historyHelp},
		{name: "report", run: stopsOnSignal("report", runReportCmd), help: reportHelp},
		{name: "calibrate", run: runCalibrate, help: calibrateHelp},
		{name: "k8s", run: runK8s, help: k8sHelp},
		{name: "disk", run: stopsOnSignal("disk", runDisk), help: diskHelp},
		{name: "validate", run: runValidate, help: validateHelp},
		{name: "tpcc", run: runTPCC, help: tpccHelp},
		{name: "metrics", run: stopsOnSignal("metrics", runMetrics), help: metricsHelp},
		{name: "version", aliases: []string{"--version", "-version"}, run: runVersion, help: versionHelp},
		{name: "help", aliases: []string{"-h", "--help", "-help"}, run: runHelp, help: func() string { return usage }},
	}
}

// findCommand finds the command named name (or one of its aliases); the
// error names them all.
func findCommand(name string) (command, error) {
	cmds := commands()
	names := make([]string, len(cmds))
	for i, c := range cmds {
		if c.name == name || slices.Contains(c.aliases, name) {
			return c, nil
		}
		names[i] = c.name
	}
	return command{}, badInputf("unknown command %q: accepted commands are %s", name, strings.Join(names, ", "))
}

// runCommand runs the command args name.
func runCommand(ctx context.Context, args []string, env Env) error {
	c, err := findCommand(args[0])
	if err != nil {
		return err
	}
	return c.run(ctx, args[1:], env)
}

func versionHelp() string { return "usage: mongobench version\n\nprints the version of mongobench" }

func runVersion(_ context.Context, args []string, env Env) error {
	if len(args) > 0 {
		fmt.Fprintln(env.Stdout, versionHelp())
		return nil
	}
	fmt.Fprintf(env.Stdout, "mongobench %s\n", Version)
	return nil
}

func runHelp(_ context.Context, args []string, env Env) error {
	if len(args) == 0 {
		fmt.Fprintln(env.Stdout, usage)
		return nil
	}
	c, err := findCommand(args[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, c.help())
	return nil
}

// report prints err as one line and maps it to an exit code.
func report(err error, env Env) int {
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintf(env.Stderr, "mongobench: %s\n", oneLine(ee.err.Error()))
		}
		return ee.code
	}
	fmt.Fprintf(env.Stderr, "mongobench: %s\n", oneLine(err.Error()))
	var bi badInput
	// A damaged store row is a damaged input, whichever command read it.
	if errors.As(err, &bi) || errors.Is(err, store.ErrDamagedRun) {
		return ExitBadInput
	}
	return ExitFailed
}

// oneLine folds a message to one line, redacts any URL in it and escapes
// control characters: an error may quote what the user typed, and that
// may be a connection string or hold an escape sequence.
func oneLine(s string) string {
	return printable.String(redact.Text(strings.Join(strings.Fields(s), " ")))
}
