package export

import (
	"bytes"
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/outfile"
)

// SummaryOutput is where the end-of-run summary goes: stdout, or the
// exportfile, in the format of the exporter property. YCSB's Client does
// the same: its exporter writes to exportfile when set, else to stdout.
// Every line of the summary is written to it, so each format carries all
// of them.
type SummaryOutput struct {
	*SummaryWriter
	path string        // exportfile; "" for stdout
	buf  *bytes.Buffer // the summary bound for path
}

// NewSummaryOutput returns the summary's writer: to stdout, or to path
// once it is whole. An exporter ParseExporter refuses is the text one.
func NewSummaryOutput(stdout io.Writer, path, exporter string) *SummaryOutput {
	s := &SummaryOutput{path: path}
	w := stdout
	if path != "" {
		s.buf = &bytes.Buffer{}
		w = s.buf
	}
	sw, err := NewSummaryWriter(w, exporter)
	if err != nil {
		sw, _ = NewSummaryWriter(w, TextExporter)
	}
	s.SummaryWriter = sw
	return s
}

// Finish ends the summary and, for an exportfile, writes it there whole
// (atomically) and says so on notes.
func (s *SummaryOutput) Finish(notes io.Writer) error {
	if err := s.Close(); err != nil {
		return fmt.Errorf("cannot write the summary: %w", err)
	}
	if s.path == "" {
		return nil
	}
	if err := outfile.Write(s.path, func(w io.Writer) error { _, err := w.Write(s.buf.Bytes()); return err }); err != nil {
		return fmt.Errorf("the summary (exportfile): %w", err)
	}
	fmt.Fprintf(notes, "mongobench: summary written to %s\n", s.path)
	return nil
}

// What names where the summary went, for the list of what a run kept.
func (s *SummaryOutput) What() string {
	if s.path == "" {
		return "the summary"
	}
	return "the summary in " + s.path
}
