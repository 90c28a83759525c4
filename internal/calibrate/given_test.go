package calibrate

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestGivenApply: -p stands for a flag left out, names the null server,
// and overrides the rest; bad counts are named with what is accepted.
func TestGivenApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		g         Given
		threads   []int
		ops, recs int64
		server    string
		overrides map[string]string
		refused   string
	}{
		{name: "flags", g: Given{Threads: "1,16", Operations: "500"}, threads: []int{1, 16}, ops: 500, overrides: map[string]string{}},
		{name: "-p for the flags", g: Given{Settings: [][2]string{{"threadcount", "8"}, {"operationcount", "9"}, {"recordcount", "10"}}},
			threads: []int{8}, ops: 9, recs: 10, overrides: map[string]string{}},
		{name: "the flags win", g: Given{Threads: "2", Operations: "3", Settings: [][2]string{{"threadcount", "8"}, {"operationcount", "9"}}},
			threads: []int{2}, ops: 3, overrides: map[string]string{}},
		{name: "a server and overrides, the last -p winning", g: Given{Settings: [][2]string{{"mongodb.url", " mongodb://h:1/ "}, {"fieldcount", "3"}, {"fieldcount", "4"}}},
			server: "mongodb://h:1/", overrides: map[string]string{"fieldcount": "4"}},
		{name: "bad threads", g: Given{Threads: "1,x"}, refused: `-threads "1,x" is invalid: expected thread counts from 1 to 1048576 separated by commas`},
		{name: "no operations", g: Given{Operations: "0"}, refused: `operationcount="0" is invalid: expected a whole number > 0`},
		{name: "bad recordcount", g: Given{Settings: [][2]string{{"recordcount", "-1"}}}, refused: `recordcount="-1" is invalid`},
	} {
		var o Options
		err := tc.g.Apply(&o)
		if tc.refused != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.refused) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.refused)
			}
			continue
		}
		if err != nil || !slices.Equal(o.Threads, tc.threads) || o.Operations != tc.ops || o.RecordCount != tc.recs ||
			o.ServerURI != tc.server || !maps.Equal(o.Overrides, tc.overrides) {
			t.Errorf("%s: %+v (err %v)", tc.name, o, err)
		}
	}
}
