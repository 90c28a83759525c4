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
