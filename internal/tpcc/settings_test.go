package tpcc

import (
	"strings"
	"testing"
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
	if s.Scale.Warehouses != 1 || s.Threads != 1 || s.Options.NoTransactions || s.Database != "tpcc" || s.URL != "" {
		t.Errorf("defaults: %+v", s)
	}
	s, err = ResolveSettings([]string{"warehouses=10", "threadcount=32", "tpcc.normalized=true",
		"mongodb.url=mongodb://db:27017/bench"}, "1/2", none)
	if err != nil {
		t.Fatal(err)
	}
	if s.Scale.Warehouses != 10 || s.Threads != 32 || !s.Options.Normalized || s.Database != "bench" ||
		s.Part.Index != 1 || s.Range.First != 6 || s.Range.Last != 10 {
		t.Errorf("overrides: %+v", s)
	}
	for in, says := range map[string]string{
		"warehouse=3":            `unknown property "warehouse"`,
		"warehouses=0":           `warehouses="0" is invalid: expected a whole number from 1 to 100000`,
		"tpcc.linepaths=maybe":   "expected true or false",
		"tpcc.batchwrites=false": `unknown property "tpcc.batchwrites"`,
		"mongodb.url=http://x":   "mongodb",
	} {
		if _, err := ResolveSettings([]string{in}, "", none); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want an error saying %q", in, err, says)
		}
	}
}

// TestResolvePhase: a run phase's properties through a getter; the
// defaults without them; a wrong one refused naming it.
func TestResolvePhase(t *testing.T) {
	t.Parallel()
	from := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	s, err := ResolvePhase(from(nil))
	if err != nil {
		t.Fatal(err)
	}
	if s.Scale != (Scale{Warehouses: 1, Items: DefaultItems, Customers: DefaultCustomers}) || !s.Check || s.Options.NoTransactions || !s.Options.BatchWrites || s.LoadSeed != 0 || s.LinePathsSet {
		t.Errorf("defaults: %+v", s)
	}
	s, err = ResolvePhase(from(map[string]string{"warehouses": "2", "items": "100", "customers": "10", "tpcc.loadseed": "42",
		"tpcc.transactions": "false", "tpcc.batchwrites": "false", "tpcc.check": "false", "tpcc.writeconcern": "majority", "tpcc.linepaths": "true",
		"threadcount": "7"}))
	if err != nil {
		t.Fatal(err)
	}
	if s.Scale != (Scale{Warehouses: 2, Items: 100, Customers: 10}) || s.LoadSeed != 42 || !s.Options.NoTransactions || s.Options.BatchWrites ||
		s.Check || s.Options.WriteConcern == nil || !s.LinePathsSet || !s.Options.LinePaths {
		t.Errorf("overrides: %+v", s)
	}
	for in, says := range map[string]string{
		"warehouses=0":            `warehouses="0" is invalid`,
		"items=99":                `items="99" is invalid`,
		"tpcc.readconcern=strong": "expected local, majority, snapshot",
		"tpcc.check=maybe":        "expected true or false",
		"tpcc.loadseed=-1":        "tpcc.loadseed",
	} {
		k, v, _ := strings.Cut(in, "=")
		if _, err := ResolvePhase(from(map[string]string{k: v})); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want an error saying %q", in, err, says)
		}
	}
}
