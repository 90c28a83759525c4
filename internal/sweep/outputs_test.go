package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/output"
)

func TestCheckOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	input := filepath.Join(dir, "w.properties")
	if err := os.WriteFile(input, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	dims := []Dim{{Name: "threadcount", Values: []string{"1", "2"}}}
	plan := func(extra ...string) *Plan {
		lines := append([]string{"recordcount=10", "operationcount=10", "mongodb.url=mongodb://127.0.0.1:1/x"}, extra...)
		p, err := NewPlan(t.Context(), "run", props(t, "run", lines...), "", dims)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ins := []output.Named{{Flag: "-P", Path: input}}
	tests := []struct {
		name  string
		plan  *Plan
		store string
		want  string
	}{
		{"fine", plan("exportfile=" + filepath.Join(dir, "s.txt")), filepath.Join(dir, "m.db"), ""},
		{"exporter", plan("exporter=bogus"), "", "sweep point threadcount=1: "},
		{"exportfile over an input", plan("exportfile=" + input), "", "sweep point threadcount=1: exportfile " + input + " is the -P file"},
		{"exportfile in no directory", plan("exportfile=" + filepath.Join(dir, "no", "s.txt")), "", "sweep point threadcount=1: exportfile=" + filepath.Join(dir, "no", "s.txt") + ": "},
		{"hdr prefix", plan("hdrhistogram.fileoutput=true", "hdrhistogram.output.path="+filepath.Join(dir, "no", "run-")), "", "sweep point threadcount=1: hdrhistogram.output.path="},
		{"store", plan(), dir, "--store " + dir + ": "},
	}
	for _, tt := range tests {
		err := tt.plan.CheckOutputs(ins, tt.store, "")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v, want one starting %q", tt.name, err, tt.want)
		}
	}
}
