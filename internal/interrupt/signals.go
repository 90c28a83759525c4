package interrupt

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Signals delivers the process's first SIGINT or SIGTERM as the exit code
// it asks for (sigint, sigterm), after saying on w at once that it was
// heard and notice, how to go sooner: the way out may take seconds. A
// second signal exits the process at once. stop ends the watch.
func Signals(w io.Writer, notice string, sigint, sigterm int) (codes <-chan int, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	out := make(chan int, 1)
	go func() {
		first := true
		for s := range sigs {
			code, name := sigint, "SIGINT"
			if s == syscall.SIGTERM {
				code, name = sigterm, "SIGTERM"
			}
			if !first {
				os.Exit(code)
			}
			first = false
			fmt.Fprintf(w, "mongobench: %s: %s\n", name, notice)
			out <- code
		}
	}()
	return out, func() { signal.Stop(sigs) }
}
