package sweep

import (
	"slices"
	"testing"
)

// TestPlanLinked plans a linked dimension inside a thread series: each
// point sets both linked properties, the threads vary fastest, and the
// labels name every property in command-line order.
func TestPlanLinked(t *testing.T) {
	t.Parallel()
	dims := []Dim{
		{Name: "readproportion", Linked: []string{"insertproportion"}, Values: []string{"0.95:0.05", "0.9:0.1"}},
		{Name: "threadcount", Values: []string{"1", "4"}},
	}
	plan, err := NewPlan("run", props(t, "run", "recordcount=10", "operationcount=10", "mongodb.url=mongodb://127.0.0.1:1/x"), "", dims)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"readproportion", "insertproportion", "threadcount"}; !slices.Equal(plan.Varied, want) || plan.X != "threadcount" {
		t.Fatalf("varied %v along %s, want %v along threadcount", plan.Varied, plan.X, want)
	}
	var got []string
	for _, p := range plan.Points {
		v, _ := p.Settings.Props.Get("insertproportion")
		got = append(got, p.Label+"|"+v)
	}
	want := []string{
		"readproportion=0.95 insertproportion=0.05 threadcount=1|0.05", "readproportion=0.95 insertproportion=0.05 threadcount=4|0.05",
		"readproportion=0.9 insertproportion=0.1 threadcount=1|0.1", "readproportion=0.9 insertproportion=0.1 threadcount=4|0.1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("points\n%q, want\n%q", got, want)
	}
	if v := dims[0].ValueIn(plan.Points[2].Values); v != "0.9:0.1" {
		t.Errorf("the dimension's value at the third point is %q, want 0.9:0.1", v)
	}
}
