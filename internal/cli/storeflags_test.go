package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/store"
)

// TestSaveToStore checks the helper load, run and sweep record runs with:
// it saves, says under which id, and stays out of the way when the store
// is off or the caller saves the run itself.
func TestSaveToStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := synthResults(t, resultsSpec{label: "lone", throughput: 100})
	tests := []struct {
		name     string
		ctx      context.Context
		disabled bool
		saved    int
		says     string
	}{
		{"saved", context.Background(), false, 1, "mongobench: saved as run 1 in "},
		{"--no-store", context.Background(), true, 0, ""},
		// A sweep saves its runs with their sweep point.
		{"caller saves", withCallerSaves(context.Background()), false, 0, ""},
		// An interrupted run still records what it measured.
		{"cancelled", cancelled(), false, 1, "saved as run 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".db")
			var stderr bytes.Buffer
			if err := saveToStore(tc.ctx, Env{Stderr: &stderr}, path, tc.disabled, res, store.SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stderr.String(), tc.says) || (tc.says == "" && stderr.Len() > 0) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.says)
			}
			if tc.saved == 0 {
				if _, err := os.Stat(path); err == nil {
					t.Errorf("a store was created")
				}
				return
			}
			st, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			runs, err := st.List(context.Background(), store.Filter{Label: "lone"})
			if err != nil || len(runs) != tc.saved {
				t.Errorf("%d runs saved (err %v), want %d", len(runs), err, tc.saved)
			}
		})
	}
}

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestSaveToStoreNotAStore: a --store that names another program's file is
// bad input, and the file is left as it was.
func TestSaveToStoreNotAStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.txt")
	content := []byte("these are somebody's notes, not an SQLite database at all.......")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Stderr: &bytes.Buffer{}}
	err := saveToStore(context.Background(), env, path, false, synthResults(t, resultsSpec{throughput: 1}), store.SaveOptions{})
	if code := report(err, env); code != ExitBadInput {
		t.Errorf("exit %d (err %v), want %d", code, err, ExitBadInput)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Errorf("the file was changed")
	}
}
