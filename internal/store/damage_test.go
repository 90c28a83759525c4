package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenRefusesDamagedStores damages a store's file in the ways disks,
// copies and hands do: Open must refuse it with ErrCorrupt, naming the
// file, rather than open it and fail on the page a later save touches.
func TestOpenRefusesDamagedStores(t *testing.T) {
	t.Parallel()
	const pageSize = 4096
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, path string, size int64)
		want   error // nil: any error will do (the header itself is gone)
	}{
		{"cut in half (an interrupted copy)", func(t *testing.T, p string, size int64) {
			truncate(t, p, size/2/pageSize*pageSize)
		}, ErrCorrupt},
		{"last page cut short", func(t *testing.T, p string, size int64) {
			truncate(t, p, size-pageSize/2)
		}, ErrCorrupt},
		{"a page in the middle overwritten with text", func(t *testing.T, p string, size int64) {
			overwrite(t, p, (size/pageSize/2)*pageSize, []byte(strings.Repeat("garbage ", pageSize/8)))
		}, ErrCorrupt},
		{"a page in the middle zeroed", func(t *testing.T, p string, size int64) {
			overwrite(t, p, (size/pageSize/2)*pageSize, make([]byte, pageSize))
		}, ErrCorrupt},
		{"the schema page overwritten past the header", func(t *testing.T, p string, _ int64) {
			overwrite(t, p, 100, []byte(strings.Repeat("\xff", 400)))
		}, nil},
		{"the header overwritten", func(t *testing.T, p string, _ int64) {
			overwrite(t, p, 0, []byte(strings.Repeat("x", 100)))
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "runs.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 60 {
				save(t, s, runResults(t, "damage", "run", t0.Add(time.Duration(i)*time.Minute), int64(1000+i)), SaveOptions{})
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Size() < 8*pageSize {
				t.Fatalf("the store is %d bytes: too small to damage a page in the middle", fi.Size())
			}
			tc.damage(t, path, fi.Size())
			s, err = Open(path)
			if err == nil {
				_ = s.Close()
				t.Fatal("Open accepted a damaged store")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Open: %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("Open: %v, want the path in the error", err)
			}
		})
	}
}

func truncate(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

func overwrite(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
