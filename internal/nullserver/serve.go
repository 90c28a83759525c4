package nullserver

import (
	"context"
	"fmt"
	"io"
)

// Serve is mongobench server --null: the null server runs until ctx ends
// or a signal comes on signals. Its first line on stdout is the URI
// alone, so that a parent process (calibrate) can read where it listens;
// the rest is said on stderr.
func Serve(ctx context.Context, addr string, signals <-chan int, stdout, stderr io.Writer) error {
	srv, err := Start(addr)
	if err != nil {
		return fmt.Errorf("cannot start the null server on %s: %w", addr, err)
	}
	defer srv.Close()
	fmt.Fprintln(stdout, srv.URI())
	fmt.Fprintf(stderr, "mongobench: null server listening at %s; every request is answered at once; Ctrl-C stops it\n", srv.URI())
	select {
	case <-ctx.Done():
	case <-signals:
	}
	fmt.Fprintf(stderr, "mongobench: null server stopped after %d requests\n", srv.Requests())
	return nil
}
