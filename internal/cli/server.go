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
		return nullserver.Serve(ctx, o.addr, env.Interrupt, env.Stdout, env.Stderr)
	}
	if err := checkDataDir(o.dataDir); err != nil {
		return err
	}
	return embedded.Serve(ctx, embedded.Options{Addr: o.addr, DataDir: o.dataDir}, env.Interrupt, env.Stderr)
}
