package tpcc

import (
	"strings"
	"testing"
	"time"
)

// TestResolveSettings: defaults without properties; each property read
// where it belongs; a wrong one refused naming it and what is accepted.
func TestResolveSettings(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	s, err := ResolveSettings(nil, "", none)
	if err != nil {
		t.Fatal(err)
	}
	if s.Scale.Warehouses != 1 || s.Threads != 1 || s.Duration != 60*time.Second || !s.Check || s.Options.NoTransactions || s.Database != "tpcc" || s.URL != "" {
		t.Errorf("defaults: %+v", s)
	}
	s, err = ResolveSettings([]string{"warehouses=10", "threadcount=32", "tpcc.transactions=false", "tpcc.writeconcern=majority",
		"mongodb.url=mongodb://db:27017/bench"}, "1/2", none)
	if err != nil {
		t.Fatal(err)
	}
	if s.Scale.Warehouses != 10 || s.Threads != 32 || !s.Options.NoTransactions || s.Options.WriteConcern == nil || s.Database != "bench" ||
		s.Part.Index != 1 || s.Range.First != 6 || s.Range.Last != 10 {
		t.Errorf("overrides: %+v", s)
	}
	for in, says := range map[string]string{
		"warehouse=3":             `unknown property "warehouse"`,
		"warehouses=0":            `warehouses="0" is invalid: expected a whole number from 1 to 100000`,
		"tpcc.readconcern=strong": "expected local, majority, snapshot",
		"tpcc.check=maybe":        "expected true or false",
		"mongodb.url=http://x":    "mongodb",
	} {
		if _, err := ResolveSettings([]string{in}, "", none); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want an error saying %q", in, err, says)
		}
	}
}
