package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/kubejob"
	"github.com/mongobench/mongobench/internal/workload"
)

const k8sAbout = `usage: mongobench k8s --parts N --image IMAGE --results-claim CLAIM [flags] load|run mongodb [load/run flags]

Prints a Kubernetes manifest that runs the load or run as N parts on N
nodes: an Indexed Job (the completion index is the part; every part on a
node of its own), a ConfigMap with the -P files that are not built in, and
a pod to copy the parts' results files from. Each part writes its results
file to the ReadWriteMany claim CLAIM; the comments at the top say how to
apply it, collect the files and merge them. The server's URL comes from
-p mongodb.url (without a password) or from a Secret (--url-secret).

flags:`

type k8sOptions struct {
	spec kubejob.Spec
	help bool
}

func k8sFlags(o *k8sOptions) []flagDef {
	s := &o.spec
	return []flagDef{
		funcFlag("parts", "N", "how many parts, each a pod on a node of its own (the cluster needs N nodes)", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, 10000)
			if err != nil {
				return fmt.Errorf("--parts %q is invalid: expected a number of parts from 1 to 10000", v)
			}
			s.Parts = int(n)
			return nil
		}),
		textFlag("image", "IMAGE", "mongobench's image, as your cluster pulls it (docs/how-to/kubernetes.md: the image)", true, &s.Image),
		textFlag("results-claim", "CLAIM", "the ReadWriteMany PersistentVolumeClaim the parts write their results to", true, &s.ResultsClaim),
		textFlag("name", "NAME", "name of the Job and of what goes with it (default mongobench)", true, &s.Name),
		textFlag("namespace", "NS", "namespace of every object (default: kubectl's current one)", true, &s.Namespace),
		textFlag("url-secret", "SECRET", "the Secret whose key \"url\" is the server's URL (passwords belong there,\nnot in -p mongodb.url)", true, &s.URLSecret),
		textFlag("cpu", "Q", "CPU each part requests (default 2); no CPU limit is set, as throttling\nwould show as latency", true, &s.CPU),
		textFlag("memory", "Q", "memory each part requests and is limited to (default 1Gi)", true, &s.Memory),
		funcFlag("metrics-port", "PORT", "port of each part's Prometheus metrics (default 9100; 0 for none)", true, func(v string) error {
			n, err := workload.ParseInt(v, 0, 65535)
			if err != nil {
				return fmt.Errorf("--metrics-port %q is invalid: expected a port from 1 to 65535, or 0 for none", v)
			}
			s.MetricsPort = int(n)
			return nil
		}),
		textFlag("collector-image", "IMAGE", "image of the pod the results are copied from: one with tar, for\nkubectl cp (default busybox:1.37)", true, &s.CollectorImage),
		helpFlag(&o.help),
	}
}

func k8sHelp() string { return k8sAbout + "\n" + flagsHelp(k8sFlags(&k8sOptions{})) }

// runK8s is "mongobench k8s".
func runK8s(_ context.Context, args []string, env Env) error {
	o := &k8sOptions{spec: kubejob.Spec{Name: "mongobench", CPU: "2", Memory: "1Gi", MetricsPort: 9100, CollectorImage: "busybox:1.37", Version: Version}}
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
	switch {
	case s.Parts == 0:
		return badInputf("k8s: --parts is missing: expected the number of parts, such as --parts 8")
	case s.Image == "":
		return badInputf("k8s: --image is missing: expected mongobench's image as your cluster pulls it, such as registry.example.com/mongobench:%s", Version)
	case s.ResultsClaim == "":
		return badInputf("k8s: --results-claim is missing: expected a ReadWriteMany PersistentVolumeClaim the parts write their results files to")
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
	if a.native != nil {
		return badInputf("k8s: -P %s is a native workload, which k8s does not run yet; accepted: YCSB workload files", a.native.Path)
	}
	spec, _, err := workload.Resolve(props, command == "run")
	if err != nil {
		return badInputf("k8s: %v", err)
	}
	url, hasURL := props.Get("mongodb.url")
	for _, err := range []error{s.CheckFiles(spec), s.CheckServer(url, hasURL)} {
		if err != nil {
			return badInputf("k8s: %w", err)
		}
	}
	args := []string{command}
	s.Workloads = map[string]string{}
	defs := benchFlags(&benchArgs{})
	for i := 0; i < len(rest); i++ {
		tok := rest[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(tok, "-"), "=")
		d, isFlag := lookup(defs, name)
		if !strings.HasPrefix(tok, "-") || !isFlag || d.arg == "" {
			args = append(args, tok)
			continue
		}
		if !hasValue {
			i++
			value = rest[i] // parseBenchArgs found it there
		}
		if d.name == "P" {
			if value, err = s.AddWorkload(value); err != nil {
				return badInputf("k8s: %w", err)
			}
		}
		args = append(args, "-"+d.name, value)
		if d.long {
			args[len(args)-2] = "-" + args[len(args)-2]
		}
	}
	args = append(args, s.PartFlags(a.status)...)
	s.Args = args
	return nil
}
