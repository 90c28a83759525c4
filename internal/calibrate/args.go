package calibrate

import (
	"fmt"
	"path"
	"strings"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/workload"
)

// Args is a calibrate command line as given.
type Args struct {
	Given
	Files      []string // -P, in order
	Repeat     int
	JSONPath   string
	URLOptions string
	NoExtras   bool
	InProcess  bool
	Help       bool
}

// maxRepeat bounds --repeat: medians settle long before.
const maxRepeat = 1000

// Flags are calibrate's flags, bound to a.
func (a *Args) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Text("threads", "LIST", "thread counts, comma-separated (default 1,16,64)", false, &a.Threads),
		cmdflag.Func("P", "FILE", "workload property file (default workloadc; repeatable)", false, cmdflag.Append(&a.Files)),
		cmdflag.Func("p", "NAME=VALUE", "set a property (repeatable); -p mongodb.url=URL uses a\nnull server already running there", false, cmdflag.Property(func(k, v string) {
			a.Settings = append(a.Settings, [2]string{k, v})
		})),
		cmdflag.Text("operationcount", "N", "operations per measurement (default 100000)", false, &a.Operations),
		cmdflag.Func("repeat", "N", "measure every point N times and report medians (default 1)", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, maxRepeat)
			if err != nil {
				return fmt.Errorf("calibrate: --repeat %q is invalid: expected a whole number from 1 to %d", v, maxRepeat)
			}
			a.Repeat = int(n)
			return nil
		}),
		cmdflag.Text("json", "PATH", "also write the report as JSON to PATH", true, &a.JSONPath),
		cmdflag.Text("url-options", "Q", "connection-string options for both paths, e.g.\n\"retryReads=false&maxPoolSize=32\", to measure driver settings", true, &a.URLOptions),
		cmdflag.Switch("no-extras", "measure only the thread sweep", true, &a.NoExtras),
		cmdflag.Switch("in-process", "run the null server inside this process (its CPU then\ncounts as the client's)", true, &a.InProcess),
		cmdflag.Help(&a.Help),
	}
}

// Options turns the command line into Options, the -P files read (as
// workload.ReadFile reads them) and merged; its errors are in what was given.
func (a *Args) Options() (Options, error) {
	o := Options{
		Repeats:    a.Repeat,
		SkipExtras: a.NoExtras,
		URLOptions: a.URLOptions,
		Overrides:  map[string]string{},
	}
	if a.InProcess {
		o.Server = ServerInProcess
	}
	if err := a.Apply(&o); err != nil {
		return o, err
	}
	if len(a.Files) > 0 {
		props := workload.NewProperties()
		names := make([]string, len(a.Files))
		for i, f := range a.Files {
			p, err := workload.ReadFile(f)
			if err != nil {
				return o, err
			}
			props.Merge(p)
			names[i] = path.Base(strings.ReplaceAll(f, `\`, "/"))
		}
		o.Properties = props
		o.Workload = strings.Join(names, "+")
	}
	return o, o.Validate()
}

// CheckOutputs refuses, before anything runs, a --json that cannot be
// written or would write over an input: a -P file or one of inputs (the
// results store, which calibrate keeps no runs in but which stands where
// it stands).
func (a *Args) CheckOutputs(inputs []output.Named) error {
	if a.JSONPath == "" {
		return nil
	}
	for _, f := range a.Files {
		inputs = append(inputs, output.Named{Flag: "-P", Path: f})
	}
	p := output.Plan{Files: []output.Named{{Flag: "--json", Path: a.JSONPath}}, Inputs: inputs}
	return p.Check()
}
