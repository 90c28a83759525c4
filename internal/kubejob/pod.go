package kubejob

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/inputfile"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// AddWorkload puts the -P file name into the ConfigMap when it is a file
// here (a native workload as YAML, YCSB's as properties), and returns
// what the pods' -P names: the file in WorkloadDir, or the built-in
// workload as it is.
func (s *Spec) AddWorkload(name string) (string, error) {
	if _, err := os.Stat(name); err != nil {
		return name, nil // built in: the command line's parser found it so
	}
	f, err := inputfile.Open(name)
	if err != nil {
		return "", fmt.Errorf("cannot read workload file %s: %v", name, err)
	}
	defer f.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, f); err != nil {
		return "", fmt.Errorf("cannot read workload file %s: %v", name, err)
	}
	var content string
	var datasets map[string]string
	if isNativeWorkload(name, []byte(b.String())) {
		content, datasets, err = nativeConfigMapWorkload(name, []byte(b.String()))
	} else {
		content, err = configMapWorkload(name, b.String())
	}
	if err != nil {
		return "", err
	}
	key := filepath.Base(name)
	files := map[string]string{key: content}
	for k, v := range datasets {
		if k == key {
			return "", fmt.Errorf("-P %s names a dataset file %s, the workload file's own name: the pods find both by name in one directory; rename one", name, k)
		}
		files[k] = v
	}
	held := 0
	for k, v := range s.Workloads {
		if _, ok := files[k]; !ok {
			held += len(k) + len(v)
		}
	}
	for k, v := range files {
		if prev, ok := s.Workloads[k]; ok && prev != v {
			if k == key {
				return "", fmt.Errorf("two -P files are named %s: the pods find them by name in one directory; rename one", k)
			}
			return "", fmt.Errorf("-P %s: its dataset file %s has the name of another -P or dataset file: the pods find them by name in one directory; rename one", name, k)
		}
		held += len(k) + len(v)
	}
	if held > MaxConfigMapBytes {
		return "", tooLarge(name, int64(held))
	}
	if s.Workloads == nil {
		s.Workloads = map[string]string{}
	}
	maps.Copy(s.Workloads, files)
	return WorkloadDir + "/" + key, nil
}

// MaxConfigMapBytes bounds the files the ConfigMap holds, names and
// contents: Kubernetes refuses a ConfigMap past 1 MiB, and the rest of the
// object (its metadata) needs some of it.
const MaxConfigMapBytes = 1<<20 - 16<<10

func tooLarge(name string, size int64) error {
	return fmt.Errorf("-P %s: its workload and dataset files come to %d bytes or more, which no ConfigMap holds; accepted: at most %d bytes in all (Kubernetes' 1 MiB limit less room for the ConfigMap's own fields): a smaller dataset file", name, size, MaxConfigMapBytes)
}

// configMapWorkload is the -P file name as the ConfigMap holds it: not
// its lines, which may carry a password through the forms the parser
// decodes (a value continued over lines, \uXXXX escapes, ':' or white
// space for '='), but the properties the parser read, one per line, each
// secret masked. Comments are left out: nothing reads them.
func configMapWorkload(name, text string) (string, error) {
	props, err := workload.Parse(strings.NewReader(text), name)
	if err != nil {
		return "", err
	}
	masked := workload.NewProperties()
	for _, k := range props.Keys() {
		v, _ := props.Get(k)
		masked.Set(k, maskProperty(k, v), name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s as mongobench read it: one property a line, secrets masked, comments left out\n", filepath.Base(name))
	// A strings.Builder takes every write.
	_ = workload.Format(&b, masked)
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

// CheckServer checks how the pods are told the server: by mongodb.url
// (url, given says whether it was) or by the Secret URLSecret, one of
// the two, and no password in a manifest.
func (s *Spec) CheckServer(url string, given bool) error {
	switch {
	case given && s.URLSecret != "":
		return fmt.Errorf("both -p mongodb.url and --url-secret name the server: keep one (the URL in the Secret, if it holds a password)")
	case given && redact.URL(url) != url:
		return fmt.Errorf("-p mongodb.url holds a password, which a manifest must not: kubectl create secret generic mongobench-url --from-literal=url='URL', then --url-secret mongobench-url")
	case !given && s.URLSecret == "":
		return fmt.Errorf("the pods need the server's URL: give -p mongodb.url=mongodb://HOST:27017/ycsb, or a Secret with --url-secret")
	}
	return nil
}

// CheckFiles refuses a workload that writes files of its own: the pods'
// file system is read-only but for the claim, where each part's results
// file goes, and such a file would fail at the end of the run, after the
// measuring.
func (s *Spec) CheckFiles(spec *workload.Spec) error {
	for _, f := range []struct {
		set        bool
		name, path string
	}{
		{spec.ExportFile != "", "exportfile", spec.ExportFile},
		{spec.HdrFileOutput, "hdrhistogram.fileoutput", "true"},
	} {
		if f.set {
			return fmt.Errorf("%s=%s: the pods cannot write local files (their file system is read-only); each part writes its results file to the claim %s, and mongobench merge prints the summary: leave %s out", f.name, printable.String(f.path), s.ResultsClaim, f.name)
		}
	}
	return nil
}

// PartFlags are the flags each pod adds to the load or run command line:
// progress in the pods' logs (-s, unless status says it is there), its
// part of Parts (the completion index, $JOB_COMPLETION_INDEX; the parts
// meet at the barrier under the run id $MONGOBENCH_RUN_ID, the Job's
// uid), its results file on the claim, no store, and its metrics.
func (s *Spec) PartFlags(status bool) []string {
	var args []string
	if !status {
		args = append(args, "-s")
	}
	args = append(args, "--parts", strconv.Itoa(s.Parts))
	args = append(args, "--out", ResultsDir+"/"+s.ResultFile("$("+IndexEnv+")"), "--no-store")
	if s.MetricsPort > 0 {
		args = append(args, "--metrics-addr", ":"+strconv.Itoa(s.MetricsPort))
	}
	return args
}

// Instructions are the manifest's opening comments: what it needs, and
// the commands that apply it, collect the results and merge them.
func (s *Spec) Instructions() []string {
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
			"  "+kubectl+" create secret generic "+s.URLSecret+" --from-literal="+URLKey+"=\"$MONGODB_URL\"")
	}
	lines = append(lines, "",
		"Run, and wait for every part:",
		"  "+kubectl+" apply -f "+file,
		"  "+kubectl+" wait --for=condition=complete job/"+s.Name+" --timeout=24h",
		"  "+kubectl+" logs -l batch.kubernetes.io/job-name="+s.Name+" --prefix --tail=-1",
		"Collect the parts' results and merge them:",
		fmt.Sprintf("  for i in $(seq 0 %d); do %s cp %s:%s/%s %s; done", s.Parts-1, kubectl, pod, ResultsDir, s.ResultFile("$i"), s.ResultFile("$i")),
		"  mongobench merge "+s.ResultFile("*")+" -o "+s.Name+".json",
		"Clean up (the results stay on the claim):",
		"  "+kubectl+" delete -f "+file,
	)
	return lines
}
