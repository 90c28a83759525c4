package partition

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/internal/workload/workloadtest"
)

// TestNewPlan checks how a process learns it is a part: its part, its
// share and the whole's, its run id (given, from the environment, or a
// hash of what the parts share), and what is refused.
func TestNewPlan(t *testing.T) {
	t.Parallel()
	const url = "mongodb://db:27017/ycsb"
	props := workload.NewProperties()
	props.Set("recordcount", "2000", "-p")
	props.Set("operationcount", "1001", "-p")
	start := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	spec := func() *workload.Spec {
		return workloadtest.Spec(t, true, "recordcount=2000", "operationcount=1001", "target=10")
	}
	hashed := DefaultRunID("run", props, 2)

	for _, tc := range []struct {
		name    string
		given   Given
		env     map[string]string
		url     string
		want    *Plan // nil: no plan
		refused string
	}{
		{name: "a whole run", url: url},
		{name: "a whole run at an instant", given: Given{StartAt: start}, url: url, want: &Plan{StartAt: start}},
		{name: "a part, its run id hashed", given: Given{Part: "0/2"}, url: url, want: &Plan{
			Part: Part{0, 2}, RunID: hashed, Timeout: DefaultBarrierTimeout,
			Whole: results.Share{InsertCount: 2000, OperationCount: 1001, Target: 10},
			Share: results.Share{InsertCount: 2000, OperationCount: 501, Target: 5},
		}},
		{name: "the index from the environment, the run id too", given: Given{Parts: 2, BarrierTimeout: time.Minute}, url: url,
			env: map[string]string{EnvIndex: "1", EnvRunID: " job-uid "}, want: &Plan{
				Part: Part{1, 2}, RunID: "job-uid", Timeout: time.Minute,
				Whole: results.Share{InsertCount: 2000, OperationCount: 1001, Target: 10},
				Share: results.Share{InsertCount: 2000, OperationCount: 500, Target: 5},
			}},
		{name: "a run id given wins", given: Given{Part: "1/2", RunID: "mine"}, url: url, env: map[string]string{EnvRunID: "job-uid"}, want: &Plan{
			Part: Part{1, 2}, RunID: "mine", Timeout: DefaultBarrierTimeout,
			Whole: results.Share{InsertCount: 2000, OperationCount: 1001, Target: 10},
			Share: results.Share{InsertCount: 2000, OperationCount: 500, Target: 5},
		}},
		{name: "a run id without parts", given: Given{RunID: "x"}, url: url, refused: "--run-id and --barrier-timeout go with --part or --parts"},
		{name: "parts on the embedded server", given: Given{Part: "0/2"}, refused: "--part 0/2 needs mongodb.url"},
		{name: "a bad part", given: Given{Part: "2/2"}, url: url, refused: `--part "2/2" is invalid`},
		{name: "a run id too long", given: Given{Part: "0/2", RunID: strings.Repeat("r", MaxRunID+1)}, url: url,
			refused: `--run-id "` + strings.Repeat("r", 24) + `"… (129 characters) is too long`},
		{name: "a run id with a control character", given: Given{Part: "0/2", RunID: "a\x1bb"}, url: url, refused: `--run-id "a\\x1bb" is invalid`},
	} {
		got, err := NewPlan("run", tc.given, props, spec(), tc.url, env(tc.env))
		if tc.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("%s: %v, want a refusal with %q", tc.name, err, tc.refused)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%s: plan %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDefaultRunID: the parts of one run, started alike, agree on its id
// whatever seed each picked; another command, count of parts or property
// is another run.
func TestDefaultRunID(t *testing.T) {
	t.Parallel()
	props := func(kv ...string) *workload.Properties {
		p := workload.NewProperties()
		for i := 0; i < len(kv); i += 2 {
			p.Set(kv[i], kv[i+1], "-p")
		}
		return p
	}
	base := DefaultRunID("run", props("recordcount", "10", "seed", "1"), 4)
	if !strings.HasPrefix(base, "run-") || len(base) != len("run-")+12 {
		t.Errorf("run id %q: want run- and 12 hex digits", base)
	}
	if got := DefaultRunID("run", props("seed", "2", "recordcount", "10"), 4); got != base {
		t.Errorf("another seed, another order: %q, want %q", got, base)
	}
	for _, other := range []string{
		DefaultRunID("load", props("recordcount", "10"), 4),
		DefaultRunID("run", props("recordcount", "10"), 3),
		DefaultRunID("run", props("recordcount", "11"), 4),
	} {
		if other == base {
			t.Errorf("%q: another run named as the first", other)
		}
	}
}
