package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadURLOptions gives URLs whose options the driver refuses only when
// it connects: each must be bad input (exit 2) with the driver's reason on
// one line, the password masked, before anything is contacted.
func TestBadURLOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("-----BEGIN NOTHING-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, url, want string }{
		{"unknown read preference", "mongodb://u:S3NTINEL@127.0.0.1:1/db?readPreference=bogus", "mongodb.url mongodb://u:***@127.0.0.1:1/db?readPreference=bogus is invalid: unknown read preference bogus"},
		{"tags with primary", "mongodb://127.0.0.1:1/db?readPreference=primary&readPreferenceTags=dc:ny", "is invalid: "},
		{"bad journal", "mongodb://127.0.0.1:1/db?journal=maybe", `is invalid: invalid value for "journal": "maybe"`},
		{"srv with a port", "mongodb+srv://u:S3NTINEL@cluster0.example.net:27017/db", "mongodb.url mongodb+srv://u:***@cluster0.example.net:27017/db is invalid: a mongodb+srv:// URL takes no port"},
		{"srv with two hosts", "mongodb+srv://a.example.net,b.example.net/db", "is invalid: a mongodb+srv:// URL names one host"},
		{"srv with a bad option", "mongodb+srv://cluster0.example.net/db?readPreference=bogus", "is invalid: unknown read preference bogus"},
		{"CA file a directory", "mongodb://127.0.0.1:1/db?tls=true&tlsCAFile=" + dir, "mongodb.url option tlsCAFile=" + dir + ": the file cannot be read (is a directory, not a regular file)"},
		{"CA file without a certificate", "mongodb://127.0.0.1:1/db?tls=true&tlsCAFile=" + notPEM, "is invalid: the specified CA file does not contain any valid certificates"},
		{"key file without a key", "mongodb://127.0.0.1:1/db?tls=true&tlsCertificateKeyFile=" + notPEM, "is invalid: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+tt.url)
			if r.code != ExitBadInput {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tt.want) || strings.Contains(r.stderr, "S3NTINEL") {
				t.Errorf("stderr %q: want one line containing %q", r.stderr, tt.want)
			}
		})
	}
}
