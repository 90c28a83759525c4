package cli

import (
	"fmt"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/outfile"
)

// summaryOutput is where the summary goes (export.SummaryOutput); what
// it says of an exportfile goes to stderr.
type summaryOutput struct {
	*export.SummaryOutput
	env Env
}

func newSummaryOutput(env Env, path, exporter string) *summaryOutput {
	return &summaryOutput{export.NewSummaryOutput(env.Stdout, path, exporter), env}
}

func (s *summaryOutput) close() error { return s.Finish(s.env.Stderr) }

func (s *summaryOutput) what() string { return s.What() }

// checkOutputFile says why a file cannot be written at path, before the
// run rather than after it: its directory is missing or not writable, or
// path is a directory. outfile, which writes these files, is asked.
func checkOutputFile(property, path string) error {
	if err := outfile.Check(path); err != nil {
		return fmt.Errorf("%s=%s: %v: expected a file in an existing directory", property, path, err)
	}
	return nil
}
