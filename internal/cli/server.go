package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/redact"
)

const serverHelp = `usage: mongobench server [--addr HOST:PORT] [--data-dir DIR] [--null]

Runs the embedded MongoDB-compatible server (FerretDB with SQLite) until
interrupted, for other clients (mongosh, pymongo, YCSB itself).
  --addr HOST:PORT  listen address (default 127.0.0.1:27017; port 0 picks a free one)
  --data-dir DIR    keep the data in DIR (default: a temporary directory, removed at exit)
  --null            serve the wire-protocol null server instead: every request is
                    answered at once with a canned reply, to measure a client's own cost`

func runServer(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:27017", "")
	dataDir := fs.String("data-dir", "", "")
	null := fs.Bool("null", false, "")
	help := fs.Bool("h", false, "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintln(env.Stdout, serverHelp)
			return nil
		}
		return badInputf("server: %v: accepted flags are --addr HOST:PORT, --data-dir DIR, --null", err)
	}
	if *help {
		fmt.Fprintln(env.Stdout, serverHelp)
		return nil
	}
	if fs.NArg() > 0 {
		return badInputf("server: unexpected argument %q: accepted flags are --addr HOST:PORT, --data-dir DIR, --null", redact.Arg(fs.Arg(0)))
	}
	// Checked here so that a mistyped value (a URL, say) is named once,
	// in plain words, rather than by the listener's error.
	if _, port, err := net.SplitHostPort(*addr); err != nil || port == "" || strings.ContainsAny(*addr, "@/") {
		return badInputf("server: --addr %q is invalid: expected HOST:PORT, such as 127.0.0.1:27017 (port 0 picks a free one)", redact.Arg(*addr))
	}
	if *null {
		return runNullServer(ctx, *addr, env)
	}
	if err := checkDataDir(*dataDir); err != nil {
		return err
	}
	srv, err := embedded.Start(ctx, embedded.Options{Addr: *addr, DataDir: *dataDir})
	if err != nil {
		return fmt.Errorf("cannot start the embedded server on %s: %w", *addr, err)
	}
	defer srv.Close()
	fmt.Fprintf(env.Stderr, "mongobench: embedded server listening at %s (data in %s, log in %s); Ctrl-C stops it\n", srv.URI(), srv.DataDir(), srv.LogPath())
	select {
	case <-ctx.Done():
	case <-env.Interrupt:
	}
	fmt.Fprintln(env.Stderr, "mongobench: embedded server stopped")
	return nil
}

// runNullServer serves the null server. Its first line on stdout is the
// URI alone, so a parent process (calibrate) can read where it listens.
func runNullServer(ctx context.Context, addr string, env Env) error {
	srv, err := nullserver.Start(addr)
	if err != nil {
		return fmt.Errorf("cannot start the null server on %s: %w", addr, err)
	}
	defer srv.Close()
	fmt.Fprintln(env.Stdout, srv.URI())
	fmt.Fprintf(env.Stderr, "mongobench: null server listening at %s; every request is answered at once; Ctrl-C stops it\n", srv.URI())
	select {
	case <-ctx.Done():
	case <-env.Interrupt:
	}
	fmt.Fprintf(env.Stderr, "mongobench: null server stopped after %d requests\n", srv.Requests())
	return nil
}
