package store

import (
	"errors"
	"fmt"
	"os"
)

// NotAFileError refuses a store path that is a directory or another
// thing than a regular file, which SQLite would call "out of memory (14)".
type NotAFileError struct{ Path, What string }

func (e *NotAFileError) Error() string {
	return fmt.Sprintf("%s %s: expected a results store file (mongobench.db), or a new file in a writable directory", e.Path, e.What)
}

// OpenFile is Open for a path a user named: one that is no regular file
// is a *NotAFileError, and Refused tells the user's mistakes from
// failures.
func OpenFile(path string) (*Store, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		what := "is not a regular file"
		if fi.IsDir() {
			what = "is a directory"
		}
		return nil, &NotAFileError{path, what}
	}
	return Open(path)
}

// sqliteNotADB is SQLite's result code for a file that is no database.
const sqliteNotADB = 26

// Refused reports whether err says the file named is no store this
// mongobench can use (not a store, not a database at all, written by a
// newer mongobench, damaged): the user's mistake, not a failure.
func Refused(err error) bool {
	var coded interface{ Code() int }
	if errors.As(err, &coded) && coded.Code()&0xff == sqliteNotADB {
		return true
	}
	return errors.Is(err, ErrNotAStore) || errors.Is(err, ErrNewerSchema) || errors.Is(err, ErrCorrupt)
}

// FlagError is a store the user named (--store, $MONGOBENCH_STORE) that
// cannot be used as one: the user's to fix, not a failure.
type FlagError struct{ Err error }

func (e FlagError) Error() string { return e.Err.Error() }
func (e FlagError) Unwrap() error { return e.Err }

// OpenNamed opens (creating if needed) the store at path as --store names
// it: a file that is not a mongobench store, or one written by a newer
// mongobench, is a FlagError that names the flag; any other error is a
// failure.
func OpenNamed(path string) (*Store, error) {
	s, err := OpenFile(path)
	var nf *NotAFileError
	switch {
	case errors.As(err, &nf):
		return nil, FlagError{fmt.Errorf("--store %w", err)}
	case Refused(err):
		return nil, FlagError{fmt.Errorf("--store %s: %w", path, err)}
	case err != nil:
		return nil, fmt.Errorf("results store: %w", err)
	}
	return s, nil
}

// OpenExisting is OpenNamed for the commands that only read runs: they
// must not leave an empty store behind where the user named a file that
// does not exist, so a missing file is a FlagError instead.
func OpenExisting(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, FlagError{fmt.Errorf("no results store at %s: runs are recorded there by load, run and sweep (or name another with --store PATH)", path)}
		}
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	return OpenNamed(path)
}
