package bench

import (
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/workload"
)

// Resolved is a load's or run's configuration, resolved and checked from
// its properties before anything runs.
type Resolved struct {
	*Settings
	// Exporter is the summary's format: one of export.Exporters.
	Exporter string
	// Part is this process's part of a partitioned run, or the instant a
	// whole run starts at; nil for neither.
	Part *partition.Plan
}

// Resolve resolves command's phase from props: the spec, the summary's
// exporter, the outputs the spec names beside out (--out), the settings
// (the server from props' mongodb.url, else getenv's MONGOBENCH_URL) and
// the part of a partitioned run given. The warnings met are returned
// whatever the error, to be said first; every error is one in what was
// asked.
func Resolve(command string, props *workload.Properties, out string, given partition.Given, getenv func(string) string) (*Resolved, []string, error) {
	spec, warnings, err := ResolveSpec(command, props)
	if err != nil {
		return nil, warnings, err
	}
	r := &Resolved{}
	exporter, _ := props.Get("exporter")
	if r.Exporter, err = export.ParseExporter(exporter); err != nil {
		return nil, warnings, err
	}
	if err := CheckSpecOutputs(spec, out); err != nil {
		return nil, warnings, err
	}
	settings, more, err := ResolveSettings(command, props, spec, getenv("MONGOBENCH_URL"))
	warnings = append(warnings, more...)
	if err != nil {
		return nil, warnings, err
	}
	r.Settings = settings
	if r.Part, err = partition.NewPlan(command, given, props, spec, settings.URL, getenv); err != nil {
		return nil, warnings, err
	}
	return r, warnings, nil
}
