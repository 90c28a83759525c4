package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenNamed: a directory, a file that is no store and a missing file
// for a reader are the user's (FlagError), worded with the flag; a new
// file is created by OpenNamed only.
func TestOpenNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notAStore := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notAStore, []byte("not a database, at some length to fill a page of SQLite's header...."), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.db")
	for _, tc := range []struct {
		open func(string) (*Store, error)
		path string
		want string
	}{
		{OpenNamed, dir, "--store " + dir + " is a directory"},
		{OpenNamed, notAStore, "--store " + notAStore + ": "},
		{OpenExisting, missing, "no results store at " + missing},
	} {
		s, err := tc.open(tc.path)
		var fe FlagError
		if s != nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a FlagError starting %q", tc.path, err, tc.want)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenExisting left a file at %s: %v", missing, err)
	}
	s, err := OpenNamed(missing)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = OpenExisting(missing); err != nil {
		t.Fatal(err)
	}
	s.Close()
}
