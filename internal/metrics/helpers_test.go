package metrics

import (
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/embedded"
)

// testTimeout bounds every wait on the embedded server; the waits normally
// end in milliseconds.
const testTimeout = 30 * time.Second

func testContext(t testing.TB) context.Context {
	t.Helper()

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)

	return ctx
}

// extJSON reads an Extended JSON document into BSON, as the driver would
// hand it over.
func extJSON(t testing.TB, data []byte) bson.Raw {
	t.Helper()

	var d bson.D
	if err := bson.UnmarshalExtJSON(data, false, &d); err != nil {
		t.Fatalf("extended JSON: %v", err)
	}

	raw, err := bson.Marshal(d)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}

	return raw
}

func fixture(t testing.TB, name string) bson.Raw {
	t.Helper()

	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}

	return extJSON(t, data)
}

// serverSample parses a recorded serverStatus reply.
func serverSample(t testing.TB, name string) *ServerSample {
	t.Helper()

	s, info, err := parseServerStatus(fixture(t, filepath.Join("serverstatus", name)))
	if err != nil {
		t.Fatal(err)
	}

	s.Info = &info

	return &s
}

// t0 is the time of the first recorded sample; the second is 10 s later.
var t0 = time.Date(2024, 6, 10, 8, 0, 0, 0, time.UTC)

// hostFixture reads the recorded /proc snapshot dir ("a" or "b"), with
// process 4242 standing for mongobench.
func hostFixture(t testing.TB, dir string) *HostSample {
	t.Helper()

	h := newHostReader(filepath.Join("testdata", "proc", dir), 4242)
	if h.initErr != nil {
		t.Fatal(h.initErr)
	}

	s := h.sample(false)
	if len(s.Errors) > 0 {
		t.Fatalf("host sample of %s: %v", dir, s.Errors)
	}

	return s
}

// recordedRun is the two recorded snapshots, 10 s apart, of a mongod and
// of the host.
func recordedRun(t testing.TB) (first, last Snapshot) {
	t.Helper()

	first = Snapshot{At: t0, Server: serverSample(t, "mongod_a.json"), Host: hostFixture(t, "a")}
	last = Snapshot{At: t0.Add(10 * time.Second), Server: serverSample(t, "mongod_b.json"), Host: hostFixture(t, "b")}
	last.Server.Info = nil // a Sampler records it once

	return first, last
}

// approx compares floats that went through a division.
func approx(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkValue fails unless got is present and equal to want, or absent
// when want is.
func checkValue(t *testing.T, name string, got, want Value) {
	t.Helper()

	switch {
	case got.OK != want.OK:
		t.Errorf("%s = %v, want %v", name, got, want)
	case got.OK && !approx(got.V, want.V):
		t.Errorf("%s = %v, want %v", name, got.V, want.V)
	}
}

var absent = Value{}

// The embedded server is shared by the tests that need one: starting it
// takes most of a second.
var (
	serverOnce     sync.Once
	embeddedServer *embedded.Server
	serverErr      error
)

func TestMain(m *testing.M) {
	flag.Parse()

	code := m.Run()

	if embeddedServer != nil {
		_ = embeddedServer.Close()
	}

	os.Exit(code)
}

// testClient connects to the shared embedded server, starting it first.
func testClient(t *testing.T) *mongo.Client {
	t.Helper()

	if testing.Short() {
		t.Skip("needs the embedded server")
	}

	serverOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()

		embeddedServer, serverErr = embedded.Start(ctx, embedded.Options{})
	})

	if serverErr != nil {
		t.Fatalf("embedded server: %v", serverErr)
	}

	c, err := mongo.Connect(options.Client().ApplyURI(embeddedServer.URI()))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}

	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })

	return c
}
