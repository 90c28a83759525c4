package tpcc

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/partition"
)

func TestLastName(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "BARBARBAR"}, {371, "PRICALLYOUGHT"}, {999, "EINGEINGEING"}, {40, "BARPRESBAR"},
	} {
		if got := LastName(tc.n); got != tc.want {
			t.Errorf("LastName(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestRunConstants(t *testing.T) {
	for seed := range uint64(200) {
		load := LoadConstants(seed)
		run := RunConstants(load, seed+1000)
		d := run.CLast - load.CLast
		if d < 0 {
			d = -d
		}
		if d < 65 || d > 119 || d == 96 || d == 112 {
			t.Fatalf("seed %d: C_LAST load %d, run %d: distance %d breaks clause 2.1.6.1", seed, load.CLast, run.CLast, d)
		}
		if load.CLast > 255 || load.CID > 1023 || load.COLIID > 8191 || load.CLast < 0 {
			t.Fatalf("seed %d: constants %+v out of range", seed, load)
		}
	}
}

func TestNURandRange(t *testing.T) {
	r := NewRand(NURandC{CLast: 200, CID: 1000, COLIID: 8000}, 1)
	for range 100000 {
		if v := r.NURand(1023, 1, 3000); v < 1 || v > 3000 {
			t.Fatalf("NURand(1023, 1, 3000) = %d", v)
		}
		if v := r.NURand(8191, 1, 100000); v < 1 || v > 100000 {
			t.Fatalf("NURand(8191, 1, 100000) = %d", v)
		}
		if v := r.NumberExcluding(1, 4, 2); v == 2 || v < 1 || v > 4 {
			t.Fatalf("NumberExcluding(1, 4, 2) = %d", v)
		}
	}
}

// TestGeneratorDeterministic: every row is a function of the seed and its
// keys, whatever else was generated before it or in which process.
func TestGeneratorDeterministic(t *testing.T) {
	s := Scale{Warehouses: 3, Items: 500, Customers: 30}
	a, b := newGenerator(s, 5), newGenerator(s, 5)
	// b generates other rows first: nothing carries over.
	b.warehouse(1)
	b.customer(3, 2, 1, false)
	other := newGenerator(s, 6)
	for _, tc := range []struct {
		name string
		gen  func(g *generator) any
	}{
		{"item", func(g *generator) any { return g.item(17, true) }},
		{"warehouse", func(g *generator) any { return g.warehouse(2) }},
		{"district", func(g *generator) any { return g.district(2, 4) }},
		{"customer", func(g *generator) any { return g.customer(2, 4, 11, g.badCredit(2, 4)[11]) }},
		{"history", func(g *generator) any { return g.history(2, 4, 11) }},
		{"order", func(g *generator) any { o, _ := g.order(2, 4, 29, g.orderCustomers(2, 4)[28], false); return o }},
		{"order lines", func(g *generator) any { _, l := g.order(2, 4, 29, 1, true); return l }},
		{"stock", func(g *generator) any { return g.stock(3, 77, g.originals(3)[77]) }},
	} {
		x, y := tc.gen(a), tc.gen(b)
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s differs between two generators of the same seed:\n%v\n%v", tc.name, x, y)
		}
		if reflect.DeepEqual(x, tc.gen(other)) {
			t.Errorf("%s is the same at another seed", tc.name)
		}
	}
}

func TestInitialShares(t *testing.T) {
	g := newGenerator(Scale{Warehouses: 1, Items: 1000, Customers: 3000}, 9)
	count := func(b []bool) int {
		n := 0
		for _, x := range b {
			if x {
				n++
			}
		}
		return n
	}
	if n := count(g.badCredit(1, 1)); n != 300 {
		t.Errorf("%d of 3000 customers have bad credit, want 300", n)
	}
	if n := count(g.itemOriginals()); n != 100 {
		t.Errorf("%d of 1000 items are ORIGINAL, want 100", n)
	}
	if n := (Scale{Warehouses: 1, Items: DefaultItems, Customers: DefaultCustomers}).NewOrdersPerDistrict(); n != 900 {
		t.Errorf("%d new orders per district, want 900", n)
	}
	seen := map[int]bool{}
	for _, c := range g.orderCustomers(1, 1) {
		seen[c] = true
	}
	if len(seen) != 3000 {
		t.Errorf("the initial orders were placed by %d distinct customers, want 3000", len(seen))
	}
}

func TestPartRange(t *testing.T) {
	for _, tc := range []struct {
		warehouses, parts int
		want              []WarehouseRange
	}{
		{10, 1, []WarehouseRange{{1, 10}}},
		{10, 3, []WarehouseRange{{1, 4}, {5, 7}, {8, 10}}},
		{4, 4, []WarehouseRange{{1, 1}, {2, 2}, {3, 3}, {4, 4}}},
	} {
		var got []WarehouseRange
		for i := range tc.parts {
			r, err := PartRange(partition.Part{Index: i, Count: tc.parts}, tc.warehouses)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d warehouses over %d parts: %v, want %v", tc.warehouses, tc.parts, got, tc.want)
		}
	}
	if _, err := PartRange(partition.Part{Index: 2, Count: 3}, 2); err == nil {
		t.Error("2 warehouses over 3 parts: no error")
	}
}

// TestMix draws many transactions from one terminal: the shares are the
// standard mix's, and 1% of NewOrders carry an unused item.
func TestMix(t *testing.T) {
	s := Scale{Warehouses: 4, Items: 1000, Customers: 3000}
	term := NewTerminal(s, WarehouseRange{2, 3}, 1, 2, 0, func() time.Time { return LoadDate })
	const n = 200000
	var counts [NumTypes]int
	rollbacks, remote, orders := 0, 0, 0
	for range n {
		typ := term.Next()
		counts[typ]++
		if typ == NewOrder {
			p := term.NewOrder()
			orders++
			if p.W < 2 || p.W > 3 {
				t.Fatalf("NewOrder of warehouse %d, outside 2-3", p.W)
			}
			if len(p.Items) < 5 || len(p.Items) > 15 {
				t.Fatalf("NewOrder of %d lines", len(p.Items))
			}
			if p.Items[len(p.Items)-1] > s.Items {
				rollbacks++
			}
			for _, w := range p.SupplyW {
				if w != p.W {
					remote++
				}
			}
		}
	}
	want := [NumTypes]float64{0.45, 0.43, 0.04, 0.04, 0.04}
	for typ, c := range counts {
		if share := float64(c) / n; math.Abs(share-want[typ]) > 0.005 {
			t.Errorf("%v: %.4f of transactions, want %.2f", Type(typ), share, want[typ])
		}
	}
	if share := float64(rollbacks) / float64(orders); math.Abs(share-0.01) > 0.002 {
		t.Errorf("%.4f of NewOrders roll back, want 0.01", share)
	}
	if share := float64(remote) / float64(orders*10); math.Abs(share-0.01) > 0.002 {
		t.Errorf("%.4f of order lines remote, want about 0.01", share)
	}
}
