package sweep

import (
	"slices"
	"strings"
	"testing"
)

// TestParseVary checks --vary's syntax, row by row.
func TestParseVary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		name    string
		values  []string
		auto    bool
		unknown []string // left for the native workload's parameters
		wantErr string
	}{
		{in: "threadcount=1,2,4", name: "threadcount", values: []string{"1", "2", "4"}},
		// Spaces around values are the shell's leftovers, not values.
		{in: "target= 100 , 200", name: "target", values: []string{"100", "200"}},
		// Flag names stand for their properties.
		{in: "threads=8", name: "threadcount", values: []string{"8"}},
		{in: "-threads=8", name: "threadcount", values: []string{"8"}},
		{in: "threadcount=auto", name: "threadcount", auto: true},
		// A URL holds '=': only the first one splits.
		{in: "mongodb.url=mongodb://h/db?w=1", name: "mongodb.url", values: []string{"mongodb://h/db?w=1"}},
		{in: "threadcount", wantErr: "expected --vary NAME=V1,V2,..."},
		{in: "=1,2", wantErr: "expected --vary NAME=V1,V2,..."},
		{in: "threadcount=", wantErr: "no values"},
		{in: "threadcount=1,", wantErr: "value 2 is empty"},
		{in: "threadcount=1,1", wantErr: "value 1 is given twice"},
		{in: "recordcount=auto", wantErr: "auto is only for threadcount"},
		{in: "threadcount=auto,8", wantErr: "auto stands alone"},
		// A name that is no property may be a native workload's
		// parameter: planning decides (TestNativeVaryUnknown).
		{in: "nosuch=1", name: "nosuch", values: []string{"1"}, unknown: []string{"nosuch"}},
		{in: "exportfile=a,b", wantErr: "the sweep sets exportfile"},
		// Linked properties: one dimension, each value giving both theirs.
		{in: "readproportion,insertproportion=0.95:0.05, 0.9 : 0.1", name: "readproportion", values: []string{"0.95:0.05", "0.9:0.1"}},
		{in: "readproportion,insertproportion=0.95:0.05,0.9", wantErr: "value 2 (0.9) is not 2 values joined by : (readproportion:insertproportion)"},
		{in: "readproportion,insertproportion=0.95:0.05,0.95:0.05", wantErr: "value 0.95:0.05 is given twice"},
		{in: "readproportion,insertproportion=", wantErr: "no values"},
		{in: "readproportion,nosuch=1:2", name: "readproportion", values: []string{"1:2"}, unknown: []string{"nosuch"}},
		{in: "readproportion,readproportion=1:1", wantErr: "readproportion is named twice"},
		{in: "threadcount,mongodb.url=1:x", wantErr: "mongodb.url cannot be linked"},
		{in: "threads,target=auto:1", wantErr: "auto stands alone"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			d, err := ParseVary(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != tc.name || d.Auto != tc.auto || !slices.Equal(d.Values, tc.values) || !slices.Equal(d.Unknown, tc.unknown) {
				t.Errorf("got %+v, want name %s values %v auto %t unknown %v", d, tc.name, tc.values, tc.auto, tc.unknown)
			}
		})
	}
}

// FuzzParseVary: any input gives a dimension or an error, never a panic,
// and a dimension always has a name (a property, or one listed as
// unknown) and non-empty distinct values.
func FuzzParseVary(f *testing.F) {
	for _, s := range []string{"threadcount=1,2,4", "threads=auto", "target=,", "=", "a=b=c", "recordcount=1,,2", "mongodb.url=x,y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseVary(s)
		if err != nil {
			return
		}
		if d.Name == "" || (!d.Auto && len(d.Values) == 0) || (d.Auto && d.Name != "threadcount") {
			t.Fatalf("%q gave %+v", s, d)
		}
		for i, v := range d.Values {
			if v == "" || slices.Contains(d.Values[:i], v) {
				t.Fatalf("%q gave values %q", s, d.Values)
			}
		}
	})
}
