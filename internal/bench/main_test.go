package bench

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/workload"
)

func TestMain(m *testing.M) { embeddedtest.Main(m) }

var dbCounter atomic.Int64

// openClient connects to a database of the test's own on the test server.
func openClient(t *testing.T, threads int) *mongo.Client {
	t.Helper()
	url := fmt.Sprintf("%sbench%d", embeddedtest.Server().URI(), dbCounter.Add(1))
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
