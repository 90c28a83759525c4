package embedded

import (
	"context"
	"fmt"
	"io"
)

// Serve is mongobench server: the server runs until ctx ends or a signal
// comes on signals, saying on w where it listens and when it stops.
func Serve(ctx context.Context, opts Options, signals <-chan int, w io.Writer) error {
	srv, err := Start(ctx, opts)
	if err != nil {
		return fmt.Errorf("cannot start the embedded server on %s: %w", opts.Addr, err)
	}
	defer srv.Close()
	fmt.Fprintf(w, "mongobench: embedded server listening at %s (data in %s, log in %s); Ctrl-C stops it\n", srv.URI(), srv.DataDir(), srv.LogPath())
	select {
	case <-ctx.Done():
	case <-signals:
	}
	fmt.Fprintln(w, "mongobench: embedded server stopped")
	return nil
}
