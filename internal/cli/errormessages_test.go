package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorMessagesShown loads the same records twice: every insert of the
// second load fails on a duplicate key, and the summary and the results
// file must say so in the server's words, not only Return=ERROR.
func TestErrorMessagesShown(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	tests := []struct {
		name  string
		batch string
		want  []string // lines of the summary, up to the message's start
		op    string
	}{
		{"one by one", "1", []string{"[INSERT-FAILED], Error1, 20\n[INSERT-FAILED], Error1.Message, duplicate key: "}, "INSERT"},
		{"batched", "5", []string{"[INSERT-FAILED], Error1, 20\n[INSERT-FAILED], Error1.Message, duplicate key: ", "[INSERT-BATCH-FAILED], Error1, 4\n[INSERT-BATCH-FAILED], Error1.Message, duplicate key: "}, "INSERT-BATCH"},
	}
	args := []string{"load", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", "recordcount=20", "--no-store"}
	if r := mongobench(t, args...); r.code != 0 {
		t.Fatalf("first load: exit %d: %s", r.code, r.stderr)
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "r.json")
		r := mongobench(t, append(args, "-p", "batchsize="+tt.batch, "--out", out)...)
		if r.code != ExitFailed {
			t.Fatalf("%s: second load: exit %d, want %d: %s", tt.name, r.code, ExitFailed, r.stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stdout, "\n"+w) {
				t.Errorf("%s: no line starting %q in\n%s", tt.name, w, r.stdout)
			}
		}
		checkThreeFields(t, r.stdout)
		if !strings.Contains(r.stderr, "every one of the 20 operations failed (see the Return= and Error lines)") {
			t.Errorf("%s: stderr %q", tt.name, r.stderr)
		}
		res := readResults(t, out)
		var found bool
		for _, oe := range res.ErrorMessages {
			if oe.Op == tt.op && len(oe.Messages) == 1 && strings.HasPrefix(oe.Messages[0].Message, "duplicate key: ") && oe.Other == 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: results error_messages = %+v, want one duplicate-key message for %s", tt.name, res.ErrorMessages, tt.op)
		}
	}
}
