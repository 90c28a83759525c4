package kubejob

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/workload"
)

// TestCheckWorkload: each refusal a k8s command line can meet before its
// manifest, in order, and a workload the pods can run.
func TestCheckWorkload(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		props []string
		want  string
	}{
		{"runs", []string{"mongodb.url", "mongodb://db:27017/ycsb"}, ""},
		{"bad property", []string{"mongodb.url", "mongodb://db:27017/ycsb", "fieldcount", "abc"}, "fieldcount"},
		{"a local file", []string{"mongodb.url", "mongodb://db:27017/ycsb", "exportfile", "x.txt"}, "exportfile=x.txt: the pods cannot write local files"},
		{"no server", nil, "the pods need the server's URL"},
		{"a password", []string{"mongodb.url", "mongodb://u:pw@db:27017/ycsb"}, "holds a password"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSpec("test")
			s.ResultsClaim = "claim"
			props := workload.NewProperties()
			props.Set("recordcount", "100", "-p")
			props.Set("operationcount", "100", "-p")
			for i := 0; i+1 < len(tt.props); i += 2 {
				props.Set(tt.props[i], tt.props[i+1], "-p")
			}
			err := s.CheckWorkload("run", props, nil)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
