// Package inputfile opens the files a user names as input (workload files,
// histogram files, results files) and refuses anything but a regular file.
// Opening a named pipe that nobody writes blocks until someone does, which
// may be never, and a read from a directory or a device either fails
// obscurely or never ends: each is a mistake, reported before any work.
package inputfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by Open's error for a path that is not a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading if it is a regular file (or a link to one).
// It never blocks: the file is opened non-blocking, which for a named pipe
// returns at once instead of waiting for a writer, and checked before
// anything is read.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if kind := describe(info.Mode()); kind != "" {
		f.Close()
		// A PathError, as os.Open's own are: "open PATH: is a directory,
		// not a regular file".
		return nil, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("is %s, %w", kind, ErrNotRegular)}
	}
	return f, nil
}

// describe names a mode that is not a regular file's; "" for a regular
// file.
func describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file (" + m.Type().String() + ")"
}
