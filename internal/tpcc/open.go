package tpcc

import (
	"context"
	"fmt"
	"io"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/embedded"
)

// Open is the client of tpcc load and check: connected to s.URL, or,
// when s has none, to an embedded server started on dataDir ("" for a
// temporary one), said on w. The embedded server has no all-positional
// operator ($[]): unless tpcc.linepaths was given, the phases address
// delivered lines by index. closeAll disconnects and stops the server.
func Open(ctx context.Context, s *Settings, dataDir string, w io.Writer) (client *mongo.Client, closeAll func(), err error) {
	stop := func() {}
	if s.URL == "" {
		srv, err := embedded.Start(ctx, embedded.Options{DataDir: dataDir})
		if err != nil {
			return nil, nil, fmt.Errorf("cannot start the embedded server: %w", err)
		}
		stop = func() { srv.Close() }
		s.URL, s.Options.LinePaths = srv.URI(), s.Options.LinePaths || !s.LinePathsSet
		fmt.Fprintf(w, "mongobench: no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s, data in %s\n", s.URL, srv.DataDir())
	}
	client, err = Connect(ctx, s.URL, s.Threads)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return client, func() {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		stop()
	}, nil
}

// CheckDrop refuses --drop for a part of a load: each part would drop the
// others' data.
func (s *Settings) CheckDrop(drop bool) error {
	if drop && !s.Part.Whole() {
		return fmt.Errorf("--drop with --part %s is refused: expected one whole load to drop, since each part would drop the others' data", s.Part)
	}
	return nil
}

// RunPhase runs tpcc's load or check on client, writing what it says to
// w: load drops TPC-C's collections first with drop.
func RunPhase(ctx context.Context, phase string, client *mongo.Client, s *Settings, drop bool, w io.Writer) error {
	if phase == "load" {
		return LoadCommand(ctx, client, s, drop, w)
	}
	return CheckCommand(ctx, client, s, w)
}
