package outfile

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// node makes what stands at a path before a write; it returns the path.
type node func(t *testing.T, dir string) string

func nothing(t *testing.T, dir string) string { return filepath.Join(dir, "out.json") }

func regular(t *testing.T, dir string) string {
	p := filepath.Join(dir, "out.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func directory(t *testing.T, dir string) string {
	p := filepath.Join(dir, "out.json")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func symlink(t *testing.T, dir string) string {
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "out.json")
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func danglingSymlink(t *testing.T, dir string) string {
	p := filepath.Join(dir, "out.json")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), p); err != nil {
		t.Fatal(err)
	}
	return p
}

func fifo(t *testing.T, dir string) string {
	p := filepath.Join(dir, "out.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return p
}

func socket(t *testing.T, dir string) string {
	p := filepath.Join(dir, "s")
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return p
}

func missingDir(t *testing.T, dir string) string { return filepath.Join(dir, "no", "such", "out.json") }

func parentIsFile(t *testing.T, dir string) string {
	return filepath.Join(regular(t, dir), "out.json")
}

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		at   node
		want string // "" for writable
	}{
		{"nothing there yet", nothing, ""},
		{"a regular file to replace", regular, ""},
		{"a directory", directory, "is a directory"},
		{"a symbolic link to a file", symlink, "symbolic link"},
		{"a symbolic link to nothing", danglingSymlink, "symbolic link"},
		{"a FIFO, which would block the writer", fifo, "named pipe"},
		{"a socket", socket, "socket"},
		{"a directory that does not exist", missingDir, "does not exist"},
		{"a file where the directory should be", parentIsFile, "not a directory"},
		{"a device node", func(*testing.T, string) string { return os.DevNull }, "is a device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Check(tc.at(t, t.TempDir()))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check: %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Check: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

func TestCheckDir(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		at   func(t *testing.T, dir string) string
		want string
	}{
		{"an existing directory", func(_ *testing.T, d string) string { return d }, ""},
		{"a directory to be created, nested", func(_ *testing.T, d string) string { return filepath.Join(d, "a", "b") }, ""},
		{"a regular file", regular, "not a directory"},
		{"below a regular file", parentIsFile, "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := tc.at(t, t.TempDir())
			err := CheckDir(dir)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckDir: %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("CheckDir: %v, want an error saying %q", err, tc.want)
			}
			// A check leaves nothing behind.
			if entries, _ := os.ReadDir(filepath.Dir(dir)); tc.want == "" {
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), ".mongobench-check") {
						t.Errorf("check left %s behind", e.Name())
					}
				}
			}
		})
	}
}

// TestWrite writes over every kind of node: only nothing or a regular
// file is written; anything else is left as it was, with no temporary
// file left beside it.
func TestWrite(t *testing.T) {
	t.Parallel()
	failing := errors.New("the renderer failed")
	for _, tc := range []struct {
		name    string
		at      node
		fill    func(io.Writer) error
		want    string // error text; "" when the write must succeed
		written bool
	}{
		{"into nothing", nothing, writeNew, "", true},
		{"over a regular file", regular, writeNew, "", true},
		{"over a directory", directory, writeNew, "is a directory", false},
		{"through a symbolic link", symlink, writeNew, "symbolic link", false},
		{"through a dangling symbolic link", danglingSymlink, writeNew, "symbolic link", false},
		{"into a FIFO", fifo, writeNew, "named pipe", false},
		{"into a missing directory", missingDir, writeNew, "no such file", false},
		{"a fill that fails leaves the old file", regular, func(w io.Writer) error { _, _ = io.WriteString(w, "half"); return failing }, "the renderer failed", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := tc.at(t, dir)
			before := snapshot(t, dir)
			err := Write(path, tc.fill)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Write: %v", err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Write: %v, want an error naming %s and saying %q", err, path, tc.want)
			}
			if tc.written {
				b, err := os.ReadFile(path)
				if err != nil || string(b) != "new" {
					t.Errorf("%s holds %q (%v), want \"new\"", path, b, err)
				}
				if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
					t.Errorf("%s: mode %v (%v), want 0644", path, fi.Mode(), err)
				}
				return
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the directory changed although the write failed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func writeNew(w io.Writer) error {
	_, err := io.WriteString(w, "new")
	return err
}

// snapshot describes every entry of dir, recursively: name, kind and
// content of regular files.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			c, _ := os.ReadFile(p)
			b.WriteString(" " + string(c))
		}
		b.WriteString("; ")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestCreate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		at   node
		want string
	}{
		{"into nothing", nothing, ""},
		{"over a regular file, truncated", regular, ""},
		{"over a directory", directory, "is a directory"},
		{"through a symbolic link", symlink, "symbolic link"},
		{"into a FIFO, which would block", fifo, "named pipe"},
		{"into a missing directory", missingDir, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := tc.at(t, dir)
			before := snapshot(t, dir)
			f, err := Create(path)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
					t.Fatalf("Create: %v, want an error naming %s and saying %q", err, path, tc.want)
				}
				if after := snapshot(t, dir); after != before {
					t.Errorf("the directory changed although Create failed:\nbefore %s\nafter  %s", before, after)
				}
				return
			}
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			if _, err := io.WriteString(f, "line\n"); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != "line\n" {
				t.Errorf("%s holds %q, want \"line\\n\"", path, b)
			}
		})
	}
}

// TestFullDisk writes to /dev/full, which refuses every write as a full
// disk does: the failure surfaces, naming the file.
func TestFullDisk(t *testing.T) {
	t.Parallel()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	out := &File{f: f}
	_, werr := io.WriteString(out, "x")
	_ = out.Close() // a device may or may not fail a sync after a failed write
	if werr == nil || !errors.Is(werr, syscall.ENOSPC) || !strings.Contains(werr.Error(), "/dev/full") {
		t.Errorf("write: %v, want ENOSPC naming /dev/full", werr)
	}
}

func TestSame(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := regular(t, dir)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard")
	if err := os.Link(a, hard); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		a, b string
		want bool
	}{
		{"the same path", a, a, true},
		{"another spelling", a, filepath.Join(dir, ".", "x", "..", "out.json"), true},
		{"a symbolic link to it", a, link, true},
		{"a hard link to it", a, hard, true},
		{"another file", a, other, false},
		{"two paths to nothing, the same", filepath.Join(dir, "n"), filepath.Join(dir, "m", "..", "n"), true},
		{"two paths to nothing, different", filepath.Join(dir, "n"), filepath.Join(dir, "m"), false},
	} {
		if got := Same(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Same(%s, %s) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
}
