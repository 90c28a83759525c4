package threshold

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

func TestParseChanges(t *testing.T) {
	t.Parallel()
	cs, err := ParseChanges("throughput<-5%, p(99)>+10%,READ:p99.9>20%,UPDATE:throughput<-2.5%,notok>+0%,OVERALL:avg>1%")
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Op: Overall, Figure: "throughput", Cmp: "<", Limit: -0.05},
		{Figure: "p99", Cmp: ">", Limit: 0.10},
		{Op: "READ", Figure: "p99.9", Cmp: ">", Limit: 0.20},
		{Op: "UPDATE", Figure: "throughput", Cmp: "<", Limit: -0.025},
		{Figure: analysis.NotOKFigure, Cmp: ">", Limit: 0},
		{Op: Overall, Figure: "avg", Cmp: ">", Limit: 0.01},
	}
	if len(cs) != len(want) {
		t.Fatalf("%d conditions, want %d: %+v", len(cs), len(want), cs)
	}
	for i := range want {
		if cs[i] != want[i] {
			t.Errorf("condition %d: %+v, want %+v", i, cs[i], want[i])
		}
	}
	if got := cs[1].String(); got != "p(99)>+10%" {
		t.Errorf("String() = %q", got)
	}
	for _, bad := range []struct{ in, says string }{
		{"throughput<-5", "relative change in percent"},
		{"p(90)>+10%", `percentile "p(90)"`},
		{"latency>+10%", `unknown figure "latency"`},
		{"FE TCH:p(99)>+1%", `unknown operation "FE TCH"`},
		{"p(99)=+1%", "no comparison"},
		{"throughput<-5%,", "no comparison"},
	} {
		_, err := ParseChanges(bad.in)
		if err == nil || !strings.Contains(err.Error(), bad.says) || !strings.Contains(err.Error(), "accepted:") {
			t.Errorf("ParseChanges(%q): %v, want an error saying %q", bad.in, err, bad.says)
		}
	}
}

// study compares three runs at each throughput of a against three of b;
// their READ latencies scale with lat.
func study(t *testing.T, a, b []float64, latA, latB []int64) *analysis.Study {
	t.Helper()
	group := func(tp []float64, lat []int64) []analysis.Run {
		var g []analysis.Run
		for i := range tp {
			g = append(g, analysis.NewRun(resultstest.Results(t, resultstest.Spec{Throughput: tp[i], LatencyUs: map[string]int64{"READ": lat[i]}}), "r", 0))
		}
		return g
	}
	st, err := analysis.NewStudy([][]analysis.Run{group(a, latA), group(b, latB)}, analysis.StudyOptions{Names: []string{"A", "B"}, Alpha: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestBreaches(t *testing.T) {
	t.Parallel()
	cond, err := ParseChanges("throughput<-5%,p(99)>+10%")
	if err != nil {
		t.Fatal(err)
	}
	base := []float64{1000, 1010, 990}
	baseLat := []int64{1000, 1010, 990}
	tests := []struct {
		name      string
		b         []float64
		latB      []int64
		breaches  []string
		noVerdict int
	}{
		{"10% slower, significant", []float64{900, 905, 895}, baseLat, []string{"B: throughput -10.0%"}, 0},
		{"p99 up 20%, significant", base, []int64{1200, 1210, 1190}, []string{"B: READ p99 +20.0%"}, 0},
		{"2% slower: significant, within the limit", []float64{980, 981, 979}, baseLat, nil, 0},
		{"10% slower on average, noise too wide to tell", []float64{700, 1100, 900}, baseLat, nil, 0},
		{"faster: the other direction", []float64{1200, 1210, 1190}, []int64{800, 810, 790}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, nv := Breaches(cond, study(t, base, tt.b, baseLat, tt.latB))
			if len(got) != len(tt.breaches) || nv != tt.noVerdict {
				t.Fatalf("%d breaches, %d without verdict: %+v; want %v", len(got), nv, got, tt.breaches)
			}
			for i, w := range tt.breaches {
				if s := got[i].Sentence(); !strings.HasPrefix(s, w+" (significant, adjusted p=") {
					t.Errorf("breach %d: %q, want it to start %q", i, s, w)
				}
			}
		})
	}
	// One run a side: no verdict, so no breach, but the conditions say
	// they could not judge.
	got, nv := Breaches(cond, study(t, []float64{1000}, []float64{500}, []int64{1000}, []int64{5000}))
	if len(got) != 0 || nv != 2 {
		t.Errorf("single runs: %d breaches, %d without verdict; want 0 and 2", len(got), nv)
	}
	// A condition no figure answers (an operation the runs did not do)
	// is unmatched, which fails it; the others are matched.
	gate, err := ParseChanges("throughput<-5%,checkout:p(99)>+10%")
	if err != nil {
		t.Fatal(err)
	}
	un := Unmatched(gate, study(t, base, base, baseLat, baseLat))
	if len(un) != 1 || un[0].Op != "checkout" {
		t.Errorf("unmatched %v, want checkout:p(99) alone", un)
	}
}

// FuzzParseChanges: --fail-on never panics, refuses in one line, and what
// it accepts prints as conditions that parse back to the same.
func FuzzParseChanges(f *testing.F) {
	for _, s := range []string{"throughput<-5%,p(99)>+10%", "READ:p99.9>20%", "notok>+0%", "UPDATE:avg<-1.5%", ",", "p(99)>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseChanges(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on two lines: %q", err)
			}
			return
		}
		for _, c := range cs {
			again, err := ParseChanges(c.String())
			if err != nil || len(again) != 1 || again[0].String() != c.String() {
				t.Fatalf("%q: condition %+v prints as %q, which parses as %+v (%v)", s, c, c.String(), again, err)
			}
		}
	})
}
