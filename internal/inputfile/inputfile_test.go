package inputfile

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpen: regular files, and links to them, open; everything else is
// refused at once with what it is, a named pipe without a writer included
// (os.Open would wait for one forever).
func TestOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	regular := filepath.Join(dir, "workload")
	if err := os.WriteFile(regular, []byte("recordcount=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "fifo-link")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	tests := []struct {
		name, path string
		want       string // "" = opens and reads the content
	}{
		{"regular file", regular, ""},
		{"link to a regular file", link, ""},
		{"named pipe nobody writes", fifo, "open " + fifo + ": is a named pipe (FIFO), not a regular file"},
		{"link to a named pipe", fifoLink, "open " + fifoLink + ": is a named pipe (FIFO), not a regular file"},
		{"directory", dir, "open " + dir + ": is a directory, not a regular file"},
		{"character device", os.DevNull, "open " + os.DevNull + ": is a character device, not a regular file"},
		{"socket", sock, "open " + sock + ": no such device or address"}, // sockets cannot be opened at all
		{"missing", filepath.Join(dir, "none"), "open " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			type result struct {
				f   *os.File
				err error
			}
			done := make(chan result, 1)
			go func() {
				f, err := Open(tt.path)
				done <- result{f, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(time.Minute): // only a blocked open gets here
				t.Fatalf("Open(%s) still blocked after a minute", tt.path)
			}
			if tt.want == "" {
				if r.err != nil {
					t.Fatal(r.err)
				}
				defer r.f.Close()
				if b, err := io.ReadAll(r.f); err != nil || string(b) != "recordcount=1\n" {
					t.Errorf("read %q, %v", b, err)
				}
				return
			}
			if r.err == nil {
				r.f.Close()
				t.Fatalf("Open(%s) succeeded, want %q", tt.path, tt.want)
			}
			if r.err.Error() != tt.want {
				t.Errorf("error %q, want %q", r.err, tt.want)
			}
			var pe *os.PathError
			if !errors.As(r.err, &pe) {
				t.Errorf("error %v is not an *os.PathError", r.err)
			}
		})
	}
}
