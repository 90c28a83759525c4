package bench

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
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
