package bench

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/workload"
)

func TestSpecOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	summary := filepath.Join(dir, "s.txt")
	tests := []struct {
		name string
		spec workload.Spec
		out  string
		want string
	}{
		{"none", workload.Spec{}, "", ""},
		{"summary", workload.Spec{ExportFile: summary}, filepath.Join(dir, "r.json"), ""},
		{"summary is the results", workload.Spec{ExportFile: summary}, dir + "/./s.txt", "exportfile=" + summary + " and --out " + dir + "/./s.txt name the same file"},
		{"summary nowhere", workload.Spec{ExportFile: filepath.Join(dir, "no", "s.txt")}, "", "exportfile=" + filepath.Join(dir, "no", "s.txt") + ": "},
		{"logs nowhere", workload.Spec{HdrFileOutput: true, HdrOutputPath: filepath.Join(dir, "no") + "/run-"}, "", "hdrhistogram.output.path="},
	}
	for _, tt := range tests {
		err := CheckSpecOutputs(&tt.spec, tt.out)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v, want one starting %q", tt.name, err, tt.want)
		}
	}
	files := OutputFiles(&workload.Spec{ExportFile: summary, HdrFileOutput: true, HdrOutputPath: "h/run-"}, "r.json")
	var got []string
	for _, f := range files {
		got = append(got, f.Flag+"="+f.Path)
	}
	if want := "--out=r.json,--out (its journal)=r.json.intervals.jsonl,exportfile=" + summary + ",hdrhistogram.output.path=h/run-READ.hdr"; strings.Join(got, ",") != want {
		t.Errorf("files %q, want %q", strings.Join(got, ","), want)
	}
}
