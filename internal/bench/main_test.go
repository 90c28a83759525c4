package bench

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/db/mongo"
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

// openClient connects to a database of the test's own on the test server.
func openClient(t *testing.T, threads int) *mongo.Client {
	t.Helper()
	url := fmt.Sprintf("%sbench%d", testServer.URI(), dbCounter.Add(1))
	c, err := mongo.Open(context.Background(), mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// spec resolves properties given as "key=value" lines.
func spec(t *testing.T, transactions bool, props ...string) *workload.Spec {
	t.Helper()
	p, err := workload.Parse(strings.NewReader(strings.Join(props, "\n")), "test")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := workload.Resolve(p, transactions)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
