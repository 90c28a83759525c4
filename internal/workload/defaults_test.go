package workload

import (
	"testing"
	"time"
)

// TestDefaultsParse resolves properties that set nothing but what is
// required: every reader then takes its default from KnownProperties, and
// one that the table lacks or cannot parse panics here rather than in a
// user's run. The figures are checked against the table, so that the
// reference's defaults are the ones that run.
func TestDefaultsParse(t *testing.T) {
	t.Parallel()
	for _, transactions := range []bool{false, true} {
		p := NewProperties()
		p.Set("recordcount", "1000", "-p")
		p.Set("operationcount", "10", "-p")
		s, _, err := Resolve(p, transactions)
		if err != nil {
			t.Fatalf("transactions %v: %v", transactions, err)
		}
		for name, got := range map[string]any{
			"table": s.Table, "fieldcount": s.FieldCount, "fieldlength": s.FieldLength, "requestdistribution": s.RequestDistribution,
			"readallfields": s.ReadAllFields, "maxscanlength": s.MaxScanLength, "zeropadding": s.ZeroPadding, "threadcount": s.Threads,
			"status.interval": s.StatusInterval, "optimeout": s.OpTimeout, "core_workload_insertion_retry_interval": s.InsertionRetryInterval,
			"exponential.frac": s.ExponentialFrac, "hotspotopnfraction": s.HotspotOpnFraction,
		} {
			if want := defaultAs(t, name, got); got != want {
				t.Errorf("%s: resolved %v, the table's default is %v", name, got, want)
			}
		}
		if s.Proportions != [NumTransactionTypes]float64{0.95, 0.05, 0, 0, 0, 0} {
			t.Errorf("proportions %v, want the table's 0.95 read and 0.05 update", s.Proportions)
		}
		if len(s.Percentiles) != 3 || s.Percentiles[0] != 50 || s.Percentiles[2] != 99 {
			t.Errorf("percentiles %v, want the table's 50,95,99", s.Percentiles)
		}
	}
}

// defaultAs parses name's default in the table as the type of like.
func defaultAs(t *testing.T, name string, like any) any {
	t.Helper()
	def := knownByName[name].Default
	switch like.(type) {
	case string:
		return def
	case bool:
		return def == "true"
	case int:
		n, err := ParseInt(def, 0, 1<<62)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	case int64:
		n, err := ParseInt(def, 0, 1<<62)
		if err != nil {
			t.Fatal(err)
		}
		return n
	case float64:
		f, err := ParseFloat(def, 0, 1e18)
		if err != nil {
			t.Fatal(err)
		}
		return f
	case time.Duration:
		d, err := ParseSeconds(def, 0, MaxSeconds*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	t.Fatalf("%s: no parser for %T", name, like)
	return nil
}

// TestUnlistedPropertyPanics: a reader of a property the table lacks is
// a mistake the tests must see at once.
func TestUnlistedPropertyPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("reading a property KnownProperties lacks did not panic")
		}
	}()
	r := resolver{p: NewProperties()}
	r.str("no.such.property")
}
