package cli

import (
	"bytes"
	"fmt"
	"io"

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
	return checkOutputPath(property, path, path, "a file in an existing directory")
}

// checkOutputPath asks outfile, which writes these files, whether file
// could be written; value is what the user gave for property.
func checkOutputPath(property, value, file, accepted string) error {
	if err := outfile.Check(file); err != nil {
		return fmt.Errorf("%s=%s: %v: expected %s", property, value, err, accepted)
	}
	return nil
}
