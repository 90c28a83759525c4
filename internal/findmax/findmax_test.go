package findmax

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// system is a synthetic system that sustains every rate up to its
// capacity: what a real one's latency and achieved rate say, reduced to
// the verdict.
func system(capacity float64) Probe {
	return func(_ context.Context, t float64) (Verdict, error) {
		if t <= capacity {
			return Verdict{Pass: true}, nil
		}
		return Verdict{Why: "p99 over the limit"}, nil
	}
}

func targets(steps []Step) []float64 {
	var ts []float64
	for _, s := range steps {
		ts = append(ts, s.Target)
	}
	return ts
}

func TestKnownAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		o         Options
		capacity  float64
		low, high float64
		steps     []float64
		text      string
	}{
		{"up from below", Options{Start: 1000}, 4300, 4250, 4500,
			[]float64{1000, 2000, 4000, 8000, 6000, 5000, 4500, 4250, 4250, 4250}, "sustains 4250–4500 ops/s"},
		{"down from above", Options{Start: 10000}, 300, 293, 312.5,
			[]float64{10000, 5000, 2500, 1250, 625, 312.5, 156.25, 234, 273, 293, 293, 293}, "sustains 293–312 ops/s"},
		{"nothing sustained", Options{Start: 4, Min: 1}, 0.5, 0, 1, []float64{4, 2, 1}, "sustains no rate tried: even 1 ops/s failed"},
		{"everything up to the most", Options{Start: 1000, Max: 5000}, 1e12, 5000, 0,
			[]float64{1000, 2000, 4000, 5000, 5000, 5000}, "sustains at least 5000 ops/s, the most tried"},
		{"a finer resolution", Options{Start: 1000, Resolution: 0.01}, 4300, 4290, 4320,
			nil, "sustains 4290–4320 ops/s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Search(context.Background(), tt.o, system(tt.capacity))
			if err != nil {
				t.Fatal(err)
			}
			if res.Low != tt.low || res.High != tt.high || res.Text() != tt.text {
				t.Errorf("%v–%v %q, want %v–%v %q; steps %v", res.Low, res.High, res.Text(), tt.low, tt.high, tt.text, targets(res.Steps))
			}
			if tt.steps != nil && !slices.Equal(targets(res.Steps), tt.steps) {
				t.Errorf("steps %v, want %v", targets(res.Steps), tt.steps)
			}
			if res.Found() && (res.Low > tt.capacity || (res.High > 0 && res.High <= tt.capacity)) {
				t.Errorf("%v–%v does not bracket the capacity %v", res.Low, res.High, tt.capacity)
			}
		})
	}
}

// A pass at the boundary that does not hold up when run again moves the
// answer down to the next rate that does.
func TestConfirmation(t *testing.T) {
	t.Parallel()
	seen := map[float64]int{}
	flaky := func(_ context.Context, t float64) (Verdict, error) {
		seen[t]++
		switch {
		case t <= 4000:
			return Verdict{Pass: true}, nil
		case t == 4250 && seen[t] == 1:
			return Verdict{Pass: true}, nil // luck, the first time
		}
		return Verdict{Why: "p99 over the limit"}, nil
	}
	res, err := Search(context.Background(), Options{Start: 1000}, flaky)
	if err != nil {
		t.Fatal(err)
	}
	if res.Low != 4000 || res.High != 4250 {
		t.Errorf("%v–%v, want 4000–4250; steps %v", res.Low, res.High, targets(res.Steps))
	}
	if last := res.Steps[len(res.Steps)-1]; last.Phase != "confirm" || last.Target != 4000 {
		t.Errorf("last step %+v, want a confirmation at 4000", last)
	}
}

// A noisy system whose capacity wavers by ±3% run to run: the answer
// stays within the resolution and the noise of the capacity.
func TestNoisySystem(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		const capacity = 4300.0
		probe := func(_ context.Context, t float64) (Verdict, error) {
			return Verdict{Pass: t <= capacity*(1+0.03*(2*rng.Float64()-1))}, nil
		}
		res, err := Search(context.Background(), Options{Start: 500}, probe)
		if err != nil {
			t.Fatal(err)
		}
		if res.Low < capacity*0.97/1.1 || res.Low > capacity*1.03 || (res.High-res.Low)/res.Low > 0.1+1e-9 {
			t.Errorf("seed %d: %v–%v for a capacity of %v ±3%%; steps %v", seed, res.Low, res.High, capacity, targets(res.Steps))
		}
	}
}

func TestProbeError(t *testing.T) {
	t.Parallel()
	stop := errors.New("stopped")
	n := 0
	res, err := Search(context.Background(), Options{Start: 100}, func(_ context.Context, t float64) (Verdict, error) {
		if n++; n == 3 {
			return Verdict{}, stop
		}
		return Verdict{Pass: true}, nil
	})
	if !errors.Is(err, stop) || res.Low != 200 || len(res.Steps) != 2 {
		t.Errorf("%+v, %v", res, err)
	}
	if _, err := Search(context.Background(), Options{Start: 100, MaxSteps: 3}, system(1e6)); !errors.Is(err, ErrSteps) {
		t.Errorf("out of steps: %v", err)
	}
}
