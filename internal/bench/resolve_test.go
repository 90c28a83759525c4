package bench

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/workload"
)

// TestResolve checks the order of a load's or run's resolution: each
// step's refusal, the warnings met before it kept, and a part's plan.
func TestResolve(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		if k == "MONGOBENCH_URL" {
			return "mongodb://envhost:27017"
		}
		return ""
	}
	for _, tt := range []struct {
		name    string
		props   []string
		out     string
		given   partition.Given
		wantErr string
		check   func(t *testing.T, r *Resolved)
	}{
		{name: "defaults", check: func(t *testing.T, r *Resolved) {
			if r.Exporter == "" || r.URL != "mongodb://envhost:27017" || r.Part != nil || r.Spec == nil {
				t.Errorf("resolved %+v, part %v", r.Settings, r.Part)
			}
		}},
		{name: "bad exporter", props: []string{"exporter", "nosuch"}, wantErr: "nosuch"},
		{name: "bad recordcount", props: []string{"recordcount", "abc"}, wantErr: "recordcount"},
		{name: "a part", given: partition.Given{Part: "1/2", RunID: "r1"}, check: func(t *testing.T, r *Resolved) {
			if r.Part == nil || r.Part.Part.Index != 1 || r.Part.Part.Count != 2 || r.Part.RunID != "r1" {
				t.Errorf("part %+v", r.Part)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			props := workload.NewProperties()
			props.Set("recordcount", "100", "-P")
			props.Set("operationcount", "100", "-P")
			for i := 0; i+1 < len(tt.props); i += 2 {
				props.Set(tt.props[i], tt.props[i+1], "-p")
			}
			r, _, err := Resolve("run", props, tt.out, tt.given, env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}
