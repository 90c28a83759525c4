package mongo

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestDatabaseFromURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ url, want string }{
		{"mongodb://localhost:27017/ycsb?w=1", "ycsb"},
		{"mongodb://localhost:27017", "ycsb"},
		{"mongodb://localhost:27017/", "ycsb"},
		{"mongodb://localhost:27017/?w=1", "ycsb"},
		// admin is where users authenticate, not where data goes.
		{"mongodb://u:p@h/admin?authSource=admin", "ycsb"},
		{"mongodb://admin:password@node1:20000,node2:20000,node3:20000/testdb?authSource=admin", "testdb"},
		// A slash in the password does not start the path.
		{"mongodb://u:p/x@h:1/bench", "bench"},
		{"mongodb+srv://u:p@cluster0.example.net/mydb?retryWrites=true", "mydb"},
	}
	for _, tt := range tests {
		if got := DatabaseFromURL(tt.url); got != tt.want {
			t.Errorf("DatabaseFromURL(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestApplyDeprecated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		url, wc, rp, max string
		want             string
		warn             string
		err              string
	}{
		{name: "none", url: "mongodb://h/db", want: "mongodb://h/db"},
		{name: "unacknowledged", url: "mongodb://h/db", wc: "unacknowledged", want: "mongodb://h/db?w=0"},
		{name: "errors_ignored", url: "mongodb://h", wc: "errors_ignored", want: "mongodb://h/?w=0"},
		{name: "acknowledged", url: "mongodb://h/db?x=1", wc: "acknowledged", want: "mongodb://h/db?x=1&w=1"},
		{name: "journaled", url: "mongodb://h/db", wc: "journaled", want: "mongodb://h/db?journal=true"},
		{name: "replica", url: "mongodb://h/db", wc: "replica_acknowledged", want: "mongodb://h/db?w=2"},
		{name: "majority", url: "mongodb://h/db", wc: "majority", want: "mongodb://h/db?w=majority"},
		{name: "url wins", url: "mongodb://h/db?w=1", wc: "majority", want: "mongodb://h/db?w=1", warn: "mongodb.writeConcern=majority ignored: the URL sets w"},
		{name: "read preference", url: "mongodb://h/db", rp: "secondary_preferred", want: "mongodb://h/db?readPreference=secondaryPreferred"},
		{name: "max connections", url: "mongodb://h/db", max: "50", want: "mongodb://h/db?maxPoolSize=50"},
		{name: "all three", url: "mongodb://h/db", wc: "acknowledged", rp: "nearest", max: "7", want: "mongodb://h/db?w=1&readPreference=nearest&maxPoolSize=7"},
		// The URL's own w values, so that a sweep can vary them.
		{name: "w number", url: "mongodb://h/db", wc: "1", want: "mongodb://h/db?w=1"},
		{name: "w zero", url: "mongodb://h/db", wc: "0", want: "mongodb://h/db?w=0"},
		{name: "w three", url: "mongodb://h/db", wc: "3", want: "mongodb://h/db?w=3"},
		{name: "majority upper case", url: "mongodb://h/db", wc: "MAJORITY", want: "mongodb://h/db?w=majority"},
		{name: "read preference URL spelling", url: "mongodb://h/db", rp: "secondaryPreferred", want: "mongodb://h/db?readPreference=secondaryPreferred"},
		{name: "bad write concern", url: "mongodb://h/db", wc: "safe", err: `mongodb.writeConcern="safe" is invalid: expected a number of members (0, 1, 2, ...), majority, or one of errors_ignored, unacknowledged, acknowledged, journaled, replica_acknowledged`},
		{name: "negative w", url: "mongodb://h/db", wc: "-1", err: `mongodb.writeConcern="-1" is invalid`},
		{name: "w past 50 members", url: "mongodb://h/db", wc: "51", err: `mongodb.writeConcern="51" is invalid`},
		{name: "bad read preference", url: "mongodb://h/db", rp: "closest", err: `mongodb.readPreference="closest" is invalid`},
		{name: "bad max connections", url: "mongodb://h/db", max: "0", err: `mongodb.maxconnections="0" is invalid: expected a whole number > 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, warns, err := ApplyDeprecated(tt.url, tt.wc, tt.rp, tt.max)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("URL = %q, want %q", got, tt.want)
			}
			if tt.warn != "" && (len(warns) != 1 || warns[0] != tt.warn) {
				t.Errorf("warnings = %v, want %q", warns, tt.warn)
			}
		})
	}
}

func TestValidateURL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca, empty := writeCA(t, dir), filepath.Join(dir, "empty.pem")
	if err := os.WriteFile(empty, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ url, err string }{
		{"mongodb://localhost:27017/ycsb?w=1", ""},
		// Not regular files: a FIFO would block the driver's read of it.
		{"mongodb://h/db?tls=true&tlsCAFile=" + fifo, "mongodb.url option tlsCAFile=" + fifo + ": the file cannot be read (is a named pipe (FIFO), not a regular file)"},
		{"mongodb://h/db?tls=true&tlsCertificateKeyFile=" + filepath.Dir(fifo), "the file cannot be read (is a directory, not a regular file)"},
		{"mongodb://a:1,b:2,c:3/db?authSource=admin", ""},
		{"mongodb://h:notaport/db", "mongodb.url mongodb://h:notaport/db is invalid"},
		{"mongodb://u:secret@h/db?maxPoolSize=abc", `mongodb.url mongodb://u:***@h/db?maxPoolSize=abc is invalid: invalid value for "maxPoolSize": "abc"`},
		{"mongodb://", "mongodb.url mongodb:// is invalid: must have at least 1 host"},
		{"mongodb://h/db?tls=true&tlsCAFile=" + ca, ""},
		{"mongodb://h/db?tls=true&tlsCAFile=/nonexistent/ca.pem", "mongodb.url option tlsCAFile=/nonexistent/ca.pem: the file cannot be read (no such file or directory)"},
		{"mongodb+srv://u:p@cluster/db?tlsCertificateKeyFile=/nonexistent/k.pem", "tlsCertificateKeyFile=/nonexistent/k.pem: the file cannot be read"},
		// Options the driver would only refuse when connecting.
		{"mongodb://u:secret@h/db?readPreference=bogus", "mongodb.url mongodb://u:***@h/db?readPreference=bogus is invalid: "},
		{"mongodb://h/db?readPreference=primary&readPreferenceTags=dc:ny", "mongodb.url mongodb://h/db?readPreference=primary&readPreferenceTags=dc:ny is invalid: "},
		{"mongodb://h/db?readPreference=secondaryPreferred&maxStalenessSeconds=90", ""},
		{"mongodb://h/db?tls=true&tlsCAFile=" + dir, "mongodb.url option tlsCAFile=" + dir + ": the file cannot be read (is a directory, not a regular file)"},
		{"mongodb://h/db?tls=true&tlsCAFile=" + empty, "is invalid: the specified CA file does not contain any valid certificates"},
		{"mongodb://h/db?tls=true&tlsCertificateKeyFile=" + empty, "is invalid: "},
		// mongodb+srv: the rules the driver applies after DNS answers,
		// and the options, checked without a lookup.
		{"mongodb+srv://u:secret@cluster0.example.net/db?retryWrites=true&w=majority", ""},
		{"mongodb+srv://cluster0.example.net/?srvServiceName=custom&srvMaxHosts=2", ""},
		{"mongodb+srv://u:secret@cluster0.example.net:27017/db", "mongodb.url mongodb+srv://u:***@cluster0.example.net:27017/db is invalid: a mongodb+srv:// URL takes no port"},
		{"mongodb+srv://a.example.net,b.example.net/db", "is invalid: a mongodb+srv:// URL names one host"},
		{"mongodb+srv:///db", "is invalid: expected a host name after mongodb+srv://"},
		{"mongodb+srv://cluster0.example.net/db?readPreference=bogus", "mongodb.url mongodb+srv://cluster0.example.net/db?readPreference=bogus is invalid: "},
		{"mongodb+srv://cluster0.example.net/db?tls=true&tlsCAFile=" + empty, "does not contain any valid certificates"},
	}
	for _, tt := range tests {
		err := ValidateURL(tt.url)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("ValidateURL(%q) = %v, want nil", tt.url, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ValidateURL(%q) = %v, want %q", tt.url, err, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("error shows the password: %v", err)
		}
	}
}

// writeCA writes a self-signed CA certificate and returns its file.
func writeCA(t *testing.T, dir string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(f, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
