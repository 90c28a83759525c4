package cli

import (
	"github.com/mongobench/mongobench/internal/export"
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
