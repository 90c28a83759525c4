package workload

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseInt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw    string
		lo, hi int64
		want   int64
		reason string // "" when accepted
	}{
		{"42", 0, 100, 42, ""},
		{" 7 ", 0, 100, 7, ""}, // white space around, as in property files
		{"+3", 0, 100, 3, ""},
		{"9223372036854775807", 0, math.MaxInt64, math.MaxInt64, ""},
		{"9223372036854775808", 0, math.MaxInt64, 0, "too large"}, // one past int64
		{"-9223372036854775809", math.MinInt64, 0, 0, "too large"},
		{"1e3", 0, 10000, 0, "not a whole number"}, // YCSB reads counts as integers
		{"1.0", 0, 10, 0, "not a whole number"},
		{"NaN", 0, 10, 0, "not a whole number"},
		{"Inf", 0, 10, 0, "not a whole number"},
		{"", 0, 10, 0, "not a whole number"},
		{"0x10", 0, 100, 0, "not a whole number"},
		{"101", 0, 100, 0, "out of range"},
		{"-1", 0, 100, 0, "out of range"},
	}
	for _, tt := range tests {
		got, err := ParseInt(tt.raw, tt.lo, tt.hi)
		switch {
		case tt.reason == "" && (err != nil || got != tt.want):
			t.Errorf("ParseInt(%q) = %d, %v; want %d", tt.raw, got, err, tt.want)
		case tt.reason != "" && (err == nil || !errors.Is(err, ErrNumber) || !strings.HasSuffix(err.Error(), tt.reason)):
			t.Errorf("ParseInt(%q) = %d, %v; want an ErrNumber ending in %q", tt.raw, got, err, tt.reason)
		}
	}
}

func TestParseFloat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw    string
		lo, hi float64
		want   float64
		reason string
	}{
		{"0.5", 0, 1, 0.5, ""},
		{"1", 0, 1, 1, ""},
		{"0", 0, 1, 0, ""},
		{"1e-300", 0, 1, 1e-300, ""},
		{"0x1p-2", 0, 1, 0.25, ""}, // Go's hex floats are numbers too
		{"1e308", 0, math.Inf(1), 1e308, ""},
		// Non-finite values are refused whatever the bounds: an
		// unbounded range must not let +Inf through.
		{"NaN", math.Inf(-1), math.Inf(1), 0, "not a finite number"},
		{"nan", 0, 1, 0, "not a finite number"},
		{"Inf", 0, math.Inf(1), 0, "not a finite number"},
		{"+Inf", 0, math.Inf(1), 0, "not a finite number"},
		{"-Inf", math.Inf(-1), 0, 0, "not a finite number"},
		{"infinity", 0, math.Inf(1), 0, "not a finite number"},
		{"1e309", 0, math.Inf(1), 0, "out of range"}, // overflows float64
		{"-1e400", math.Inf(-1), 0, 0, "out of range"},
		{"1e-400", 0, 1, 0, ""}, // underflows to the nearest float64, 0
		{"1.5", 0, 1, 0, "out of range"},
		{"-0.1", 0, 1, 0, "out of range"},
		{"half", 0, 1, 0, "not a number"},
		{"", 0, 1, 0, "not a number"},
		{"1,5", 0, 10, 0, "not a number"},
	}
	for _, tt := range tests {
		got, err := ParseFloat(tt.raw, tt.lo, tt.hi)
		switch {
		case tt.reason == "" && (err != nil || got != tt.want):
			t.Errorf("ParseFloat(%q) = %g, %v; want %g", tt.raw, got, err, tt.want)
		case tt.reason != "" && (err == nil || !errors.Is(err, ErrNumber) || !strings.HasSuffix(err.Error(), tt.reason)):
			t.Errorf("ParseFloat(%q) = %g, %v; want an ErrNumber ending in %q", tt.raw, got, err, tt.reason)
		}
	}
}

func TestParseSeconds(t *testing.T) {
	t.Parallel()
	const hi = MaxSeconds * time.Second
	tests := []struct {
		raw  string
		want time.Duration
		ok   bool
	}{
		{"30", 30 * time.Second, true},
		{"0.25", 250 * time.Millisecond, true},
		{"250ms", 250 * time.Millisecond, true},
		{"2m", 2 * time.Minute, true},
		{"1e9", hi, true},
		{"0", 0, true},
		{"1e-12", 0, true}, // below a nanosecond: 0, which callers needing > 0 refuse
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"-Inf", 0, false},
		{"1e300", 0, false}, // would overflow time.Duration
		{"1e10", 0, false},
		{"9999999999h", 0, false}, // overflows time.ParseDuration
		{"300000h", 0, false},     // a valid Duration, but past the bound
		{"-1", 0, false},
		{"-5s", 0, false},
		{"10 parsecs", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseSeconds(tt.raw, 0, hi)
		if tt.ok != (err == nil) || got != tt.want {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v, ok %v", tt.raw, got, err, tt.want, tt.ok)
		}
	}
}

// FuzzParseNumbers checks that no input gets past the parsers as a value
// outside the range or a non-finite one.
func FuzzParseNumbers(f *testing.F) {
	for _, s := range []string{"0", "1", "-1", "NaN", "Inf", "-Inf", "1e308", "1e309", "9223372036854775808",
		"0x1p-1074", "1e-400", "30s", "1e9", "9999999999h", " 5 ", "+Inf", "infinity", "1_000", "0.5ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if n, err := ParseInt(raw, -5, 5); err == nil && (n < -5 || n > 5) {
			t.Fatalf("ParseInt(%q) = %d, outside [-5, 5]", raw, n)
		}
		if x, err := ParseFloat(raw, 0, math.Inf(1)); err == nil && (math.IsNaN(x) || math.IsInf(x, 0) || x < 0) {
			t.Fatalf("ParseFloat(%q) = %g", raw, x)
		}
		if d, err := ParseSeconds(raw, 0, MaxSeconds*time.Second); err == nil && (d < 0 || d > MaxSeconds*time.Second) {
			t.Fatalf("ParseSeconds(%q) = %v", raw, d)
		}
	})
}

// TestResolveRefusesBadNumbers sets each numeric property that Resolve
// reads to values that are no number of its range: each must be refused
// with a message naming the property and what it accepts.
func TestResolveRefusesBadNumbers(t *testing.T) {
	t.Parallel()
	numeric := []string{
		"recordcount", "operationcount", "insertstart", "insertcount", "fieldcount", "fieldlength", "minfieldlength",
		"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion", "deleteproportion",
		"hotspotdatafraction", "hotspotopnfraction", "exponential.percentile", "exponential.frac",
		"minscanlength", "maxscanlength", "zeropadding", "core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval",
		"threadcount", "target", "status.interval", "maxexecutiontime", "warmuptime", "optimeout",
	}
	bad := []string{"NaN", "Inf", "-Inf", "+Inf", "1e400", "-1e400", "9223372036854775808", "1e300", "-1", "abc"}
	for _, name := range numeric {
		for _, v := range bad {
			p := props("recordcount", "100", "operationcount", "10", name, v)
			_, _, err := Resolve(p, true)
			if err == nil {
				t.Errorf("%s=%s accepted", name, v)
				continue
			}
			if prefix := name + `="` + v + `" is invalid: expected `; !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("%s=%s: error %q does not start with %q", name, v, err, prefix)
			}
		}
	}
}

func TestResolveRanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		kv   []string
		want string // "" when accepted
	}{
		// Each within its bound, but together past what float64 holds:
		// their sum would be +Inf and every normalised proportion NaN.
		{"proportions summing past float64", []string{"readproportion", "1e308", "updateproportion", "1e308"}, `readproportion="1e308" is invalid: expected a proportion from 0 to 1000000`},
		{"largest proportions", []string{"readproportion", "1000000", "updateproportion", "1000000", "scanproportion", "1000000"}, ""},
		{"insertstart + insertcount overflows int64", []string{"insertstart", "50", "insertcount", "9223372036854775807"},
			"insertstart=50 + insertcount=9223372036854775807 is beyond recordcount=100"},
		{"insertstart near int64's end", []string{"insertstart", "9223372036854775806", "insertcount", "10"},
			"insertstart=9223372036854775806 is invalid: expected a key number below recordcount=100"},
		{"insertstart at recordcount", []string{"insertstart", "100"}, "insertstart=100 is invalid: expected a key number below recordcount=100"},
		{"insertstart leaves the rest", []string{"insertstart", "99"}, ""},
		{"tiny target", []string{"target", "1e-300"}, `target="1e-300" is invalid: expected 0 (as fast as possible) or a rate from 0.001 to 1000000000`},
		{"huge target", []string{"target", "1e10"}, `target="1e10" is invalid`},
		{"NaN percentile", []string{"hdrhistogram.percentiles", "50,NaN"}, `hdrhistogram.percentiles="50,NaN" is invalid`},
		{"Inf percentile", []string{"hdrhistogram.percentiles", "Inf"}, `hdrhistogram.percentiles="Inf" is invalid`},
		{"optimeout below a nanosecond", []string{"optimeout", "1e-12"}, `optimeout="1e-12" is invalid: expected a number of seconds > 0`},
		{"hotspot fraction above 1", []string{"hotspotdatafraction", "1.5"}, `hotspotdatafraction="1.5" is invalid: expected a fraction from 0 to 1`},
		{"exponential percentile NaN", []string{"exponential.percentile", "nan"}, `exponential.percentile="nan" is invalid: expected a percentage from 0 to 100`},
		{"warm-up as a duration", []string{"warmuptime", "1m30s"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Resolve(props(append([]string{"recordcount", "100", "operationcount", "10"}, tt.kv...)...), true)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
				t.Fatalf("error = %v, want it to start with %q", err, tt.want)
			}
		})
	}
}
