package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestControlCharacters: a label with a control character is refused
// (exit 2, one line, the character escaped), and other user text that
// reaches the terminal (unknown property names, table cells) is shown
// with its control characters escaped.
func TestControlCharacters(t *testing.T) {
	t.Parallel()
	const url = "mongodb://127.0.0.1:1/x"
	labelFile := filepath.Join(t.TempDir(), "label")
	if err := os.WriteFile(labelFile, []byte("recordcount=10\noperationcount=10\nlabel=a\\u001b[31mb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const accepted = "expected printable text: no control characters such as newlines, tabs or escapes"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"newline label", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-l", "a\nb"}, `label="a\nb" is invalid: ` + accepted},
		{"tab label", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "label=a\tb"}, `label="a\tb" is invalid: ` + accepted},
		{"escape label from a file", []string{"run", "mongodb", "-P", labelFile, "-p", "mongodb.url=" + url}, `label="a\x1b[31mb" (` + labelFile + `:3) is invalid: ` + accepted},
		{"C1 label", []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-l", "x\u009by"}, `label="x\u009by" is invalid: ` + accepted},
		{"line separator label", []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-l", "x\u2028y"}, `label="x\u2028y" is invalid: ` + accepted},
		{"sweep label", []string{"sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-l", "s\x1bt", "--vary", "threadcount=1,2"}, `sweep point threadcount=1: label="s\x1bt" is invalid: ` + accepted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != ExitBadInput {
				t.Fatalf("exit %d, want %d; stderr: %q", r.code, ExitBadInput, r.stderr)
			}
			if !strings.HasSuffix(r.stderr, "mongobench: "+tt.want+"\n") {
				t.Errorf("stderr %q, want it to end with the line %q", r.stderr, tt.want)
			}
		})
	}

	// An unknown property's name is escaped in its warning; the run then
	// stops on another mistake, before connecting.
	r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "evil\x1b]0;pwned\x07=1", "-p", "table=$x")
	if want := "mongobench: warning: unknown property evil\\x1b]0;pwned\\a (ignored)\n"; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr %q, want it to start with %q", r.stderr, want)
	}
}
