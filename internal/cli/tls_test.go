package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/testcert"
)

// TestTLS runs a benchmark over TLS against the embedded server's TLS
// listener, verifying the server with a CA file; without the CA the
// connection is refused, and tlsInsecure gets a warning.
func TestTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cert, key := testcert.Write(t, dir)
	srv, err := embedded.Start(context.Background(), embedded.Options{TLS: &embedded.TLSOptions{CertFile: cert, KeyFile: key}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// URI() is mongodb://127.0.0.1:PORT/?tls=true
	base := strings.TrimSuffix(srv.URI(), "/?tls=true")
	if base == srv.URI() {
		t.Fatalf("TLS server URI %q has no tls=true", srv.URI())
	}
	url := base + "/tlsdb?tls=true&tlsCAFile=" + cert
	load := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=50")
	if load.code != 0 {
		t.Fatalf("load over TLS: exit %d: %s", load.code, load.stderr)
	}
	s := parseSummary(t, load.stdout)
	if s.int(t, "INSERT", "Return=OK") != 50 {
		t.Errorf("load over TLS: %d inserts OK, want 50", s.int(t, "INSERT", "Return=OK"))
	}

	// Without the CA the server's certificate is not trusted.
	bad := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+base+"/tlsdb?tls=true", "-p", "recordcount=5", "-p", "mongodb.connecttimeout=2")
	if bad.code != ExitFailed || !strings.Contains(bad.stderr, "certificate") {
		t.Errorf("untrusted certificate: exit %d, stderr %q; want exit 1 naming the certificate problem", bad.code, bad.stderr)
	}

	insecure := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+base+"/tlsdb2?tls=true&tlsInsecure=true", "-p", "recordcount=5")
	if insecure.code != 0 || !strings.Contains(insecure.stderr, "warning: tlsInsecure") {
		t.Errorf("tlsInsecure: exit %d, stderr %q; want a warning", insecure.code, insecure.stderr)
	}
}
