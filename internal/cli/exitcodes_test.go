package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBoundedAndEscapedEchoes: what a message or table quotes of the
// user's input is bounded and escaped, and a value out of bounds is bad
// input (exit 2) in one line: a listen address with a port no listener
// takes, a --run-id of 100,000 characters, a --start-at years ahead, and
// control characters in a label or an argument of compare.
func TestBoundedAndEscapedEchoes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 100_000)
	url := "-p mongodb.url=" + closedURL
	part := func(extra ...string) []string {
		return append(append([]string{"run", "mongodb", "-P", "workloadc"}, strings.Fields(url)...), append([]string{"--part", "0/2", "--no-store"}, extra...)...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"server, a negative port", []string{"server", "--addr", ":-1"}, `--addr ":-1" is invalid: expected HOST:PORT, such as 127.0.0.1:27017, the port from 0 to 65535`},
		{"server, a port too high", []string{"server", "--addr", "127.0.0.1:65536"}, `--addr "127.0.0.1:65536" is invalid`},
		{"server, a port by name", []string{"server", "--null", "--addr", "127.0.0.1:http"}, `--addr "127.0.0.1:http" is invalid`},
		{"a --run-id of 100,000 characters", part("--run-id", long), `--run-id "` + strings.Repeat("a", 24) + `"… (100000 characters) is too long: expected printable text of at most 128 characters`},
		{"a --start-at of 100,000 characters", part("--start-at", long), `… (100000 characters)" is invalid: expected a time in RFC 3339 form`},
		{"a --start-at 73 years ahead", part("--start-at", time.Now().AddDate(73, 0, 0).UTC().Format(time.RFC3339)), "days from now: expected an instant within 24 hours"},
		{"a --start-at a day and a half ahead", part("--start-at", time.Now().Add(36*time.Hour).UTC().Format(time.RFC3339)), "from now: expected an instant within 24 hours"},
		{"a --start-at ahead, unpartitioned", []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--no-store", "--start-at", "2099-01-01T00:00:00Z"}, "expected an instant within 24 hours"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tc.args...)
			if r.code != ExitBadInput {
				t.Errorf("exit %d, want %d; stderr: %.300s", r.code, ExitBadInput, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || len(r.stderr) > 400 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %.500q: want one line of at most 400 bytes with %q", r.stderr, tc.want)
			}
		})
	}

	t.Run("compare escapes labels and arguments", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		a, b := distinctRun(t, "evil\x1b]0;TITLE\x07x\x1b[2J", 1), distinctRun(t, "plain", 2)
		fa, fb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b\x1b[31m.json")
		if err := writeResults(fa, a); err != nil {
			t.Fatal(err)
		}
		if err := writeResults(fb, b); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"text", "csv", "markdown"} {
			r := mongobench(t, "compare", fa, fb, "--format", format, "--no-store")
			if r.code != 0 {
				t.Fatalf("compare --format %s: exit %d: %s", format, r.code, r.stderr)
			}
			if strings.ContainsAny(r.stdout, "\x1b\x07") {
				t.Errorf("compare --format %s prints control characters raw:\n%q", format, r.stdout)
			}
			if format == "text" && (!strings.Contains(r.stdout, `label evil\x1b]0;TITLE\ax\x1b[2J`) || !strings.Contains(r.stdout, `b\x1b[31m.json`)) {
				t.Errorf("compare does not show the label and the file name escaped:\n%s", r.stdout)
			}
		}
		r := mongobench(t, "report", fa, fb, "-o", filepath.Join(dir, "r.html"), "--no-store")
		if r.code != 0 || strings.ContainsAny(r.stderr, "\x1b\x07") {
			t.Errorf("report: exit %d, stderr %q: want exit 0 and control characters escaped", r.code, r.stderr)
		}
	})
}
