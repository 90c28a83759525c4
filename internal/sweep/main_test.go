package sweep

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/workload"
)

// testServer is one in-process embedded server for the package's tests;
// each test uses a database of its own.
var testServer *embedded.Server

func TestMain(m *testing.M) {
	srv, err := embedded.Start(context.Background(), embedded.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the embedded server:", err)
		os.Exit(1)
	}
	testServer = srv
	code := m.Run()
	srv.Close()
	os.Exit(code)
}

var dbCounter atomic.Int64

// freshURL is the test server's URL with a database of the test's own.
func freshURL() string {
	return fmt.Sprintf("%ssweep%d", testServer.URI(), dbCounter.Add(1))
}

// props are a sweep's properties from "key=value" lines, as a run's
// command line would set them.
func props(t *testing.T, command string, lines ...string) *workload.Properties {
	t.Helper()
	p, err := workload.Parse(strings.NewReader(strings.Join(lines, "\n")), "test")
	if err != nil {
		t.Fatal(err)
	}
	p.Set("dotransactions", fmt.Sprint(command == "run"), "-p")
	return p
}
