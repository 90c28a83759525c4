// Package outfile writes the files mongobench produces (results files,
// reports, journals, histogram logs, calibration reports) so that none of
// them replaces what it must not: a file is written only where a regular
// file or nothing stands, whole files are written atomically (a temporary
// file beside the target, synced, then renamed), and every write, sync and
// close is checked. Check lets a command find an unwritable path before it
// spends time measuring.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Check reports why path cannot be written as a regular file, or nil: what
// stands at path must be a regular file that may be written, or nothing,
// and the directory that holds it must take new files (the temporary file
// of an atomic write, SQLite's -wal and -shm files). The error says what
// is wrong in plain words, without the path, which the caller names with
// its flag.
func Check(path string) error {
	if path == "" {
		return errors.New("no file named")
	}
	if err := checkNode(path); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		// Opening without O_TRUNC changes nothing.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot be written (%s)", reason(err))
		}
		_ = f.Close()
	}
	return checkDir(filepath.Dir(path), false)
}

// checkNode refuses anything but a regular file at path; nothing there is
// fine.
func checkNode(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil // the look at its directory says more
	}
	if err != nil {
		return fmt.Errorf("cannot be examined (%s)", reason(err))
	}
	switch m := fi.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return errors.New("is a directory, not a file")
	case m&fs.ModeSymlink != 0:
		return errors.New("is a symbolic link, not a regular file")
	case m&fs.ModeNamedPipe != 0:
		return errors.New("is a named pipe (FIFO), not a regular file")
	case m&fs.ModeDevice != 0:
		return errors.New("is a device, not a regular file")
	case m&fs.ModeSocket != 0:
		return errors.New("is a socket, not a regular file")
	default:
		return errors.New("is not a regular file")
	}
}

// CheckDir reports why files cannot be created in dir, or nil. A directory
// that does not exist yet is fine when its nearest existing ancestor takes
// new entries, since it will be created.
func CheckDir(dir string) error { return checkDir(dir, true) }

// checkDir is CheckDir; a directory that does not exist is fine only when
// it will be created.
func checkDir(dir string, willCreate bool) error {
	if dir == "" {
		dir = "."
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, syscall.ENOTDIR) {
		// Some directory above is a file: the look at the parent finds it.
		if parent := filepath.Dir(dir); parent != dir {
			return checkDir(parent, true)
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		parent := filepath.Dir(dir)
		if !willCreate || parent == dir {
			return fmt.Errorf("directory %s does not exist", dir)
		}
		return checkDir(parent, true)
	}
	if err != nil {
		return fmt.Errorf("directory %s cannot be examined (%s)", dir, reason(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	// Permission bits do not tell a read-only mount, nor what root may
	// do: creating a file does.
	f, err := os.CreateTemp(dir, ".mongobench-check-*")
	if err != nil {
		return fmt.Errorf("directory %s does not take new files (%s)", dir, reason(err))
	}
	name := f.Name()
	cerr := f.Close()
	rerr := os.Remove(name)
	if cerr != nil {
		return fmt.Errorf("directory %s does not take new files (%s)", dir, reason(cerr))
	}
	if rerr != nil {
		return fmt.Errorf("directory %s: cannot remove a test file (%s)", dir, reason(rerr))
	}
	return nil
}

// reason is the system's own words for err, without the operation and
// path that os wraps around them (the caller names the path once).
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// Error is a failure to write one file: its path and the system's reason.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("cannot write %s: %s", e.Path, reason(e.Err)) }
func (e *Error) Unwrap() error { return e.Err }

// Write writes path whole with what fill writes, atomically: into a
// temporary file in the same directory, synced and closed, then renamed
// over path. A failure leaves whatever stood at path untouched and no
// temporary file behind. What stands at path must be a regular file or
// nothing, checked again just before the rename.
func Write(path string, fill func(io.Writer) error) (err error) {
	if err := checkNode(path); err != nil {
		return &Error{path, err}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return &Error{path, err}
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := fill(bw); err != nil {
		return &Error{path, err}
	}
	if err := bw.Flush(); err != nil {
		return &Error{path, err}
	}
	if err := tmp.Sync(); err != nil {
		return &Error{path, err}
	}
	// CreateTemp makes the file private; what mongobench writes is for
	// sharing.
	if err := tmp.Chmod(0o644); err != nil {
		return &Error{path, err}
	}
	if err := tmp.Close(); err != nil {
		return &Error{path, err}
	}
	if err := checkNode(path); err != nil {
		return &Error{path, err}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return &Error{path, err}
	}
	return syncDir(dir, path)
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// directory say so with EINVAL; that is no failure of the write.
func syncDir(dir, path string) error {
	d, err := os.Open(dir)
	if err != nil {
		return &Error{path, err}
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil && !errors.Is(serr, syscall.EINVAL) && !errors.Is(serr, errors.ErrUnsupported) {
		return &Error{path, serr}
	}
	if cerr != nil {
		return &Error{path, cerr}
	}
	return nil
}

// File is a file written as it goes (a journal, a histogram log), so that
// a run killed half way still leaves what it wrote. Its errors name it.
type File struct {
	f *os.File
}

// Create creates or truncates path for writing as it goes. What stands at
// path must be a regular file or nothing: a symbolic link, a pipe or a
// device is refused, not written through.
func Create(path string) (*File, error) {
	if err := checkNode(path); err != nil {
		return nil, &Error{path, err}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, &Error{path, err}
	}
	// Something else may have taken the name since the look above.
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		_ = f.Close()
		if err == nil {
			err = errors.New("is not a regular file")
		}
		return nil, &Error{path, err}
	}
	if err := f.Truncate(0); err != nil {
		_ = f.Close()
		return nil, &Error{path, err}
	}
	return &File{f: f}, nil
}

// Name returns the file's path.
func (f *File) Name() string { return f.f.Name() }

// Write writes p; a failure names the file.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		return n, &Error{f.f.Name(), err}
	}
	return n, nil
}

// Close syncs the file to disk and closes it: a write the disk refused
// late (a full disk, a quota) shows here or nowhere.
func (f *File) Close() error {
	serr := f.f.Sync()
	cerr := f.f.Close()
	if serr != nil {
		return &Error{f.f.Name(), serr}
	}
	if cerr != nil {
		return &Error{f.f.Name(), cerr}
	}
	return nil
}

// Same reports whether a and b name the same file: the same node when both
// exist, the same absolute path otherwise.
func Same(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
