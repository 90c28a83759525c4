package mongo

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/nullserver"
)

// TestOpenWarmsThePool: Open leaves the pool holding one connection per
// thread, up to maxPoolSize, before any operation runs, on both paths;
// not under a read preference other than primary, whose reads go to other
// servers than the warmed pool's. The
// null server counts the connections; the embedded server would too, but
// its own bookkeeping is not this test's subject.
func TestOpenWarmsThePool(t *testing.T) {
	cases := []struct {
		path    string
		threads int
		query   string
		want    int // pool connections: min(threads, maxPoolSize), or the ping's one
	}{
		{PathDriver, 1, "", 1},
		{PathDriver, 40, "", 40},
		{PathLean, 40, "", 40},
		{PathDriver, 40, "maxPoolSize=10", 10},
		{PathDriver, 40, "readPreference=secondaryPreferred", 1}, // the ping's
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%d/%s", tc.path, tc.threads, tc.query), func(t *testing.T) {
			s, err := nullserver.Start("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			url := s.URI()
			if tc.query != "" {
				url += "&" + tc.query
			}
			c, err := Open(context.Background(), Config{URL: url, Database: "ycsb", Threads: tc.threads, OpTimeout: 10 * time.Second, Path: tc.path})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(context.Background())
			// Beside the pool, the driver's server monitor holds one
			// connection and its round-trip monitor may hold another.
			got := s.Connections()
			if got < tc.want || got > tc.want+2 {
				t.Fatalf("after Open the server has %d connections; want the pool's %d and at most 2 of the monitors'", got, tc.want)
			}
		})
	}
}
