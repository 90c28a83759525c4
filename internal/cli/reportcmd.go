package cli

import (
	"context"
	"fmt"

	"github.com/mongobench/mongobench/internal/analysis"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/runref"
)

type reportOptions struct {
	refs  []string
	args  *htmlreport.Args
	opts  htmlreport.Options // how the page is drawn, the flags checked
	store storeFlags
	help  bool
}

// reportFlags are report's flags (report's and the store's), bound to o.
func reportFlags(o *reportOptions) []flagDef {
	if o.args == nil {
		o.args = htmlreport.NewArgs()
	}
	defs := fromDefs(o.args.Flags())
	defs = append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// reportHelp is report's help.
func reportHelp() string {
	return htmlreport.About + "\n" + flagsHelp(reportFlags(&reportOptions{}))
}

func parseReportArgs(args []string) (*reportOptions, error) {
	o := &reportOptions{}
	defs := reportFlags(o)
	refs, help, err := parseRefs("report", defs, args)
	if err != nil {
		return nil, err
	}
	o.help = o.help || help
	o.refs = refs
	if o.help {
		return o, nil
	}
	if o.opts, err = o.args.Options(refs); err != nil {
		return nil, badInputf("report: %w", err)
	}
	return o, nil
}

// runReportCmd is "mongobench report".
func runReportCmd(ctx context.Context, args []string, env Env) error {
	o, err := parseReportArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, reportHelp())
		return nil
	}
	out := o.args.Out
	if err := checkOutput("-o", out); err != nil {
		return badInputf("report: %w", err)
	}
	if err := o.args.CheckDefaultOut(); err != nil {
		return badInputf("report: %w", err)
	}
	src := &runSource{storePath: o.store.path}
	defer src.close()
	groups, err := src.loadGroups(ctx, o.refs)
	if err != nil {
		return err
	}
	if len(groups) > 1 {
		if err := src.source().Separate(o.refs, groups); err != nil {
			return badInputf("report: %w", err)
		}
	}
	var ins []namedPath
	for _, p := range src.source().Inputs(groups) {
		ins = append(ins, namedPath{"input", p})
	}
	ins = append(ins, storeInputs(o.store)...)
	if o.args.Notes != "" {
		ins = append(ins, namedPath{"--notes", o.args.Notes})
	}
	if err := checkDistinct(ins, []namedPath{{"-o", out}}); err != nil {
		return badInputf("report: %w", err)
	}
	notes, err := htmlreport.ReadNotes(o.args.Notes)
	if err != nil {
		return badInputf("report: %w", err)
	}
	in, built, err := reportPage(o, groups)
	if err != nil {
		return badInputf("report: %w", err)
	}
	in.Notes = notes
	// A store that cannot say costs the page only the disks' baselines.
	if in.DiskBaselines, err = src.source().DiskBaselines(ctx); err != nil {
		fmt.Fprintf(env.Stderr, "mongobench: warning: no disk baselines: %v\n", err)
	}
	for i, r := range src.source().Shown(o.refs, true) {
		if src.source().Reading(o.refs[i]) != "" {
			fmt.Fprintf(env.Stderr, "mongobench: report: read %s\n", r)
		}
	}
	for _, n := range built {
		fmt.Fprintf(env.Stderr, "mongobench: report: %s\n", n)
	}
	if err := htmlreport.WriteFile(ctx, out, in); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(env.Stderr, "mongobench: wrote %s (%s)\n", out, in.Contents(src.source().Shown(o.refs, false)))
	return nil
}

// reportPage draws the page of the named groups, as the flags chose, and
// says how it was built (for stderr).
func reportPage(o *reportOptions, groups [][]analysis.Run) (*htmlreport.Input, []string, error) {
	opts := o.opts
	opts.Names, opts.Version = runref.Names(o.refs), Version
	return htmlreport.FromRuns(groups, opts)
}
