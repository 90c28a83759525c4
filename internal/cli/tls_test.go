package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/embedded"
)

// writeCertificate makes a self-signed certificate for 127.0.0.1 that is
// its own CA, and returns the certificate and key files.
func writeCertificate(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "mongobench test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "server.pem"), filepath.Join(dir, "server.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestTLS runs a benchmark over TLS against the embedded server's TLS
// listener, verifying the server with a CA file; without the CA the
// connection is refused, and tlsInsecure gets a warning.
func TestTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cert, key := writeCertificate(t, dir)
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
