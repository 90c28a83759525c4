// Package embeddedtest gives a package's tests one in-process embedded
// server, started before the tests and stopped after them: the tests talk
// to a real server, and each uses a database of its own.
package embeddedtest

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
)

var server *embedded.Server

// Main starts the server, runs the package's tests and stops the server;
// a package's TestMain calls it. It exits with the tests' status.
func Main(m *testing.M) {
	srv, err := embedded.Start(context.Background(), embedded.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the embedded server:", err)
		os.Exit(1)
	}
	server = srv
	code := m.Run()
	srv.Close()
	os.Exit(code)
}

// Server is the server Main started.
func Server() *embedded.Server { return server }
