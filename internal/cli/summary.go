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
