package kubejob

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/workload/workloadtest"
)

// TestAddWorkload: a -P file here goes into the ConfigMap as the
// properties the parser read, secrets masked, and the pods name it in
// WorkloadDir; a built-in workload is named as it is; two files of one
// name are refused.
func TestAddWorkload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mine := write("mine.properties", "# a comment\nmongodb.url=mongodb://bob:hun\\\n  ter2@db:27017/ycsb\nmy.password=x\nrecordcount : 10\n")
	s := valid()
	got, err := s.AddWorkload(mine)
	if err != nil || got != WorkloadDir+"/mine.properties" {
		t.Fatalf("AddWorkload = %q, %v; want the file in %s", got, err, WorkloadDir)
	}
	want := "# mine.properties as mongobench read it: one property a line, secrets masked, comments left out\n" +
		"mongodb.url=mongodb://bob:***@db:27017/ycsb\nmy.password=***\nrecordcount=10\n"
	if c := s.Workloads["mine.properties"]; c != want {
		t.Errorf("the ConfigMap holds\n%s\nwant\n%s", c, want)
	}
	if got, err := s.AddWorkload("workloada"); err != nil || got != "workloada" {
		t.Errorf("a built-in workload: %q, %v; want it named as it is", got, err)
	}
	// The same file again is fine; another of the same name is not.
	if _, err := s.AddWorkload(mine); err != nil {
		t.Errorf("the same file twice: %v", err)
	}
	other := write("other/mine.properties", "recordcount=20\n")
	if _, err := s.AddWorkload(other); err == nil || !strings.Contains(err.Error(), "two -P files are named mine.properties") {
		t.Errorf("two files of one name: %v, want them refused", err)
	}
	bad := write("bad.properties", "a=\\u12\n")
	if _, err := s.AddWorkload(bad); err == nil {
		t.Error("a file the parser refuses was taken")
	}
	if _, err := s.AddWorkload(dir); err == nil || !strings.Contains(err.Error(), "cannot read workload file "+dir) {
		t.Errorf("a directory: %v, want it refused", err)
	}
}

// TestChecks: how the pods learn the server, and the files they cannot
// write, each refusal naming what is wrong.
func TestChecks(t *testing.T) {
	t.Parallel()
	s := valid()
	for _, tc := range []struct {
		url, secret string
		given       bool
		want        string
	}{
		{url: "mongodb://db:27017/ycsb", given: true},
		{secret: "url"},
		{url: "mongodb://db:27017/ycsb", given: true, secret: "url", want: "both -p mongodb.url and --url-secret name the server"},
		{url: "mongodb://bob:pw@db:27017/ycsb", given: true, want: "-p mongodb.url holds a password"},
		{want: "the pods need the server's URL"},
	} {
		s.URLSecret = tc.secret
		err := s.CheckServer(tc.url, tc.given)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("url %q given %v secret %q: %v, want %q", tc.url, tc.given, tc.secret, err, tc.want)
		}
	}
	for _, tc := range []struct {
		props []string
		want  string
	}{
		{nil, ""},
		{[]string{"exportfile=/tmp/s.txt"}, "exportfile=/tmp/s.txt: the pods cannot write local files (their file system is read-only); each part writes its results file to the claim res"},
		{[]string{"hdrhistogram.fileoutput=true"}, "hdrhistogram.fileoutput=true: the pods cannot write local files"},
	} {
		spec := workloadtest.Spec(t, true, append([]string{"recordcount=10", "operationcount=10"}, tc.props...)...)
		err := s.CheckFiles(spec)
		if (tc.want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.props, err, tc.want)
		}
	}
}

// TestPartFlags: what each pod adds to its command line.
func TestPartFlags(t *testing.T) {
	t.Parallel()
	s := valid()
	want := []string{"-s", "--parts", "2", "--out", "/results/mongobench-part-$(JOB_COMPLETION_INDEX).json", "--no-store", "--metrics-addr", ":9100"}
	if got := s.PartFlags(false); !slices.Equal(got, want) {
		t.Errorf("PartFlags = %q, want %q", got, want)
	}
	s.MetricsPort = 0
	if got := s.PartFlags(true); !slices.Equal(got, want[1:6]) {
		t.Errorf("with -s given and no metrics: %q, want %q", got, want[1:6])
	}
}

// TestInstructions: the commands at the top of the manifest name the
// namespace, the Secret, the claim and every part's file.
func TestInstructions(t *testing.T) {
	t.Parallel()
	s := valid()
	s.Namespace, s.URLSecret, s.Parts = "bench", "mb-url", 3
	text := strings.Join(s.Instructions(), "\n")
	for _, w := range []string{
		"mongobench run in 3 parts on 3 nodes, made by mongobench k8s.",
		"PersistentVolumeClaim res, writable by uid/gid 65532.",
		`kubectl -n bench create secret generic mb-url --from-literal=url="$MONGODB_URL"`,
		"for i in $(seq 0 2); do kubectl -n bench cp bench/mongobench-collect:/results/mongobench-part-$i.json mongobench-part-$i.json; done",
		"mongobench merge mongobench-part-*.json -o mongobench.json",
		"kubectl -n bench delete -f mongobench.yaml",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("instructions lack %q:\n%s", w, text)
		}
	}
	s.URLSecret = ""
	if text := strings.Join(s.Instructions(), "\n"); strings.Contains(text, "secret") {
		t.Errorf("instructions without a Secret name one:\n%s", text)
	}
}
