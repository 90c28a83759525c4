package metrics

import (
	"bytes"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestParseServerStatus(t *testing.T) {
	t.Parallel()

	s, info, err := parseServerStatus(fixture(t, "serverstatus/mongod_a.json"))
	if err != nil {
		t.Fatal(err)
	}

	if want := (ServerInfo{Version: "7.0.12", Process: "mongod", StorageEngine: "wiredTiger"}); info != want {
		t.Errorf("info = %+v, want %+v", info, want)
	}

	if s.Host != "mongo-0:27017" {
		t.Errorf("host = %q", s.Host)
	}

	for _, c := range []struct {
		name      string
		got, want Value
	}{
		// Longs, ints and doubles all read as numbers.
		{"pid (long)", s.PID, Known(3117)},
		{"uptime (double)", s.UptimeSec, Known(3600)},
		{"connections.current (int)", s.Connections.Current, Known(17)},
		{"opcounters.insert", s.Opcounters.Insert, Known(100000)},
		{"opcounters.delete (a present zero)", s.Opcounters.Delete, Known(0)},
		{"network.numRequests", s.Network.NumRequests, Known(200000)},
		{"globalLock.currentQueue.writers", s.GlobalLock.QueueWriters, Known(0)},
		{"opLatencies.writes.latency", s.OpLatencies.Writes.LatencyMicros, Known(90000000)},
		{"cache bytes in cache", s.Cache.BytesInCache, Known(800000000)},
		{"cache max bytes", s.Cache.MaxBytes, Known(1 << 30)},
		{"cache app thread read time", s.Cache.AppPageReadMicros, Known(295000000)},
	} {
		checkValue(t, c.name, c.got, c.want)
	}
}

func TestParseServerStatusAbsentSections(t *testing.T) {
	t.Parallel()

	// A mongos of 6.0 has no storage engine, no global lock and no
	// opLatencies: all of them absent, none zero.
	s, info, err := parseServerStatus(fixture(t, "serverstatus/mongos.json"))
	if err != nil {
		t.Fatal(err)
	}

	if info.Process != "mongos" || info.StorageEngine != "" {
		t.Errorf("info = %+v", info)
	}

	if s.Cache != nil {
		t.Errorf("cache = %+v, want nil", s.Cache)
	}

	if s.OpLatencies != nil {
		t.Errorf("opLatencies = %+v, want nil", s.OpLatencies)
	}

	if s.GlobalLock != (GlobalLock{}) {
		t.Errorf("globalLock = %+v, want all absent", s.GlobalLock)
	}

	checkValue(t, "opcounters.query", s.Opcounters.Query, Known(25000000))
}

func TestParseServerStatusWrongTypes(t *testing.T) {
	t.Parallel()

	// A field of an unexpected type is absent, not zero and not an error.
	s, info, err := parseServerStatus(extJSON(t, []byte(`{
		"version": 7, "uptime": "long", "opcounters": {"insert": "many", "query": null},
		"wiredTiger": {"cache": {"bytes currently in the cache": {"$numberDecimal": "1.5"}}},
		"opLatencies": 3}`)))
	if err != nil {
		t.Fatal(err)
	}

	if info.Version != "" {
		t.Errorf("version = %q, want empty", info.Version)
	}

	checkValue(t, "uptime", s.UptimeSec, absent)
	checkValue(t, "insert", s.Opcounters.Insert, absent)
	checkValue(t, "query", s.Opcounters.Query, absent)

	if s.Cache == nil {
		t.Fatal("cache section present but not read")
	}

	checkValue(t, "bytes in cache (decimal)", s.Cache.BytesInCache, absent)

	if s.OpLatencies != nil {
		t.Errorf("opLatencies that is not a document = %+v, want nil", s.OpLatencies)
	}
}

func TestParseServerStatusMalformed(t *testing.T) {
	t.Parallel()

	good := fixture(t, "serverstatus/mongos.json")

	// A nested document whose length runs past its parent's end: the
	// driver's lookups would panic on it.
	bad := append(bson.Raw(nil), good...)
	i := bytes.Index(bad, []byte("connections\x00"))
	bad[i+len("connections\x00")] = 0xff

	for _, doc := range []bson.Raw{nil, {5, 0, 0, 0}, good[:len(good)/2], bad} {
		if _, _, err := parseServerStatus(doc); err == nil {
			t.Errorf("no error for malformed document %x", doc)
		}
	}
}

func TestServerDelta(t *testing.T) {
	t.Parallel()

	first, last := recordedRun(t)
	d := Delta(first, last)

	if d.ElapsedSec != 10 {
		t.Fatalf("elapsed = %v, want 10", d.ElapsedSec)
	}

	s := d.Server
	if s == nil || s.Error != "" || s.Restarted {
		t.Fatalf("server = %+v", s)
	}

	// Every expectation is the difference of the two recorded documents
	// over 10 s, worked out by hand.
	for _, c := range []struct {
		name      string
		got, want Value
	}{
		{"insert/s: +50000", s.Opcounters.Insert, Known(5000)},
		{"query/s: +20000", s.Opcounters.Query, Known(2000)},
		{"update/s: +5000", s.Opcounters.Update, Known(500)},
		{"delete/s: +0 is a known 0", s.Opcounters.Delete, Known(0)},
		{"getmore/s", s.Opcounters.Getmore, Known(0)},
		{"command/s: +100", s.Opcounters.Command, Known(10)},
		{"bytes in/s: +50 MiB", s.Network.BytesInPerSec, Known(5 << 20)},
		{"bytes out/s: +100 MiB", s.Network.BytesOutPerSec, Known(10 << 20)},
		{"requests/s: +75000", s.Network.RequestsPerSec, Known(7500)},
		{"connections: gauge at the end", s.Connections.Current, Known(21)},
		{"available", s.Connections.Available, Known(838839)},
		{"queued readers", s.GlobalLock.QueueReaders, Known(1)},
		{"queued writers", s.GlobalLock.QueueWriters, Known(2)},
		{"active readers", s.GlobalLock.ActiveReaders, Known(10)},
		{"active writers", s.GlobalLock.ActiveWriters, Known(6)},
		{"read mean: 7e6 µs / 20000 ops", s.OpLatencies.ReadsMeanMicros, Known(350)},
		{"write mean: 44e6 µs / 55000 ops", s.OpLatencies.WritesMeanMicros, Known(800)},
		{"command mean: 12000 µs / 100 ops", s.OpLatencies.CommandsMeanMicros, Known(120)},
		{"reads/s", s.OpLatencies.ReadsPerSec, Known(2000)},
		{"writes/s", s.OpLatencies.WritesPerSec, Known(5500)},
		{"commands/s", s.OpLatencies.CommandsPerSec, Known(10)},
		{"fill: 768 MiB of 1 GiB", s.Cache.FillRatio, Known(0.75)},
		{"hit: 1 - 12000/400000", s.Cache.HitRatio, Known(0.97)},
		{"read into cache: 200 MiB in 10 s", s.Cache.ReadIntoMBPerSec, Known(20)},
		{"written from cache: 10 MiB in 10 s", s.Cache.WrittenFromMBPerSec, Known(1)},
		{"pages read/s", s.Cache.PagesReadPerSec, Known(1200)},
		{"pages requested/s", s.Cache.PagesRequestedPerSec, Known(40000)},
		{"app thread reads/s: +11000", s.Cache.AppPageReadsPerSec, Known(1100)},
		{"app thread read mean: 5.5e6 µs / 11000", s.Cache.AppPageReadMeanMicros, Known(500)},
		{"bytes in cache", s.Cache.BytesInCache, Known(805306368)},
		{"max bytes", s.Cache.MaxBytes, Known(1 << 30)},
	} {
		checkValue(t, c.name, c.got, c.want)
	}
}

func TestServerDeltaAcrossRestart(t *testing.T) {
	t.Parallel()

	at := t0.Add(10 * time.Second)
	next := at.Add(10 * time.Second)

	// stripped hides the process identity, so that only the counters
	// themselves can tell that something went wrong.
	stripped := func(s *ServerSample) *ServerSample {
		c := *s
		c.Host, c.PID, c.UptimeSec = "", Value{}, Value{}

		return &c
	}

	tests := []struct {
		name          string
		prev, cur     *ServerSample
		wantRestarted bool
		// check looks at the figures that matter for the case.
		check func(t *testing.T, s *ServerInterval)
	}{
		{
			// Uptime and pid changed: no rate at all, even for counters
			// that happen to be higher than before; gauges stay.
			name: "restart seen by uptime and pid",
			prev: serverSample(t, "mongod_b.json"), cur: serverSample(t, "mongod_restarted.json"),
			wantRestarted: true,
			check: func(t *testing.T, s *ServerInterval) {
				if s.Opcounters != (OpRates{}) || s.Network != (NetworkRates{}) {
					t.Errorf("rates across a restart: %+v %+v", s.Opcounters, s.Network)
				}

				checkValue(t, "hit ratio", s.Cache.HitRatio, absent)
				checkValue(t, "read mean", s.OpLatencies.ReadsMeanMicros, absent)
				checkValue(t, "connections", s.Connections.Current, Known(5))
				checkValue(t, "fill ratio (gauge)", s.Cache.FillRatio, Known(0.048828125))
			},
		},
		{
			// Without identity, each counter that went backwards gives an
			// absent rate rather than a negative one.
			name: "counters went backwards",
			prev: stripped(serverSample(t, "mongod_b.json")), cur: stripped(serverSample(t, "mongod_restarted.json")),
			check: func(t *testing.T, s *ServerInterval) {
				checkValue(t, "insert", s.Opcounters.Insert, absent)
				checkValue(t, "command", s.Opcounters.Command, absent)
				// delete stayed at 0 on both sides: a known 0.
				checkValue(t, "delete", s.Opcounters.Delete, Known(0))
				checkValue(t, "bytes in", s.Network.BytesInPerSec, absent)
				checkValue(t, "hit ratio", s.Cache.HitRatio, absent)
			},
		},
		{
			name: "another mongos answered",
			prev: serverSample(t, "mongos.json"),
			cur: func() *ServerSample {
				s := serverSample(t, "mongos.json")
				s.Host = "router-2:27017"

				return s
			}(),
			wantRestarted: true,
			check: func(t *testing.T, s *ServerInterval) {
				checkValue(t, "query", s.Opcounters.Query, absent)
			},
		},
		{
			name: "first sample: gauges only",
			prev: nil, cur: serverSample(t, "mongod_a.json"),
			check: func(t *testing.T, s *ServerInterval) {
				checkValue(t, "insert", s.Opcounters.Insert, absent)
				checkValue(t, "connections", s.Connections.Current, Known(17))
				checkValue(t, "bytes in cache", s.Cache.BytesInCache, Known(800000000))
			},
		},
		{
			name: "previous sample failed",
			prev: &ServerSample{Error: "timeout"}, cur: serverSample(t, "mongod_b.json"),
			check: func(t *testing.T, s *ServerInterval) {
				checkValue(t, "insert", s.Opcounters.Insert, absent)
				checkValue(t, "connections", s.Connections.Current, Known(21))
			},
		},
		{
			name: "this sample failed",
			prev: serverSample(t, "mongod_a.json"), cur: &ServerSample{Error: "timeout"},
			check: func(t *testing.T, s *ServerInterval) {
				if s.Error != "timeout" || s.Cache != nil || s.Connections != (Connections{}) {
					t.Errorf("failed sample gave %+v", s)
				}
			},
		},
		{
			name: "no wiredTiger: cache and opLatencies absent",
			prev: serverSample(t, "mongos.json"), cur: serverSample(t, "mongos.json"),
			check: func(t *testing.T, s *ServerInterval) {
				if s.Cache != nil || s.OpLatencies != nil {
					t.Errorf("cache = %+v, opLatencies = %+v; want nil", s.Cache, s.OpLatencies)
				}

				checkValue(t, "query (no change)", s.Opcounters.Query, Known(0))
			},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			d := Delta(Snapshot{At: at, Server: tt.prev}, Snapshot{At: next, Server: tt.cur})
			if d.Server == nil {
				t.Fatal("no server figures")
			}

			if d.Server.Restarted != tt.wantRestarted {
				t.Errorf("restarted = %v, want %v", d.Server.Restarted, tt.wantRestarted)
			}

			tt.check(t, d.Server)
		})
	}
}

func TestServerDeltaHitRatioBounds(t *testing.T) {
	t.Parallel()

	cache := func(read, requested float64) *ServerSample {
		return &ServerSample{Cache: &WiredTigerCache{PagesReadInto: Known(read), PagesRequested: Known(requested)}}
	}

	tests := []struct {
		name      string
		prev, cur *ServerSample
		want      Value
	}{
		{"no page requested: undefined", cache(10, 100), cache(10, 100), absent},
		{"all from cache", cache(10, 100), cache(10, 200), Known(1)},
		{"half read from disk", cache(10, 100), cache(60, 200), Known(0.5)},
		// Eviction and prefetch read pages nobody asked for.
		{"more reads than requests: clamped to 0", cache(10, 100), cache(300, 200), Known(0)},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()

			d := Delta(Snapshot{At: t0, Server: tt.prev}, Snapshot{At: t0.Add(time.Second), Server: tt.cur})
			checkValue(t, "hit ratio", d.Server.Cache.HitRatio, tt.want)
		})
	}
}

func TestServerDeltaNoElapsedTime(t *testing.T) {
	t.Parallel()

	a, b := serverSample(t, "mongod_a.json"), serverSample(t, "mongod_b.json")

	for _, tt := range []struct {
		name          string
		prevAt, curAt time.Time
	}{
		{"same instant", t0, t0},
		{"clock went back", t0, t0.Add(-time.Second)},
		{"no time", time.Time{}, time.Time{}},
	} {
		d := Delta(Snapshot{At: tt.prevAt, Server: a}, Snapshot{At: tt.curAt, Server: b})
		checkValue(t, tt.name+": insert/s", d.Server.Opcounters.Insert, absent)
		// Ratios of deltas do not need the elapsed time.
		checkValue(t, tt.name+": hit ratio", d.Server.Cache.HitRatio, Known(0.97))
	}
}
