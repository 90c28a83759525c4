package tpcc

import "github.com/mongobench/mongobench/internal/cmdflag"

// Given is tpcc load's and check's command line, as given.
type Given struct {
	Props         []string // -p NAME=VALUE, in order
	DataDir, Part string
	Drop          bool
}

// Flags are tpcc load's and check's flags (the properties are in Usage),
// bound to g.
func (g *Given) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Func("p", "NAME=VALUE", "set a property (see above)", false, func(s string) error { g.Props = append(g.Props, s); return nil }),
		cmdflag.Text("data-dir", "DIR", "the embedded server's data directory, so that run and check find what load wrote", true, &g.DataDir),
		cmdflag.Text("part", "I/N", "load or check part I of N (from 0): its share of the warehouses", true, &g.Part),
		cmdflag.Switch("drop", "load: drop the TPC-C collections first", true, &g.Drop),
	}
}

// RunArgs are mongobench run's arguments for tpcc run's: TPC-C's
// workload, a minute unless the arguments say otherwise (-p wins over
// what comes before it), and --no-check as the property it stands for.
func RunArgs(args []string) []string {
	out := []string{"-p", "workload=tpcc", "-p", "maxexecutiontime=60"}
	for _, a := range args {
		if a == "--no-check" || a == "-no-check" {
			out = append(out, "-p", "tpcc.check=false")
			continue
		}
		out = append(out, a)
	}
	return out
}
