// Package output checks, before a command measures anything, every path
// it will write (a file, a prefix of file names, the results store, the
// embedded server's data directory, none over an input or over another),
// and tallies, once it has run, what it wrote and what it could not, so
// that one failed output is reported without taking the others down.
package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/outfile"
)

// Named is a path the user gave, with the flag (or property) that gave it.
type Named struct{ Flag, Path string }

// FileExpected says what an output path must name.
const FileExpected = "expected a file mongobench may write: a new one, or a regular file to replace"

// CheckFile refuses an output path that could not be written: found now,
// before anything is measured, not when the run ends.
func CheckFile(flag, path string) error {
	if err := outfile.Check(path); err != nil {
		return fmt.Errorf("%s %s: %v: %s", flag, path, err, FileExpected)
	}
	return nil
}

// CheckDataDir refuses a --data-dir the embedded server could not keep its
// files in; "" (a temporary directory) is fine.
func CheckDataDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := outfile.CheckDir(dir); err != nil {
		return fmt.Errorf("--data-dir %s: %v: expected a directory mongobench may create files in (it is created if missing)", dir, err)
	}
	// The server appends its log to a file of a fixed name there: a link
	// at that name would be written through.
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		log := filepath.Join(dir, embedded.LogFileName)
		if err := outfile.Check(log); err != nil {
			return fmt.Errorf("--data-dir %s: %s %v: expected a directory whose %s is a regular file or absent", dir, log, err, embedded.LogFileName)
		}
	}
	return nil
}

// CheckStore refuses a store that could not be written: SQLite's own
// words for that ("out of memory (14)") come only when the run is over.
// A symbolic link to a store is fine: SQLite writes through it rather
// than replacing it.
func CheckStore(path string) error {
	target := path
	if p, err := filepath.EvalSymlinks(path); err == nil {
		target = p
	}
	if err := outfile.Check(target); err != nil {
		return fmt.Errorf("--store %s: %v: expected a results store mongobench may write, or a new file in a writable directory", path, err)
	}
	return nil
}

// CheckDistinct refuses outputs that name one of the inputs or each
// other: the second would overwrite the first (a results file over a -P
// file, over the store, over its own journal).
func CheckDistinct(inputs, outputs []Named) error {
	for i, o := range outputs {
		for _, in := range inputs {
			if outfile.Same(o.Path, in.Path) {
				return fmt.Errorf("%s %s is the %s file %s: writing it would destroy it; name another file", o.Flag, o.Path, in.Flag, in.Path)
			}
		}
		for _, p := range outputs[:i] {
			if outfile.Same(o.Path, p.Path) {
				return fmt.Errorf("%s %s and %s %s name the same file: one would overwrite the other; name two files", p.Flag, p.Path, o.Flag, o.Path)
			}
		}
	}
	return nil
}

// Existing is those of paths that exist, each given by flag: the inputs
// an output must not replace (a -P that names a built-in workload is no
// file).
func Existing(flag string, paths []string) []Named {
	var ins []Named
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			ins = append(ins, Named{flag, p})
		}
	}
	return ins
}

// Plan is what a command will write and what it must not write over.
type Plan struct {
	Files   []Named // files written whole: results, journal, summary, logs
	Store   string  // the results store; "" for none
	DataDir string  // the embedded server's data directory, when it starts one
	Inputs  []Named
}

// Check checks the plan in the order a user fixes it: each file, the
// store, the data directory, then that no output replaces an input or
// another output.
func (p Plan) Check() error {
	outs := p.Files
	for _, o := range outs {
		if err := CheckFile(o.Flag, o.Path); err != nil {
			return err
		}
	}
	if p.Store != "" {
		if err := CheckStore(p.Store); err != nil {
			return err
		}
		outs = append(outs[:len(outs):len(outs)], Named{"--store", p.Store})
	}
	if err := CheckDataDir(p.DataDir); err != nil {
		return err
	}
	return CheckDistinct(p.Inputs, outs)
}

// Tally is what a finished command wrote (Kept, each said as "the
// results file x.json") and what it could not (Failed).
type Tally struct {
	Failed []error
	Kept   []string
}

// Fail notes an output that could not be written.
func (t *Tally) Fail(err error) { t.Failed = append(t.Failed, err) }

// Keep notes an output written, as the report names it.
func (t *Tally) Keep(what string) { t.Kept = append(t.Kept, what) }

// JournalFailed reports whether a failure concerns the journal at path.
func (t *Tally) JournalFailed(path string) bool {
	for _, err := range t.Failed {
		var fe *outfile.Error
		if errors.As(err, &fe) && fe.Path == path {
			return true
		}
	}
	return false
}

// Report says on w what could not be written, each with its path and
// reason, and what was kept; it returns the command's failure, or nil when
// every output was written.
func (t *Tally) Report(w io.Writer) error {
	if len(t.Failed) == 0 {
		return nil
	}
	for _, err := range t.Failed {
		fmt.Fprintf(w, "mongobench: not written: %v\n", err)
	}
	kept := "nothing else"
	if len(t.Kept) > 0 {
		kept = strings.Join(t.Kept, ", ")
	}
	outputs := "1 output"
	if n := len(t.Failed); n != 1 {
		outputs = fmt.Sprintf("%d outputs", n)
	}
	return fmt.Errorf("the run was measured, but %s could not be written (above); kept: %s", outputs, kept)
}

// CheckProperty says why a file cannot be written at path, the value of
// property (exportfile), before the run rather than after it: its
// directory is missing or not writable, or path is a directory.
func CheckProperty(property, path string) error {
	return checkPath(property, path, path, "a file in an existing directory")
}

// CheckPrefix is CheckProperty for a prefix of file names ("dir/run-"),
// whose files are the prefix plus a name.
func CheckPrefix(property, prefix string) error {
	return checkPath(property, prefix, prefix+"x", "a prefix of file names in an existing directory, such as hdr/run-")
}

func checkPath(property, value, file, accepted string) error {
	if err := outfile.Check(file); err != nil {
		return fmt.Errorf("%s=%s: %v: expected %s", property, value, err, accepted)
	}
	return nil
}

// Checked passes writes on to W and keeps the first error, which the many
// Fprintf calls of a command do not look at one by one: what a command
// prints is its result, and one lost to a full disk or a closed pipe is a
// failure.
type Checked struct {
	mu  sync.Mutex
	W   io.Writer
	err error
}

func (c *Checked) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.W.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// Err is the first write's error, or nil.
func (c *Checked) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
