package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"

	"github.com/mongobench/mongobench/internal/golden"
)

// manifest is the objects of a printed manifest, each decoded strictly
// into Kubernetes' own type: a field the type does not have fails.
type manifest struct {
	configMaps []*corev1.ConfigMap
	jobs       []*batchv1.Job
	pods       []*corev1.Pod
	budgets    []*policyv1.PodDisruptionBudget
}

func decodeManifest(t *testing.T, text string) manifest {
	t.Helper()
	var m manifest
	docs := strings.Split(text, "\n---\n")
	if !strings.HasPrefix(docs[0], "#") {
		t.Fatalf("the manifest does not open with its comments: %q", docs[0])
	}
	for _, doc := range docs[1:] {
		var kind struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := yaml.Unmarshal([]byte(doc), &kind); err != nil {
			t.Fatalf("%v in\n%s", err, doc)
		}
		var obj any
		switch kind.APIVersion + " " + kind.Kind {
		case "v1 ConfigMap":
			cm := &corev1.ConfigMap{}
			m.configMaps, obj = append(m.configMaps, cm), cm
		case "batch/v1 Job":
			j := &batchv1.Job{}
			m.jobs, obj = append(m.jobs, j), j
		case "v1 Pod":
			p := &corev1.Pod{}
			m.pods, obj = append(m.pods, p), p
		case "policy/v1 PodDisruptionBudget":
			b := &policyv1.PodDisruptionBudget{}
			m.budgets, obj = append(m.budgets, b), b
		default:
			t.Fatalf("unexpected object %s %s", kind.APIVersion, kind.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatalf("%s does not decode strictly: %v\n%s", kind.Kind, err, doc)
		}
		// Printed again from the type, the document is the same: nothing
		// in it was lost or made up on the way (but the status, which the
		// server owns and the manifest leaves out).
		var fields map[string]any
		if b, err := yaml.Marshal(obj); err != nil || yaml.Unmarshal(b, &fields) != nil {
			t.Fatalf("%s: %v", kind.Kind, err)
		}
		delete(fields, "status")
		again, err := yaml.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(string(again)) != strings.TrimSpace(doc) {
			t.Errorf("%s printed again differs:\n%s\nwas:\n%s", kind.Kind, again, doc)
		}
	}
	return m
}

// TestK8sManifest prints manifests and reads them back into Kubernetes'
// types: an Indexed Job of N completions, all at once, one part per node,
// each pod running the command with its part's flags; the workload files
// in a ConfigMap; golden.
func TestK8sManifest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		parts    int32
		podArgs  []string // what each pod runs
		secret   string   // the Secret the URL comes from
		files    map[string]string
		metrics  bool
		kubectl  string // how the comments call kubectl
		nsPrefix string
	}{
		{
			name: "secret",
			args: []string{"--parts", "8", "--image", "registry.example.com/mongobench:1.0", "--results-claim", "bench-results",
				"--url-secret", "mongobench-url", "--namespace", "bench", "--name", "ycsb-a", "--cpu", "4", "--memory", "2Gi",
				"run", "mongodb", "-P", "workloada", "-P", "testdata/k8s/workload_mine", "-threads", "64", "-target", "80000", "-p", "seed=7"},
			parts: 8,
			podArgs: []string{"run", "mongodb", "-P", "workloada", "-P", "/etc/mongobench/workloads/workload_mine", "-threads", "64", "-target", "80000",
				"-p", "seed=7", "-s", "--parts", "8", "--out", "/results/ycsb-a-part-$(JOB_COMPLETION_INDEX).json", "--no-store", "--metrics-addr", ":9100"},
			secret: "mongobench-url",
			// The file's properties as read, one a line in name order.
			files: map[string]string{"workload_mine": "# workload_mine as mongobench read it: one property a line, secrets masked, comments left out\n" +
				"operationcount=10000000\nreadproportion=0.95\nrecordcount=1000000\nupdateproportion=0.05\nworkload=site.ycsb.workloads.CoreWorkload\n"},
			metrics:  true,
			kubectl:  "kubectl -n bench",
			nsPrefix: "bench/",
		},
		{
			name: "url",
			args: []string{"--parts=3", "--image=mongobench:dev", "--results-claim=res", "--metrics-port=0",
				"load", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url=mongodb://db.bench.svc:27017/ycsb", "-p", "recordcount=3000000"},
			parts: 3,
			podArgs: []string{"load", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url=mongodb://db.bench.svc:27017/ycsb", "-p", "recordcount=3000000",
				"--parts", "3", "--out", "/results/mongobench-part-$(JOB_COMPLETION_INDEX).json", "--no-store"},
			kubectl: "kubectl",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, append([]string{"k8s"}, tt.args...)...)
			if r.code != ExitOK || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			golden.Check(t, "k8s/"+tt.name+".yaml", r.stdout)
			m := decodeManifest(t, r.stdout)
			if len(m.jobs) != 1 || len(m.pods) != 1 || len(m.budgets) != 1 {
				t.Fatalf("%d jobs, %d pods, %d disruption budgets; want one of each", len(m.jobs), len(m.pods), len(m.budgets))
			}
			job := m.jobs[0]
			spec := job.Spec
			if *spec.Completions != tt.parts || *spec.Parallelism != tt.parts || *spec.CompletionMode != batchv1.IndexedCompletion || *spec.BackoffLimit != 0 {
				t.Errorf("job: completions %d, parallelism %d, mode %s, backoff limit %d; want %d, %d, Indexed, 0",
					*spec.Completions, *spec.Parallelism, *spec.CompletionMode, *spec.BackoffLimit, tt.parts, tt.parts)
			}
			pod := spec.Template.Spec
			anti := pod.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
			if len(anti) != 1 || anti[0].TopologyKey != "kubernetes.io/hostname" ||
				!selects(anti[0].LabelSelector.MatchLabels, spec.Template.Labels) {
				t.Errorf("anti-affinity %+v does not keep the job's pods (labels %v) on nodes of their own", anti, spec.Template.Labels)
			}
			c := pod.Containers[0]
			if !slices.Equal(c.Args, tt.podArgs) {
				t.Errorf("pod args\n got %q\nwant %q", c.Args, tt.podArgs)
			}
			env := map[string]corev1.EnvVar{}
			for _, e := range c.Env {
				env[e.Name] = e
			}
			if e := env["JOB_COMPLETION_INDEX"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
				e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
				t.Errorf("JOB_COMPLETION_INDEX = %+v, want the completion index annotation", e)
			}
			if e, ok := env["MONGOBENCH_URL"]; (tt.secret != "") != ok || ok && (e.ValueFrom.SecretKeyRef.Name != tt.secret || e.ValueFrom.SecretKeyRef.Key != "url") {
				t.Errorf("MONGOBENCH_URL = %+v, want from Secret %q", e, tt.secret)
			}
			if (len(c.Ports) == 1) != tt.metrics {
				t.Errorf("ports %+v, metrics served: %v", c.Ports, tt.metrics)
			}
			if c.Resources.Limits.Cpu().Sign() != 0 || c.Resources.Requests.Cpu().Sign() <= 0 {
				t.Errorf("resources %+v: want a CPU request and no CPU limit", c.Resources)
			}
			switch {
			case len(tt.files) == 0 && len(m.configMaps) != 0:
				t.Errorf("a ConfigMap for built-in workloads: %+v", m.configMaps)
			case len(tt.files) > 0:
				if len(m.configMaps) != 1 || len(m.configMaps[0].Data) != len(tt.files) {
					t.Fatalf("ConfigMaps %+v, want one with %d files", m.configMaps, len(tt.files))
				}
				for name, content := range tt.files {
					if m.configMaps[0].Data[name] != content {
						t.Errorf("ConfigMap file %s = %q, want the file's properties %q", name, m.configMaps[0].Data[name], content)
					}
				}
			}
			// The collector mounts the claim the parts write to.
			claim := pod.Volumes[0].PersistentVolumeClaim.ClaimName
			if got := m.pods[0].Spec.Volumes[0].PersistentVolumeClaim.ClaimName; got != claim {
				t.Errorf("collector mounts claim %q, the parts %q", got, claim)
			}
			for _, want := range []string{
				tt.kubectl + " wait --for=condition=complete job/" + job.Name,
				tt.kubectl + " cp " + tt.nsPrefix + m.pods[0].Name + ":/results/" + job.Name + "-part-$i.json",
				"mongobench merge " + job.Name + "-part-*.json -o " + job.Name + ".json",
			} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the comments do not say %q", want)
				}
			}
		})
	}
}

// selects reports whether a selector's labels are all among labels.
func selects(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return len(selector) > 0
}

// TestK8sBadInput: each mistake is one line, exit 2, and no manifest.
func TestK8sBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"k8s", "--parts", "4", "--image", "mb:1", "--results-claim", "res"}
	run := []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://db:27017/ycsb"}
	with := func(flags []string, cmd ...string) []string {
		return append(append(slices.Clone(base), flags...), cmd...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no parts", []string{"k8s", "--image", "mb:1", "--results-claim", "res", "run", "mongodb"}, "k8s: --parts is missing: expected the number of parts, such as --parts 8"},
		{"parts zero", with([]string{"--parts", "0"}, run...), `--parts "0" is invalid: expected a number of parts from 1 to 10000`},
		{"no image", []string{"k8s", "--parts", "2", "--results-claim", "res", "run", "mongodb"}, "k8s: --image is missing: expected mongobench's image as your cluster pulls it, such as registry.example.com/mongobench:" + Version},
		{"no claim", []string{"k8s", "--parts", "2", "--image", "mb:1", "run", "mongodb"}, "k8s: --results-claim is missing: expected a ReadWriteMany PersistentVolumeClaim the parts write their results files to"},
		{"no command", with(nil), "k8s: no load or run command after the flags: expected, for example, run mongodb -P workloada -p operationcount=1000000"},
		{"unknown flag", with([]string{"--replicas", "3"}, run...), "k8s: unknown flag -replicas: accepted flags are --parts N, --image IMAGE, --results-claim CLAIM, --name NAME, --namespace NS, --url-secret SECRET, --cpu Q, --memory Q, --metrics-port PORT, --collector-image IMAGE, -h"},
		{"password in URL", with(nil, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://u:S3NTINEL@db:27017/ycsb"),
			"k8s: -p mongodb.url holds a password, which a manifest must not: kubectl create secret generic mongobench-url --from-literal=url='URL', then --url-secret mongobench-url"},
		{"no URL", with(nil, "run", "mongodb", "-P", "workloada"), "k8s: the pods need the server's URL: give -p mongodb.url=mongodb://HOST:27017/ycsb, or a Secret with --url-secret"},
		{"URL twice", with([]string{"--url-secret", "s"}, run...), "k8s: both -p mongodb.url and --url-secret name the server: keep one (the URL in the Secret, if it holds a password)"},
		{"--out in the command", with(nil, append(run, "--out", "r.json")...), "k8s: run: --out is set for each pod by k8s (its part, the run id, results to the claim, no store, metrics on --metrics-port): leave it out"},
		{"--parts in the command", with(nil, append(run, "--parts", "4")...), "k8s: run: the part (--part, --parts) is set for each pod by k8s (its part, the run id, results to the claim, no store, metrics on --metrics-port): leave it out"},
		{"bad property", with(nil, append(run, "-threads", "0")...), `k8s: threadcount="0" is invalid: expected a whole number from 1 to 1048576`},
		{"bad command flag", with(nil, append(run, "--bogus")...), "k8s: run: unknown flag -bogus: accepted flags are " + acceptedFlags(benchFlags(&benchArgs{}), false)},
		{"bad name", with([]string{"--name", "YCSB_A"}, run...), `k8s: name "YCSB_A" is invalid: expected at most 47 lower-case letters, digits and '-', starting and ending with a letter or digit`},
		{"bad memory", with([]string{"--memory", "lots"}, run...), `k8s: memory "lots" is invalid: expected a positive Kubernetes quantity, such as 2 or 500m for cpu, 2Gi for memory`},
		{"missing -P file", with(nil, "run", "mongodb", "-P", "nosuchfile", "-p", "mongodb.url=mongodb://db/x"), "k8s: cannot read workload file nosuchfile: no such file (built in: workloada, workloadb, workloadc, workloadd, workloade, workloadf, workload_s6)"},
		{"exportfile", with(nil, append(run, "-p", "exportfile=/data/summary.txt")...),
			"k8s: exportfile=/data/summary.txt: the pods cannot write local files (their file system is read-only); each part writes its results file to the claim res, and mongobench merge prints the summary: leave exportfile out"},
		{"histogram logs", with(nil, append(run, "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=/data/hdr-")...),
			"k8s: hdrhistogram.fileoutput=true: the pods cannot write local files (their file system is read-only); each part writes its results file to the claim res, and mongobench merge prints the summary: leave hdrhistogram.fileoutput out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != ExitBadInput || r.stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit 2 and nothing printed", r.code, r.stdout)
			}
			if want := "mongobench: " + tt.want + "\n"; r.stderr != want {
				t.Errorf("stderr:\n got %q\nwant %q", r.stderr, want)
			}
		})
	}
}

// TestK8sPodCommandRunsAsParts runs the pod command of printed manifests,
// as Kubernetes would in each pod, as N in-process parts against the test
// server: the env the Job gives each pod ($JOB_COMPLETION_INDEX, the run
// id, the URL from the Secret), the results volume a directory here, the
// metrics port a free one. The parts of the load and of a run of workload
// D (inserts) meet at their barrier, and their results files merge into
// the whole: every record loaded once, every operation counted, no
// duplicate key.
func TestK8sPodCommandRunsAsParts(t *testing.T) {
	t.Parallel()
	const parts = 4
	url := freshURL(t)
	dir := t.TempDir()
	phases := []struct {
		command []string
		ops     int64
	}{
		{[]string{"load", "mongodb", "-P", "workloadd", "-p", "recordcount=400", "-threads", "2"}, 400},
		{[]string{"run", "mongodb", "-P", "workloadd", "-p", "recordcount=400", "-p", "operationcount=800", "-threads", "2"}, 800},
	}
	for _, ph := range phases {
		name := ph.command[0]
		r := mongobench(t, append([]string{"k8s", "--parts", strconv.Itoa(parts), "--image", "mb:test", "--results-claim", "res",
			"--url-secret", "mongobench-url", "--name", name}, ph.command...)...)
		if r.code != ExitOK {
			t.Fatalf("k8s: exit %d: %s", r.code, r.stderr)
		}
		m := decodeManifest(t, r.stdout)
		podArgs := m.jobs[0].Spec.Template.Spec.Containers[0].Args
		results := filepath.Join(dir, name)
		if err := os.Mkdir(results, 0o755); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		codes := make([]int, parts)
		stderrs := make([]bytes.Buffer, parts)
		for i := range parts {
			args := make([]string, len(podArgs))
			for j, a := range podArgs {
				a = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i))
				a = strings.Replace(a, "/results/", results+"/", 1)
				if a == ":9100" {
					a = "127.0.0.1:0"
				}
				args[j] = a
			}
			env := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i), "MONGOBENCH_RUN_ID": "uid-" + name, "MONGOBENCH_URL": url}
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = Main(context.Background(), args, Env{Stdout: io.Discard, Stderr: &stderrs[i], Getenv: func(k string) string { return env[k] }})
			}()
		}
		wg.Wait()
		for i, code := range codes {
			if code != ExitOK {
				t.Fatalf("%s part %d: exit %d: %s", name, i, code, stderrs[i].String())
			}
		}
		merged := filepath.Join(dir, name+".json")
		r = mongobench(t, "merge", results, "-o", merged, "--no-store")
		if r.code != ExitOK {
			t.Fatalf("merge %s: exit %d: %s", name, r.code, r.stderr)
		}
		s := parseSummary(t, r.stdout)
		var ops int64
		for _, op := range []string{"READ", "INSERT"} {
			if _, ok := s[op]; ok {
				ops += s.int(t, op, "Operations")
			}
		}
		if ops != ph.ops {
			t.Errorf("%s: merged %d reads and inserts, want %d:\n%s", name, ops, ph.ops, r.stdout)
		}
		if got := s["PARTS"]["Parts"]; got != strconv.Itoa(parts) {
			t.Errorf("%s: merged %s parts, want %d:\n%s", name, got, parts, r.stdout)
		}
		for op, sec := range s {
			for k, v := range sec {
				if strings.HasPrefix(k, "Return=") && k != "Return=OK" && k != "Return=NOT_FOUND" {
					t.Errorf("%s: [%s] %s %s: a part failed operations (duplicate keys?)", name, op, k, v)
				}
			}
		}
	}
}
