package kubejob

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

func TestFlagsAndMissing(t *testing.T) {
	t.Parallel()
	s := NewSpec("1.2.3")
	if m := s.Missing(); m != "--parts is missing: expected the number of parts, such as --parts 8" {
		t.Errorf("Missing: %q", m)
	}
	set := cmdflag.NewSet("k8s", s.Flags())
	if err := set.Parse(strings.Fields("--parts 4")); err != nil {
		t.Fatal(err)
	}
	if m := s.Missing(); !strings.HasSuffix(m, "such as registry.example.com/mongobench:1.2.3") {
		t.Errorf("Missing after --parts: %q", m)
	}
	if err := set.Parse(strings.Fields("--image img --results-claim rc --metrics-port 0 --cpu 4")); err != nil {
		t.Fatal(err)
	}
	if m := s.Missing(); m != "" || s.Parts != 4 || s.Image != "img" || s.ResultsClaim != "rc" || s.MetricsPort != 0 || s.CPU != "4" || s.Memory != "1Gi" {
		t.Errorf("missing %q, spec %+v", m, s)
	}
	for _, tt := range []struct{ args, want string }{
		{"--parts 0", `--parts "0" is invalid: expected a number of parts from 1 to 10000`},
		{"--metrics-port 65536", `--metrics-port "65536" is invalid: expected a port from 1 to 65535, or 0 for none`},
	} {
		s := NewSpec("v")
		if err := cmdflag.NewSet("k8s", s.Flags()).Parse(strings.Fields(tt.args)); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestSetCommand(t *testing.T) {
	t.Parallel()
	var files, props []string
	var out string
	var status bool
	defs := []cmdflag.Def{
		cmdflag.Func("P", "FILE", "", false, cmdflag.Append(&files)),
		cmdflag.Func("p", "NAME=VALUE", "", false, cmdflag.Append(&props)),
		cmdflag.Text("label-long", "L", "", true, &out),
		cmdflag.Switch("s", "", false, &status),
	}
	s := NewSpec("v")
	s.Parts, s.MetricsPort = 3, 0
	if err := s.SetCommand("run", []string{"mongodb", "-P", "workloada", "-p=recordcount=10", "--label-long", "x", "-s"}, defs, true); err != nil {
		t.Fatal(err)
	}
	want := "run mongodb -P workloada -p recordcount=10 --label-long x -s --parts 3 --out " + ResultsDir + "/" + s.ResultFile("$("+IndexEnv+")") + " --no-store"
	if got := strings.Join(s.Args, " "); got != want {
		t.Errorf("args\n %q\nwant\n %q", got, want)
	}
	if len(s.Workloads) != 0 {
		t.Errorf("a built-in workload put in the ConfigMap: %v", s.Workloads)
	}
}
