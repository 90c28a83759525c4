package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
)

// TestKeep: the results file and the store's copy are each kept whatever
// became of the other, and a stopped context still saves the run.
func TestKeep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := store.OpenFile(filepath.Join(dir, "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	res := resultstest.Results(t, resultstest.Spec{Throughput: 1000})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	var tally output.Tally
	var notes bytes.Buffer
	out := filepath.Join(dir, "run.json")
	Keep(ctx, &tally, &notes, out, st, res)
	if len(tally.Failed) != 0 || len(tally.Kept) != 2 || tally.Kept[0] != "the results file "+out || !strings.HasPrefix(tally.Kept[1], "run 1 in ") {
		t.Errorf("tally %+v", tally)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	if want := "mongobench: saved as run 1 in " + st.Path() + "\n"; notes.String() != want {
		t.Errorf("notes %q, want %q", notes.String(), want)
	}

	tally, notes = output.Tally{}, bytes.Buffer{}
	Keep(context.Background(), &tally, &notes, filepath.Join(dir, "missing", "run.json"), st, res)
	if len(tally.Failed) != 1 || len(tally.Kept) != 1 || !strings.HasPrefix(tally.Kept[0], "run 2 in ") {
		t.Errorf("an unwritable file: tally %+v", tally)
	}

	tally = output.Tally{}
	Keep(context.Background(), &tally, &notes, "", nil, res)
	if len(tally.Failed)+len(tally.Kept) != 0 {
		t.Errorf("nothing asked: tally %+v", tally)
	}
}
