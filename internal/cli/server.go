package cli

import (
	"context"
	"fmt"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/redact"
)

const serverAbout = `usage: mongobench server [--addr HOST:PORT] [--data-dir DIR] [--null]

Runs the embedded MongoDB-compatible server (FerretDB with SQLite) until
interrupted, for other clients (mongosh, pymongo, YCSB itself).

flags:`

// serverOptions are server's parsed command line.
type serverOptions struct {
	addr, dataDir string
	null, help    bool
}

// serverFlags are server's flags, bound to o.
func serverFlags(o *serverOptions) []flagDef {
	return []flagDef{
		textFlag("addr", "HOST:PORT", "listen address (default 127.0.0.1:27017; port 0 picks a free one)", true, &o.addr),
		textFlag("data-dir", "DIR", "keep the data in DIR (default: a temporary directory, removed at exit)", true, &o.dataDir),
		switchFlag("null", "serve the wire-protocol null server instead: every request is\nanswered at once with a canned reply, to measure a client's own cost", true, &o.null),
		helpFlag(&o.help),
	}
}

// serverHelp is server's help.
func serverHelp() string {
	return serverAbout + "\n" + flagsHelp(serverFlags(&serverOptions{}))
}

func runServer(ctx context.Context, args []string, env Env) error {
	o := &serverOptions{addr: "127.0.0.1:27017"}
	defs := serverFlags(o)
	fs := newFlagSet("server", defs)
	if err := fs.parse(args); err != nil {
		return badInputf("server: %v: accepted flags are %s", err, acceptedFlags(defs, true))
	}
	if o.help {
		fmt.Fprintln(env.Stdout, serverHelp())
		return nil
	}
	if fs.fs.NArg() > 0 {
		return badInputf("server: unexpected argument %q: accepted flags are %s", redact.Arg(fs.fs.Arg(0)), acceptedFlags(defs, true))
	}
	if err := embedded.CheckAddr(o.addr); err != nil {
		return badInputf("server: %w", err)
	}
	if o.null {
		return runNullServer(ctx, o.addr, env)
	}
	if err := checkDataDir(o.dataDir); err != nil {
		return err
	}
	srv, err := embedded.Start(ctx, embedded.Options{Addr: o.addr, DataDir: o.dataDir})
	if err != nil {
		return fmt.Errorf("cannot start the embedded server on %s: %w", o.addr, err)
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
