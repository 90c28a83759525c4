// Command mongobench benchmarks MongoDB with YCSB's workloads and command
// lines. See the README for usage.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mongobench/mongobench/internal/cli"
)

func main() {
	// The first SIGINT/SIGTERM asks the benchmark to stop and write what it
	// measured; a second one exits at once.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	interrupt := make(chan int, 1)
	go func() {
		first := true
		for s := range sigs {
			code := cli.ExitSIGINT
			if s == syscall.SIGTERM {
				code = cli.ExitSIGTERM
			}
			if !first {
				os.Exit(code)
			}
			first = false
			interrupt <- code
		}
	}()
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.Env{
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		Getenv:           os.Getenv,
		Interrupt:        interrupt,
		StderrIsTerminal: isTerminal(os.Stderr),
	}))
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
