package stats

import (
	"encoding/binary"
	"math"
	"testing"
)

// floats decodes data as little-endian float64s, keeping only finite ones:
// the properties below are promised for finite input.
func floats(data []byte) []float64 {
	var xs []float64
	for len(data) >= 8 {
		x := math.Float64frombits(binary.LittleEndian.Uint64(data))
		data = data[8:]
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			xs = append(xs, x)
		}
	}
	return xs
}

func encode(xs ...float64) []byte {
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func isNaN(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}

func FuzzWelch(f *testing.F) {
	f.Add(encode(a1...), encode(b1...), 0.05)
	f.Add(encode(5, 5, 5), encode(5, 5), 0.01)
	f.Add(encode(1e-300, 2e-300), encode(1e300, -1e300, 0), 0.5)
	f.Add(encode(math.MaxFloat64, -math.MaxFloat64), encode(4.9e-324, 0), 0.05)
	f.Add(encode(1), encode(), 0.05)
	f.Fuzz(func(t *testing.T, da, db []byte, alpha float64) {
		a, b := floats(da), floats(db)
		r := Welch(a, b)
		if isNaN(r.P) || r.P < 0 || r.P > 1 {
			t.Fatalf("Welch(%v, %v).P = %g", a, b, r.P)
		}
		if isNaN(r.T, r.DF, r.StdErr, r.RelDiff, r.A.Mean, r.B.Mean, r.A.StdDev, r.B.StdDev, r.CI.Lo, r.CI.Hi) {
			t.Fatalf("Welch(%v, %v) has a NaN: %+v", a, b, r)
		}
		if r.OK != (len(a) >= 2 && len(b) >= 2) {
			t.Fatalf("Welch(%v, %v).OK = %v", a, b, r.OK)
		}
		if r.OK && (r.DF < 1 || r.CI.Lo > r.CI.Hi) {
			t.Fatalf("Welch(%v, %v): DF = %g, CI = [%g, %g]", a, b, r.DF, r.CI.Lo, r.CI.Hi)
		}
		v := Verdict(a, b, alpha, alpha > 0.5)
		if isNaN(v.P, v.RelDiff, v.CI.Lo, v.CI.Hi) || v.String() == "" {
			t.Fatalf("Verdict(%v, %v, %g) = %+v", a, b, alpha, v)
		}
		if (v.Kind == Better || v.Kind == Worse) && !(v.P < v.Alpha) {
			t.Fatalf("Verdict(%v, %v, %g): %v with p = %g", a, b, alpha, v.Kind, v.P)
		}
	})
}

func FuzzMeanCI(f *testing.F) {
	f.Add(encode(a1...), 0.95)
	f.Add(encode(0.1, 0.1, 0.1), 0.99)
	f.Add(encode(math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64), 1e-300)
	f.Add(encode(4.9e-324, 0), 0.999999999)
	f.Fuzz(func(t *testing.T, data []byte, level float64) {
		xs := floats(data)
		iv := MeanCI(xs, level)
		if isNaN(iv.Mean, iv.Lo, iv.Hi, iv.StdErr, iv.DF) {
			t.Fatalf("MeanCI(%v, %g) has a NaN: %+v", xs, level, iv)
		}
		if iv.OK != (len(xs) >= 2 && level > 0 && level < 1) {
			t.Fatalf("MeanCI(%v, %g).OK = %v", xs, level, iv.OK)
		}
		if !(iv.Lo <= iv.Mean && iv.Mean <= iv.Hi) {
			t.Fatalf("MeanCI(%v, %g) = %+v: mean outside the interval", xs, level, iv)
		}
		if len(xs) > 0 && !math.IsInf(iv.Mean, 0) {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, x := range xs {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			if iv.Mean < lo || iv.Mean > hi {
				t.Fatalf("MeanCI(%v, %g).Mean = %g outside [%g, %g]", xs, level, iv.Mean, lo, hi)
			}
		}
	})
}

func FuzzKnee(f *testing.F) {
	f.Add(encode(1, 1000, 900, 2, 1950, 950, 4, 3800, 1000, 8, 7200, 1200, 16, 7400, 2600), 0.05, 0.2)
	f.Add(encode(1, 1, 1, 2, 1, 1), 0.0, 0.0)
	f.Add(encode(1, math.MaxFloat64, 4.9e-324, 2, 4.9e-324, math.MaxFloat64), -1.0, 1e300)
	f.Fuzz(func(t *testing.T, data []byte, gain, growth float64) {
		xs := floats(data)
		var pts []Point
		for i := 0; i+2 < len(xs); i += 3 {
			// Each point's trials scatter around its figures, so that the
			// tests behind Knee run on the fuzzed values.
			pts = append(pts, Point{X: xs[i], Throughput: xs[i+1], P99: xs[i+2],
				ThroughputTrials: []float64{xs[i+1] * 0.99, xs[i+1] * 1.01}, P99Trials: []float64{xs[i+2] * 0.98, xs[i+2] * 1.02}})
		}
		opts := KneeOptions{MinThroughputGain: gain, MinLatencyGrowth: growth, MaxX: 64}
		r := Knee(pts, opts)
		if r.Found {
			if r.Index < 0 || r.Index+1 >= len(pts) || r.Summary == "" || r.NoKneeReason != "" {
				t.Fatalf("Knee(%v) = %+v", pts, r)
			}
			if r.HasFrom && r.From.X >= r.Knee.X {
				t.Fatalf("Knee(%v) lies from %g to %g", pts, r.From.X, r.Knee.X)
			}
			if isNaN(r.LatencyFactor, r.ThroughputGain, r.LatencyP) {
				t.Fatalf("Knee(%v) has a NaN: %+v", pts, r)
			}
		} else if r.Index != -1 || r.NoKneeReason == "" {
			t.Fatalf("Knee(%v) = %+v", pts, r)
		}
		next, done := NextAutoStep(pts, opts)
		if done != (next == 0) || isNaN(next) || next > 64 {
			t.Fatalf("NextAutoStep(%v) = %g, %v", pts, next, done)
		}
	})
}
