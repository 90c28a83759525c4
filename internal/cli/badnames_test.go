package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadNames gives names MongoDB forbids: each must exit 2 with one line
// naming the property and MongoDB's rule, before anything connects (the
// URL's port is closed: had it been contacted, the exit would be 1).
func TestBadNames(t *testing.T) {
	t.Parallel()
	const url = "mongodb://127.0.0.1:1/"
	nulTable := filepath.Join(t.TempDir(), "nul")
	if err := os.WriteFile(nulTable, []byte("recordcount=10\noperationcount=10\ntable=user\\u0000table\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) []string {
		return append([]string{"run", "mongodb", "-P", "workloada"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"table starting with $", run("-p", "mongodb.url="+url+"x", "-p", "table=$foo"), `table="$foo" is invalid: it holds '$'`},
		{"table with $ inside", run("-p", "mongodb.url="+url+"x", "-p", "table=a$b"), `table="a$b" is invalid: it holds '$'`},
		{"table system.", run("-p", "mongodb.url="+url+"x", "-p", "table=system.profile"), `table="system.profile" is invalid: it begins with "system."`},
		{"table with a null character", []string{"run", "mongodb", "-P", nulTable, "-p", "mongodb.url=" + url + "x"}, `table="user\x00table" is invalid: it holds the null character`},
		{"table too long", run("-p", "mongodb.url="+url+"x", "-p", "table="+strings.Repeat("t", 254)), "is invalid: 254 bytes long: MongoDB allows 255 bytes for database.collection, so at most 253"},
		// The embedded server's database is ycsb: the table is checked against it.
		{"table, embedded server", run("-p", "table=$x"), `table="$x" is invalid: it holds '$'`},
		{"field prefix $", run("-p", "mongodb.url="+url+"x", "-p", "fieldnameprefix=$x"), `fieldnameprefix="$x" is invalid: it begins with $`},
		{"field prefix with a dot", run("-p", "mongodb.url="+url+"x", "-p", "fieldnameprefix=f.g"), `fieldnameprefix="f.g" is invalid: it holds '.'`},
		{"database with a dot", run("-p", "mongodb.url="+url+"a.b"), `mongodb.url mongodb://127.0.0.1:1/a.b names the database "a.b", which is invalid: it holds '.'`},
		{"database with a space", run("-p", "mongodb.url="+url+"my%20db"), `names the database "my db", which is invalid: it holds a space`},
		{"database with a slash", run("-p", "mongodb.url="+url+"a%2Fb"), `names the database "a/b", which is invalid: it holds '/'`},
		{"database with a backslash", run("-p", "mongodb.url="+url+"a%5Cb"), `names the database "a\\b", which is invalid: it holds '\'`},
		{"database with a quote", run("-p", "mongodb.url="+url+"a%22b"), `names the database "a\"b", which is invalid: it holds '"'`},
		{"database with $", run("-p", "mongodb.url="+url+"a$b"), `names the database "a$b", which is invalid: it holds '$'`},
		{"database of 64 bytes", run("-p", "mongodb.url="+url+strings.Repeat("d", 64)), "which is invalid: 64 bytes long: MongoDB database names are fewer than 64 bytes"},
		// The password stays masked in the message.
		{"database with a password in the URL", run("-p", "mongodb.url=mongodb://u:S3NTINEL@127.0.0.1:1/a.b"), `mongodb.url mongodb://u:***@127.0.0.1:1/a.b names the database "a.b"`},
		{"sweep varying the table", []string{"sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url + "x", "--vary", "table=good,$bad"}, `table="$bad" is invalid: it holds '$'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != ExitBadInput {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, tt.want) || strings.Contains(r.stderr, "S3NTINEL") {
				t.Errorf("stderr %q: want a line containing %q", r.stderr, tt.want)
			}
			if tt.args[0] != "sweep" && len(lines) != 1 {
				t.Errorf("stderr has %d lines, want 1: %q", len(lines), r.stderr)
			}
		})
	}
}
