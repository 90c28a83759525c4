package partition

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/internal/workload/workloadtest"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Part
		err  bool
	}{
		{"0/4", Part{0, 4}, false},
		{"3/4", Part{3, 4}, false},
		{" 1 / 2 ", Part{1, 2}, false},
		{"0/1", Part{0, 1}, false},
		{"4/4", Part{}, true},  // counted from 0
		{"-1/4", Part{}, true}, // no negative parts
		{"1/0", Part{}, true},
		{"1", Part{}, true},
		{"a/b", Part{}, true},
		{"0/10001", Part{}, true}, // beyond MaxParts
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
		if err != nil && !strings.Contains(err.Error(), "expected I/N") {
			t.Errorf("Parse(%q): %v does not say what is accepted", tt.in, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0/4", "3/8", "", "/", "9999/10000", "1/-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		if p.Index < 0 || p.Index >= p.Count || p.Count > MaxParts {
			t.Fatalf("Parse(%q) = %v", s, p)
		}
		if q, err := Parse(p.String()); err != nil || q != p {
			t.Fatalf("Parse(%q) = %v does not read back: %v, %v", s, p, q, err)
		}
	})
}

func TestResolve(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == EnvIndex {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name  string
		part  string
		parts int
		env   string
		want  Part
		err   string
	}{
		{"nothing is the whole", "", 0, "3", Part{}, ""},
		{"--part", "2/4", 0, "", Part{2, 4}, ""},
		{"--part wins over the index", "2/4", 4, "1", Part{2, 4}, ""},
		{"--parts with the index", "", 8, "7", Part{7, 8}, ""},
		{"--parts without the index", "", 8, "", Part{}, "--parts 8 needs this process's part: set JOB_COMPLETION_INDEX"},
		{"index out of range", "", 8, "8", Part{}, `JOB_COMPLETION_INDEX="8" is invalid with --parts 8: expected a whole number from 0 to 7`},
		{"index not a number", "", 8, "x", Part{}, "JOB_COMPLETION_INDEX"},
		{"disagreeing counts", "1/4", 8, "", Part{}, "--part 1/4 and --parts 8 disagree"},
		{"too many parts", "", MaxParts + 1, "0", Part{}, "--parts 10001 is invalid"},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.part, tt.parts, env(tt.env))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

// TestShareCoversTheWhole checks that the parts' slices follow one
// another, cover n exactly, and differ by one at most.
func TestShareCoversTheWhole(t *testing.T) {
	t.Parallel()
	for _, count := range []int{1, 2, 3, 4, 7, 8, 1000} {
		for _, n := range []int64{0, 1, 7, 8, 9, 1000, 1001, 999_999_937} {
			var next, least, most int64 = 0, n, 0
			for i := range count {
				off, size := Part{i, count}.Share(n)
				if off != next {
					t.Fatalf("n=%d count=%d: part %d starts at %d, want %d", n, count, i, off, next)
				}
				next += size
				least, most = min(least, size), max(most, size)
			}
			if next != n || most-least > 1 {
				t.Errorf("n=%d count=%d: slices cover %d, sizes %d..%d", n, count, next, least, most)
			}
		}
	}
}

func TestRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target float64
		count  int
		want   []float64
	}{
		{0, 3, []float64{0, 0, 0}},             // no target stays none
		{10, 3, []float64{4, 3, 3}},            // whole numbers spread as counts
		{2, 4, []float64{0.5, 0.5, 0.5, 0.5}},  // fewer than the parts: no part gets 0
		{2.5, 2, []float64{1.25, 1.25}},        // fractions divide evenly
		{1000, 1, []float64{1000}},             // the whole
		{7, 7, []float64{1, 1, 1, 1, 1, 1, 1}}, // one each
	}
	for _, tt := range tests {
		var sum float64
		for i, want := range tt.want {
			got := Part{i, tt.count}.Rate(tt.target)
			if got != want {
				t.Errorf("target %v, part %d/%d: %v, want %v", tt.target, i, tt.count, got, want)
			}
			sum += got
		}
		if sum != tt.target {
			t.Errorf("target %v over %d parts sums to %v", tt.target, tt.count, sum)
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	t.Parallel()
	seen := map[uint64]int{}
	for i := range 1000 {
		s := Part{i, 1000}.Seed(42)
		if j, ok := seen[s]; ok {
			t.Fatalf("parts %d and %d share the seed %d", j, i, s)
		}
		seen[s] = i
	}
	if (Part{0, 8}).Seed(42) != 42 {
		t.Error("part 0 does not keep the run's seed")
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	// A load of keys 100..1099 over 3 parts: 334, 333, 333 keys.
	var next int64 = 100
	for i := range 3 {
		s := workloadtest.Spec(t, false, "recordcount=2000", "insertstart=100", "insertcount=1000", "target=300")
		if err := (Part{i, 3}).Apply(s); err != nil {
			t.Fatal(err)
		}
		if s.InsertStart != next || s.Target != 100 || s.Part != i || s.Parts != 3 {
			t.Errorf("load part %d: insertstart %d target %v part %d/%d", i, s.InsertStart, s.Target, s.Part, s.Parts)
		}
		next += s.InsertCount
	}
	if next != 1100 {
		t.Errorf("the load parts end at key %d, want 1100", next)
	}
	// A run: operations and target split, the key range for reads kept.
	s := workloadtest.Spec(t, true, "recordcount=2000", "operationcount=1001", "target=10")
	if err := (Part{0, 2}).Apply(s); err != nil {
		t.Fatal(err)
	}
	if s.OperationCount != 501 || s.Target != 5 || s.InsertStart != 0 || s.InsertCount != 2000 {
		t.Errorf("run part 0/2: %d operations at %v/s over keys %d+%d", s.OperationCount, s.Target, s.InsertStart, s.InsertCount)
	}
	// Too little to split.
	for _, tt := range []struct {
		spec *workload.Spec
		want string
	}{
		{workloadtest.Spec(t, false, "recordcount=3"), "insertcount=3 cannot be split into 4 parts"},
		{workloadtest.Spec(t, true, "recordcount=3", "operationcount=3"), "operationcount=3 cannot be split into 4 parts"},
	} {
		if err := (Part{0, 4}).Apply(tt.spec); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want %q", err, tt.want)
		}
	}
	// A ramp: every stage's rate split as -target is, the whole's
	// stages left as they were.
	whole := workloadtest.Spec(t, true, "recordcount=10", "stages=10s:300,20s:301")
	s = &workload.Spec{}
	*s = *whole
	if err := (Part{2, 3}).Apply(s); err != nil {
		t.Fatal(err)
	}
	if len(s.Stages) != 2 || s.Stages[0].Target != 100 || s.Stages[1].Target != 100 || s.Stages[1].Duration != 20*time.Second || whole.Stages[0].Target != 300 {
		t.Errorf("ramp part 2/3: %+v (the whole's %+v)", s.Stages, whole.Stages)
	}
	// No limit on operations (a time limit ends the run) stays none.
	s = workloadtest.Spec(t, true, "recordcount=10", "operationcount=0", "maxexecutiontime=5")
	if err := (Part{3, 4}).Apply(s); err != nil || s.OperationCount != 0 {
		t.Errorf("unlimited run: %d operations, %v", s.OperationCount, err)
	}
}
