package lean

import (
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo/address"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
)

// TestSelector: a replica set's writes and primary reads go to its
// primary; mongoses within the latency window of the nearest are all
// candidates; a direct connection takes its one server.
func TestSelector(t *testing.T) {
	srv := func(name string, kind description.ServerKind, rttMs int) description.Server {
		return description.Server{Addr: address.Address(name), Kind: kind, AverageRTT: time.Duration(rttMs) * time.Millisecond}
	}
	sel := selector{threshold: 15 * time.Millisecond}
	tests := []struct {
		name  string
		kind  description.TopologyKind
		cands []description.Server
		want  []string
	}{
		{"replica set", description.TopologyKindReplicaSetWithPrimary,
			[]description.Server{srv("a", description.ServerKindRSSecondary, 1), srv("b", description.ServerKindRSPrimary, 5), srv("c", description.ServerKindRSArbiter, 1)}, []string{"b"}},
		{"replica set without a primary", description.TopologyKindReplicaSetNoPrimary,
			[]description.Server{srv("a", description.ServerKindRSSecondary, 1)}, nil},
		{"mongoses", description.TopologyKindSharded,
			[]description.Server{srv("a", description.ServerKindMongos, 2), srv("b", description.ServerKindMongos, 16), srv("c", description.ServerKindMongos, 40)}, []string{"a", "b"}},
		{"direct", description.TopologyKindSingle,
			[]description.Server{srv("a", description.ServerKindRSSecondary, 3)}, []string{"a"}},
	}
	for _, tc := range tests {
		got, err := sel.SelectServer(description.Topology{Kind: tc.kind, Servers: tc.cands}, tc.cands)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range got {
			names = append(names, string(s.Addr))
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: selected %v, want %v", tc.name, names, tc.want)
		}
	}
}

// TestSameChoice: a heartbeat that only moves round-trip times keeps the
// workers' connections; a failover, a server added or gone, or another
// kind of topology makes them choose again.
func TestSameChoice(t *testing.T) {
	srv := func(name string, kind description.ServerKind, rttMs int) description.Server {
		return description.Server{Addr: address.Address(name), Kind: kind, AverageRTT: time.Duration(rttMs) * time.Millisecond}
	}
	rs := func(servers ...description.Server) description.Topology {
		return description.Topology{Kind: description.TopologyKindReplicaSetWithPrimary, Servers: servers}
	}
	p, s := description.ServerKindRSPrimary, description.ServerKindRSSecondary
	base := rs(srv("a", p, 1), srv("b", s, 2))
	tests := []struct {
		name string
		next description.Topology
		want bool
	}{
		{"same", rs(srv("a", p, 1), srv("b", s, 2)), true},
		{"round-trip times moved", rs(srv("a", p, 9), srv("b", s, 7)), true},
		{"other order", rs(srv("b", s, 2), srv("a", p, 1)), true},
		{"failover", rs(srv("a", s, 1), srv("b", p, 2)), false},
		{"primary unknown (kind 0)", rs(srv("a", 0, 1), srv("b", s, 2)), false},
		{"server added", rs(srv("a", p, 1), srv("b", s, 2), srv("c", s, 2)), false},
		{"server gone", rs(srv("a", p, 1)), false},
		{"server replaced", rs(srv("a", p, 1), srv("c", s, 2)), false},
		{"topology kind", description.Topology{Kind: description.TopologyKindReplicaSetNoPrimary, Servers: base.Servers}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameChoice(base, tt.next); got != tt.want {
				t.Errorf("sameChoice = %v, want %v", got, tt.want)
			}
		})
	}
}
