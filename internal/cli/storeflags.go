package cli

import (
	"errors"
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

// openStore opens (creating if needed) the store at path
// (store.OpenNamed); a file the user named that is no store this
// mongobench can use is bad input, not a failure.
func openStore(path string) (*store.Store, error) {
	return namedStore(store.OpenNamed(storePath(path)))
}

// openExistingStore opens the store at path for reading
// (store.OpenExisting): a missing file is reported, not created.
func openExistingStore(path string) (*store.Store, error) {
	return namedStore(store.OpenExisting(storePath(path)))
}

func namedStore(s *store.Store, err error) (*store.Store, error) {
	if fe := (store.FlagError{}); errors.As(err, &fe) {
		return nil, badInput{err}
	}
	return s, err
}
