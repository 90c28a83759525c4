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

	// A healthy server answers each of these in milliseconds; 60 s is for
	// a machine so busy (a load average of 20 on 2 cores) that even that
	// takes seconds. A wedged server never answers, so its operations time
	// out however long the timeout; --max-errors 3 ends the check after
	// three of them. SQLite may refuse a write now and then under
	// contention ("database is locked (517)", a stale snapshot that its
	// busy timeout does not wait out): an error the server answered with is
	// a living server, a timeout is not, so only timeouts and the lack of
	// any answer count against it.
	r := mongobench(t, append([]string{"run", "mongodb", "-threads", "1", "-p", "operationcount=20",
		"-p", "optimeout=60", "--max-errors", "3"}, props...)...)
	s := parseSummary(t, r.stdout)
	timeouts := s.int(t, "READ", "Return=TIMEOUT") + s.int(t, "UPDATE", "Return=TIMEOUT")
	ok := s.int(t, "READ", "Return=OK") + s.int(t, "UPDATE", "Return=OK")
	if timeouts > 0 || ok == 0 {
		t.Fatalf("the server no longer answers after the abandoning run: %d timeouts, %d of 20 operations succeeded (exit %d): %s\n%s", timeouts, ok, r.code, r.stderr, r.stdout)
	}
}
