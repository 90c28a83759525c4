package cli

import (
	"context"
	"fmt"

	"github.com/mongobench/mongobench/internal/kubejob"
)

type k8sOptions struct {
	spec kubejob.Spec
	help bool
}

func k8sFlags(o *k8sOptions) []flagDef {
	return append(fromDefs(o.spec.Flags()), helpFlag(&o.help))
}

func k8sHelp() string { return kubejob.Usage + "\n" + flagsHelp(k8sFlags(&k8sOptions{})) }

// runK8s is "mongobench k8s".
func runK8s(_ context.Context, args []string, env Env) error {
	o := &k8sOptions{spec: kubejob.NewSpec(Version)}
	defs := k8sFlags(o)
	fs := newFlagSet("k8s", defs)
	help, bad := fs.refusal(fs.parse(args))
	if bad != nil {
		return bad
	}
	o.help = o.help || help
	if o.help {
		fmt.Fprintln(env.Stdout, k8sHelp())
		return nil
	}
	s := &o.spec
	if m := s.Missing(); m != "" {
		return badInputf("k8s: %s", m)
	}
	if err := podCommand(s, fs.fs.Args()); err != nil {
		return err
	}
	if errs := s.Validate(); len(errs) > 0 {
		return badInputf("k8s: %v", errs[0])
	}
	manifest, err := s.Manifest(s.Instructions())
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(manifest)
	return err
}

// podCommand checks the load or run command line cmd and sets s.Args to
// what each pod runs, with s.Workloads the -P files it names.
func podCommand(s *kubejob.Spec, cmd []string) error {
	if len(cmd) == 0 || (cmd[0] != "load" && cmd[0] != "run") {
		return badInputf("k8s: no load or run command after the flags: expected, for example, run mongodb -P workloada -p operationcount=1000000")
	}
	command, rest := cmd[0], cmd[1:]
	a, err := parseBenchArgs(command, rest)
	if err != nil {
		return badInputf("k8s: %s: %v", command, err)
	}
	// What the pods are given here, the command must leave to them.
	for _, f := range []struct {
		set  bool
		flag string
	}{
		{a.out != "", "--out"}, {a.dataDir != "", "--data-dir"}, {a.metricsAddr != "", "--metrics-addr"},
		{a.store.path != "" || a.store.disabled, "--store and --no-store"}, {a.help, "-h"},
		{a.parts.Part != "" || a.parts.Parts != 0, "the part (--part, --parts)"}, {a.parts.RunID != "", "--run-id"},
	} {
		if f.set {
			return badInputf("k8s: %s: %s is set for each pod by k8s (its part, the run id, results to the claim, no store, metrics on --metrics-port): leave it out", command, f.flag)
		}
	}
	props, err := a.loadProperties()
	if err != nil {
		return badInputf("k8s: %v", err)
	}
	if err := s.CheckWorkload(command, props, a.native); err != nil {
		return badInputf("k8s: %w", err)
	}
	if err := s.SetCommand(command, rest, defsOf(benchFlags(&benchArgs{})), a.status); err != nil {
		return badInputf("k8s: %w", err)
	}
	return nil
}
