package sweep

import (
	"context"
	"errors"
	"fmt"
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
	plan, err := NewPlan(t.Context(), "run", props(t, "run", "recordcount=10", "operationcount=10", "mongodb.url=mongodb://127.0.0.1:1/x"), "", dims)
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

// values makes n distinct values.
func values(n int) []string {
	v := make([]string, n)
	for i := range v {
		v[i] = fmt.Sprint(i + 1)
	}
	return v
}

// TestCountPoints: a matrix is counted from its dimensions' sizes, and
// one past MaxPoints is refused with its size and the bound, even when
// the product would overflow.
func TestCountPoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		sizes []int
		auto  bool
		want  int
		err   string
	}{
		{"one dimension", []int{4}, false, 4, ""},
		{"the bound", []int{100, 100}, false, MaxPoints, ""},
		{"auto counts its first point", []int{3, 5}, true, 15, ""},
		{"one past", []int{101, 100}, false, 0,
			"sweep: --vary makes a matrix of 10100 points (101 × 100 values), more than the 10000 a sweep may plan: vary fewer properties or fewer values"},
		{"4 × 20", []int{20, 20, 20, 20}, false, 0,
			"sweep: --vary makes a matrix of 160000 points (20 × 20 × 20 × 20 values), more than the 10000 a sweep may plan: vary fewer properties or fewer values"},
		{"past an int", []int{1 << 16, 1 << 16, 1 << 16, 1 << 16}, false, 0,
			"sweep: --vary makes a matrix of more than 281474976710656 points (65536 × 65536 × 65536 × 65536 values), more than the 10000 a sweep may plan: vary fewer properties or fewer values"},
	}
	for _, tt := range tests {
		var dims []Dim
		for i, n := range tt.sizes {
			dims = append(dims, Dim{Name: fmt.Sprintf("p%d", i), Values: values(n)})
		}
		if tt.auto {
			dims = append(dims, Dim{Name: "threadcount", Auto: true})
		}
		n, err := CountPoints(dims)
		if tt.err == "" {
			if err != nil || n != tt.want {
				t.Errorf("%s: %d, %v; want %d", tt.name, n, err, tt.want)
			}
			continue
		}
		var tm *TooManyPointsError
		if !errors.As(err, &tm) || err.Error() != tt.err {
			t.Errorf("%s: err %v\nwant %s", tt.name, err, tt.err)
		}
	}
}

// TestNewPlanRefusesBeforeBuilding: a matrix past the bound is refused
// by NewPlan before any point is resolved: the sweep's properties are not
// even read (nil would panic on the first point).
func TestNewPlanRefusesBeforeBuilding(t *testing.T) {
	t.Parallel()
	dims := []Dim{{Name: "fieldcount", Values: values(20)}, {Name: "fieldlength", Values: values(20)},
		{Name: "recordcount", Values: values(20)}, {Name: "threadcount", Values: values(20)}}
	_, err := NewPlan(t.Context(), "run", nil, "", dims)
	var tm *TooManyPointsError
	if !errors.As(err, &tm) || tm.Points != 160000 {
		t.Fatalf("err = %v, want 160000 points refused", err)
	}
}

// TestNewPlanStops: planning ends when its context does, between points.
func TestNewPlanStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	dims := []Dim{{Name: "fieldcount", Values: values(10)}, {Name: "threadcount", Values: values(10)}}
	plan, err := NewPlan(ctx, "run", props(t, "run", "recordcount=10", "operationcount=10", "mongodb.url=mongodb://127.0.0.1:1/x"), "", dims)
	if !errors.Is(err, context.Canceled) || plan != nil {
		t.Errorf("plan %v, err %v; want none and context.Canceled", plan, err)
	}
}
