package cli

import (
	"context"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
)

// TestEmbeddedServerSurvivesAbandonment runs workload A with far more
// threads than the embedded server's SQLite pool has connections and a
// one-second operation timeout, so that clients give up on operations and
// reconnect while the server still runs them, then checks that the server
// still answers: one thread, one operation after another, stopping at the
// first failure. Before the embedded server held commands back, such a run
// left every later operation on the database timing out for good.
func TestEmbeddedServerSurvivesAbandonment(t *testing.T) {
	t.Parallel()
	srv, err := embedded.Start(context.Background(), embedded.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := srv.URI() + "abandon"
	props := []string{"-P", "workloada", "-p", "mongodb.url=" + url, "-p", "recordcount=500"}
	if r := mongobench(t, append([]string{"load", "mongodb", "-threads", "8"}, props...)...); r.code != 0 {
		t.Fatalf("load: exit %d: %s", r.code, r.stderr)
	}

	// 250 threads wedged the server in every try before the fix (200 in two
	// of three). The run's own figures do not matter: on a busy machine many
	// of its operations time out, with or without the server's fault. It
	// ends by its operation count, or after maxexecutiontime when the server
	// is wedged (then every operation takes the whole timeout).
	bad := mongobench(t, append([]string{"run", "mongodb", "-threads", "250", "-p", "optimeout=1",
		"-p", "operationcount=3000", "-p", "maxexecutiontime=20"}, props...)...)
	if bad.code != 0 && bad.code != 1 {
		t.Fatalf("the abandoning run: exit %d: %s", bad.code, bad.stderr)
	}

	// A healthy server answers each of these in milliseconds; 10 s is for a
	// machine too busy to say so, and --max-errors 1 ends a wedged server's
	// check at its first timeout.
	r := mongobench(t, append([]string{"run", "mongodb", "-threads", "1", "-p", "operationcount=20",
		"-p", "optimeout=10", "--max-errors", "1"}, props...)...)
	if r.code != 0 {
		t.Fatalf("the server no longer answers after the abandoning run: exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	s := parseSummary(t, r.stdout)
	if ok := s.int(t, "READ", "Return=OK") + s.int(t, "UPDATE", "Return=OK"); ok != 20 {
		t.Errorf("%d of the 20 operations after the abandoning run succeeded:\n%s", ok, r.stdout)
	}
}
