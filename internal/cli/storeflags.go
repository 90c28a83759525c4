package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mongobench/mongobench/internal/store"
)

// storeFlags are the results store options every command that records or
// reads runs accepts: --store PATH and --no-store.
type storeFlags struct {
	path     string
	disabled bool
}

// defs are --store and --no-store, bound to f; the usages say what the
// command does with the store.
func (f *storeFlags) defs(usage, noStoreUsage string) []flagDef {
	return []flagDef{
		textFlag("store", "PATH", usage, true, &f.path),
		switchFlag("no-store", noStoreUsage, true, &f.disabled),
	}
}

// readOnlyNoStore is --no-store's usage for the commands that only read
// the store, which accept it so that a command line shared with load and
// run works.
const readOnlyNoStore = "ignored: this command records nothing"

// storeEnv names the store used when no --store is given, so that a
// project, a CI job or a test suite can keep its runs out of the working
// directory without repeating --store on every command.
const storeEnv = "MONGOBENCH_STORE"

// fromEnv fills in the store named by $MONGOBENCH_STORE when the command
// line named none.
func (f *storeFlags) fromEnv(env Env) {
	if f.path == "" && env.Getenv != nil {
		f.path = strings.TrimSpace(env.Getenv(storeEnv))
	}
}

// storePath returns path, or the default store when path is empty.
func storePath(path string) string {
	if path == "" {
		return store.DefaultPath
	}
	return path
}

// openStore opens (creating if needed) the store at path. A file that is
// not a mongobench store, or one written by a newer mongobench, is the
// user's mistake in --store: it is bad input, not a failure.
func openStore(path string) (*store.Store, error) {
	path = storePath(path)
	s, err := store.OpenFile(path)
	var nf *store.NotAFileError
	switch {
	case errors.As(err, &nf):
		return nil, badInputf("--store %w", err)
	case store.Refused(err):
		return nil, badInputf("--store %s: %w", path, err)
	case err != nil:
		return nil, fmt.Errorf("results store: %w", err)
	}
	return s, nil
}

// openExistingStore opens the store at path for reading. Commands that only
// read runs must not leave an empty store behind when the user named a file
// that does not exist, so a missing file is reported instead of created.
func openExistingStore(path string) (*store.Store, error) {
	path = storePath(path)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, badInputf("no results store at %s: runs are recorded there by load, run and sweep (or name another with --store PATH)", path)
		}
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	return openStore(path)
}
