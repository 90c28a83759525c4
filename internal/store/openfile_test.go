package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenFile: a directory and a text file named as the store are
// refused as the user's mistakes; a new file is a new store.
func TestOpenFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := OpenFile(dir)
	var nf *NotAFileError
	if !errors.As(err, &nf) || !strings.HasPrefix(err.Error(), dir+" is a directory: expected a results store file") {
		t.Errorf("a directory: %v", err)
	}
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(text); err == nil || !Refused(err) {
		t.Errorf("a text file: %v, want it refused", err)
	}
	s, err := OpenFile(filepath.Join(dir, "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if Refused(errors.New("disk full")) || !Refused(ErrNewerSchema) {
		t.Error("Refused tells the wrong errors apart")
	}
}
