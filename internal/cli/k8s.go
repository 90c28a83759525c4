package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/kubejob"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/redact"
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
	o := &k8sOptions{spec: kubejob.Spec{Name: "mongobench", CPU: "2", Memory: "1Gi", MetricsPort: 9100, CollectorImage: "busybox:1.37"}}
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
	manifest, err := s.Manifest(k8sInstructions(s))
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
		{a.parts.part != "" || a.parts.parts != 0, "the part (--part, --parts)"}, {a.parts.runID != "", "--run-id"},
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
	// The pods' file system is read-only but for the claim, where each
	// part's results file goes; a file of their own would fail at the
	// end of the run, after the measuring.
	for _, f := range []struct {
		set        bool
		name, path string
	}{
		{spec.ExportFile != "", "exportfile", spec.ExportFile},
		{spec.HdrFileOutput, "hdrhistogram.fileoutput", "true"},
	} {
		if f.set {
			return badInputf("k8s: %s=%s: the pods cannot write local files (their file system is read-only); each part writes its results file to the claim %s, and mongobench merge prints the summary: leave %s out", f.name, printable.String(f.path), s.ResultsClaim, f.name)
		}
	}
	url, hasURL := props.Get("mongodb.url")
	switch {
	case hasURL && s.URLSecret != "":
		return badInputf("k8s: both -p mongodb.url and --url-secret name the server: keep one (the URL in the Secret, if it holds a password)")
	case hasURL && redact.URL(url) != url:
		return badInputf("k8s: -p mongodb.url holds a password, which a manifest must not: kubectl create secret generic mongobench-url --from-literal=url='URL', then --url-secret mongobench-url")
	case !hasURL && s.URLSecret == "":
		return badInputf("k8s: the pods need the server's URL: give -p mongodb.url=mongodb://HOST:27017/ycsb, or a Secret with --url-secret")
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
			if value, err = workloadInConfigMap(s, value); err != nil {
				return err
			}
		}
		args = append(args, "-"+d.name, value)
		if d.long {
			args[len(args)-2] = "-" + args[len(args)-2]
		}
	}
	if !a.status {
		args = append(args, "-s") // progress in the pods' logs
	}
	args = append(args, partFlags(s.Parts)...)
	args = append(args, "--out", kubejob.ResultsDir+"/"+s.ResultFile("$("+kubejob.IndexEnv+")"), "--no-store")
	if s.MetricsPort > 0 {
		args = append(args, "--metrics-addr", ":"+strconv.Itoa(s.MetricsPort))
	}
	s.Args = args
	return nil
}

// partFlags are the flags that make a pod one part of N: its part is the
// completion index Kubernetes gives it ($JOB_COMPLETION_INDEX), and the
// parts meet at the barrier under the run id $MONGOBENCH_RUN_ID, the
// Job's uid.
func partFlags(parts int) []string {
	return []string{"--parts", strconv.Itoa(parts)}
}

// workloadInConfigMap puts the -P file name into the ConfigMap when it is
// a file here, and returns what the pod's -P names: the file in the
// ConfigMap's directory, or the built-in workload as it is.
func workloadInConfigMap(s *kubejob.Spec, name string) (string, error) {
	if _, err := os.Stat(name); err != nil {
		return name, nil // built in: loadProperties found it so
	}
	f, err := inputfile.Open(name)
	if err != nil {
		return "", badInputf("k8s: cannot read workload file %s: %v", name, err)
	}
	defer f.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, f); err != nil {
		return "", badInputf("k8s: cannot read workload file %s: %v", name, err)
	}
	content, err := configMapWorkload(name, b.String())
	if err != nil {
		return "", err
	}
	key := filepath.Base(name)
	if prev, ok := s.Workloads[key]; ok && prev != content {
		return "", badInputf("k8s: two -P files are named %s: the pods find them by name in one directory; rename one", key)
	}
	s.Workloads[key] = content
	return kubejob.WorkloadDir + "/" + key, nil
}

// configMapWorkload is the -P file name as the ConfigMap holds it: not
// its lines, which may carry a password through the forms the parser
// decodes (a value continued over lines, \uXXXX escapes, ':' or white
// space for '='), but the properties the parser read, one per line, each
// secret masked. Comments are left out: nothing reads them.
func configMapWorkload(name, text string) (string, error) {
	props, err := workload.Parse(strings.NewReader(text), name)
	if err != nil {
		return "", badInputf("k8s: %v", err)
	}
	masked := workload.NewProperties()
	for _, k := range props.Keys() {
		v, _ := props.Get(k)
		masked.Set(k, maskProperty(k, v), name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s as mongobench read it: one property a line, secrets masked, comments left out\n", filepath.Base(name))
	if err := workload.Format(&b, masked); err != nil {
		return "", err
	}
	return b.String(), nil
}

// maskProperty is v with its secrets masked: a URL's password and secret
// options, wherever in the value they are, and the whole value of a
// property whose name says it is a password.
func maskProperty(key, v string) string {
	if v != "" && strings.Contains(strings.ToLower(key), "password") {
		return redact.Mask
	}
	return redact.Text(redact.URL(v))
}

// k8sInstructions are the manifest's opening comments: what it needs, and
// the commands that apply it, collect the results and merge them.
func k8sInstructions(s *kubejob.Spec) []string {
	kubectl := "kubectl"
	pod := s.CollectorName()
	if s.Namespace != "" {
		kubectl += " -n " + s.Namespace
		pod = s.Namespace + "/" + pod
	}
	file := s.Name + ".yaml"
	lines := []string{
		fmt.Sprintf("mongobench %s in %d parts on %d nodes, made by mongobench k8s.", s.Args[0], s.Parts, s.Parts),
		"",
		"Needs: " + strconv.Itoa(s.Parts) + " schedulable nodes (one part per node), and the ReadWriteMany",
		"PersistentVolumeClaim " + s.ResultsClaim + ", writable by uid/gid 65532.",
	}
	if s.URLSecret != "" {
		lines = append(lines, "The server's URL (password included) in the Secret "+s.URLSecret+", from $MONGODB_URL here:",
			"  "+kubectl+" create secret generic "+s.URLSecret+" --from-literal="+kubejob.URLKey+"=\"$MONGODB_URL\"")
	}
	lines = append(lines, "",
		"Run, and wait for every part:",
		"  "+kubectl+" apply -f "+file,
		"  "+kubectl+" wait --for=condition=complete job/"+s.Name+" --timeout=24h",
		"  "+kubectl+" logs -l batch.kubernetes.io/job-name="+s.Name+" --prefix --tail=-1",
		"Collect the parts' results and merge them:",
		fmt.Sprintf("  for i in $(seq 0 %d); do %s cp %s:%s/%s %s; done", s.Parts-1, kubectl, pod, kubejob.ResultsDir, s.ResultFile("$i"), s.ResultFile("$i")),
		"  mongobench merge "+s.ResultFile("*")+" -o "+s.Name+".json",
		"Clean up (the results stay on the claim):",
		"  "+kubectl+" delete -f "+file,
	)
	return lines
}
