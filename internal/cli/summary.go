package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/outfile"
)

// summaryOutput is where the end-of-run summary goes: stdout, or the
// exportfile, in the format of the exporter property. YCSB's Client does
// the same: its exporter writes to exportfile when set, else to stdout.
// Every line of the summary is written to it, so each format carries all
// of them.
type summaryOutput struct {
	*export.SummaryWriter
	env  Env
	path string        // exportfile; "" for stdout
	buf  *bytes.Buffer // the summary bound for path
}

// newSummaryOutput returns the summary's writer; exporter has been
// checked by export.ParseExporter already.
func newSummaryOutput(env Env, path, exporter string) *summaryOutput {
	s := &summaryOutput{env: env, path: path}
	var w io.Writer = env.Stdout
	if path != "" {
		s.buf = &bytes.Buffer{}
		w = s.buf
	}
	sw, err := export.NewSummaryWriter(w, exporter)
	if err != nil {
		// resolveBench refused any other exporter.
		sw, _ = export.NewSummaryWriter(w, export.TextExporter)
	}
	s.SummaryWriter = sw
	return s
}

// close ends the summary and, for an exportfile, writes it there whole.
func (s *summaryOutput) close() error {
	if err := s.Close(); err != nil {
		return fmt.Errorf("cannot write the summary: %w", err)
	}
	if s.path == "" {
		return nil
	}
	if err := outfile.Write(s.path, func(w io.Writer) error { _, err := w.Write(s.buf.Bytes()); return err }); err != nil {
		return fmt.Errorf("the summary (exportfile): %w", err)
	}
	fmt.Fprintf(s.env.Stderr, "mongobench: summary written to %s\n", s.path)
	return nil
}

// what names where the summary went, for the list of what a run kept.
func (s *summaryOutput) what() string {
	if s.path == "" {
		return "the summary"
	}
	return "the summary in " + s.path
}

// checkOutputFile says why a file cannot be written at path, before the
// run rather than after it: its directory is missing or not writable, or
// path is a directory.
func checkOutputFile(property, path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s=%s is a directory: expected the path of a file to write", property, path)
	}
	return checkOutputDir(property, path, filepath.Dir(path), "a file in an existing directory")
}

// checkOutputPrefix is checkOutputFile for a prefix of file names
// ("dir/run-"), whose files are the prefix plus a name.
func checkOutputPrefix(property, prefix string) error {
	return checkOutputDir(property, prefix, filepath.Dir(prefix+"x"), "a prefix of file names in an existing directory, such as hdr/run-")
}

func checkOutputDir(property, value, dir, accepted string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s=%s: directory %s does not exist: expected %s", property, value, dir, accepted)
	case err != nil:
		return fmt.Errorf("%s=%s: %w", property, value, err)
	case !fi.IsDir():
		return fmt.Errorf("%s=%s: %s is not a directory: expected %s", property, value, dir, accepted)
	}
	f, err := os.CreateTemp(dir, ".mongobench-write-check-*")
	if err != nil {
		return fmt.Errorf("%s=%s: directory %s is not writable: expected %s", property, value, dir, accepted)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}
