package metrics

import (
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestValueJSON(t *testing.T) {
	t.Parallel()

	type holder struct {
		A Value `json:"a,omitzero"`
		B Value `json:"b"`
	}

	tests := []struct {
		name string
		in   holder
		want string
	}{
		{"absent is left out or null", holder{}, `{"b":null}`},
		{"a present zero is written", holder{A: Known(0), B: Known(0)}, `{"a":0,"b":0}`},
		{"numbers", holder{A: Known(0.987), B: Known(-2.5e9)}, `{"a":0.987,"b":-2500000000}`},
		{"NaN is no measurement", holder{A: Known(math.NaN()), B: Value{V: math.Inf(1), OK: true}}, `{"b":null}`},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			b, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}

			if string(b) != tt.want {
				t.Errorf("got %s, want %s", b, tt.want)
			}
		})
	}
}

func TestValueUnmarshalJSON(t *testing.T) {
	t.Parallel()

	tests := []struct {
		in      string
		want    Value
		wantErr bool
	}{
		{"null", absent, false},
		{" null ", absent, false},
		{"0", Known(0), false},
		{"12.5", Known(12.5), false},
		{`"12"`, absent, true},
		{"{}", absent, true},
	}

	for _, tt := range tests {
		var v Value

		err := v.UnmarshalJSON([]byte(tt.in))
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v, want error %v", tt.in, err, tt.wantErr)
		}

		if err == nil && v != tt.want {
			t.Errorf("%s: got %v, want %v", tt.in, v, tt.want)
		}
	}
}

func TestRateAndRatio(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name string
		got  Value
		want Value
	}{
		{"rate", rate(Known(100), Known(150), 10), Known(5)},
		{"rate of an unchanged counter is 0", rate(Known(100), Known(100), 10), Known(0)},
		{"counter reset", rate(Known(100), Known(5), 10), absent},
		{"no time", rate(Known(100), Known(150), 0), absent},
		{"absent before", rate(absent, Known(150), 10), absent},
		{"absent after", rate(Known(100), absent, 10), absent},
		{"ratio", ratio(Known(3), Known(4)), Known(0.75)},
		{"ratio over 0", ratio(Known(3), Known(0)), absent},
		{"clamp high", clamp01(Known(1.5)), Known(1)},
		{"clamp low", clamp01(Known(-0.5)), Known(0)},
		{"clamp absent", clamp01(absent), absent},
	}

	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestSnapshotJSONRoundTrip checks that snapshots survive the results file:
// SummaryLines is run again from what was written.
func TestSnapshotJSONRoundTrip(t *testing.T) {
	t.Parallel()

	first, last := recordedRun(t)

	for _, s := range []Snapshot{first, last} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}

		var back Snapshot
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}

		if !back.At.Equal(s.At) {
			t.Errorf("at = %v, want %v", back.At, s.At)
		}

		back.At = s.At
		if !reflect.DeepEqual(back, s) {
			t.Errorf("round trip changed the snapshot:\n got %+v\nwant %+v", back, s)
		}
	}
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// jsonKeys collects every object key of a JSON document.
func jsonKeys(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			into[k] = true
			jsonKeys(e, into)
		}
	case []any:
		for _, e := range x {
			jsonKeys(e, into)
		}
	}
}

func TestIntervalJSON(t *testing.T) {
	t.Parallel()

	first, last := recordedRun(t)

	mongos := serverSample(t, "mongos.json")
	noWT := Delta(Snapshot{At: t0, Server: mongos}, Snapshot{At: t0.Add(10e9), Server: mongos})

	tests := []struct {
		name   string
		in     any
		has    []string
		hasNot []string
	}{
		{
			name: "mongod and host",
			in:   Delta(first, last),
			has:  []string{"hit_ratio", "fill_ratio", "r_await_ms", "util_pct", "user_pct", "cpu_cores", "reads_mean_us"},
		},
		{
			// Absent sections and figures are left out, never written as 0.
			name:   "server without WiredTiger or opLatencies",
			in:     noWT,
			has:    []string{"opcounters_per_s", "query"},
			hasNot: []string{"wiredtiger_cache", "op_latencies", "hit_ratio", "global_lock", "host"},
		},
		{
			name:   "failed sample",
			in:     Delta(first, Snapshot{At: t0.Add(10e9), Server: &ServerSample{Error: "timeout"}}),
			has:    []string{"error"},
			hasNot: []string{"opcounters_per_s", "connections"},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			b, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}

			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}

			keys := map[string]bool{}
			jsonKeys(doc, keys)

			for k := range keys {
				if !snakeCase.MatchString(k) {
					t.Errorf("key %q is not snake_case", k)
				}
			}

			for _, k := range tt.has {
				if !keys[k] {
					t.Errorf("no %q in %s", k, b)
				}
			}

			for _, k := range tt.hasNot {
				if keys[k] {
					t.Errorf("%q present in %s", k, b)
				}
			}

			if strings.Contains(string(b), "NaN") {
				t.Errorf("NaN in %s", b)
			}
		})
	}
}
