package metrics

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests in this file derive figures from documents recorded on real
// servers and a real disk (see testdata/README.md for where each comes
// from). Every expectation is worked out by hand from the fixture's numbers,
// independently of the code under test.

// TestParseRecordedMongod reads a real mongod 4.2.8 reply: the figures the
// code reads come out as recorded, whatever their BSON type.
func TestParseRecordedMongod(t *testing.T) {
	t.Parallel()

	s := serverSample(t, "mongod_4.2.8_recorded.json")

	if want := (ServerInfo{Version: "4.2.8", Process: "mongod", StorageEngine: "wiredTiger"}); *s.Info != want {
		t.Errorf("info = %+v, want %+v", *s.Info, want)
	}

	if s.Cache == nil || s.OpLatencies == nil {
		t.Fatalf("cache %+v, opLatencies %+v: want both", s.Cache, s.OpLatencies)
	}

	for _, c := range []struct {
		name      string
		got, want Value
	}{
		{"pid", s.PID, Known(1)},
		{"uptime", s.UptimeSec, Known(9137)},
		{"connections.current (int)", s.Connections.Current, Known(22)},
		{"opcounters.getmore (int)", s.Opcounters.Getmore, Known(19527)},
		{"network.bytesOut (long)", s.Network.BytesOut, Known(154125577)},
		{"opLatencies.commands.latency", s.OpLatencies.Commands.LatencyMicros, Known(49938635)},
		{"cache: bytes in cache", s.Cache.BytesInCache, Known(4148341)},
		{"cache: maximum bytes (15.1 GiB)", s.Cache.MaxBytes, Known(16241393664)},
		// Nothing was ever read from disk: a present 0, not absent.
		{"cache: bytes read into cache", s.Cache.BytesReadInto, Known(0)},
		{"cache: pages requested", s.Cache.PagesRequested, Known(182936)},
	} {
		checkValue(t, c.name, c.got, c.want)
	}

	// The first sample of a run shows only the gauges; the fill ratio is
	// one: 4148341 / 16241393664.
	d := Delta(Snapshot{}, Snapshot{At: t0, Server: s})
	checkValue(t, "fill ratio of the first sample", d.Server.Cache.FillRatio, Known(4148341.0/16241393664))
	checkValue(t, "hit ratio of the first sample", d.Server.Cache.HitRatio, absent)
}

// TestServerDeltaRecordedMongod derives one 10 s interval from the recorded
// mongod and the same document with its counters advanced (see
// testdata/README.md: the second document is made, not recorded).
func TestServerDeltaRecordedMongod(t *testing.T) {
	t.Parallel()

	first := Snapshot{At: t0, Server: serverSample(t, "mongod_4.2.8_recorded.json")}
	last := Snapshot{At: t0.Add(10 * time.Second), Server: serverSample(t, "mongod_4.2.8_advanced.json")}
	last.Server.Info = nil

	s := Delta(first, last).Server
	if s == nil || s.Error != "" || s.Restarted || s.Cache == nil || s.OpLatencies == nil {
		t.Fatalf("server interval = %+v", s)
	}

	// Differences of the two documents, over 10 s:
	//   opcounters: query 24584−6132 = 18452, update 19950−1559 = 18391,
	//     getmore 19539−19527 = 12, command 44386−44255 = 131, insert and
	//     delete unchanged;
	//   network: in 42428111−32556669 = 9871442 B, out 222329914−154125577
	//     = 68204337 B, requests 100345−63334 = 37011;
	//   opLatencies: reads +5901184 µs / +18464 ops, writes +7135708 µs /
	//     +18391 ops, commands +98250 µs / +131 ops;
	//   cache: pages read 17920−0, pages requested 595616−182936 = 412680,
	//     bytes read 587202560−0 (560 MiB), bytes written
	//     40765593−28182681 = 12582912 (12 MiB), application-thread reads
	//     +17366 taking +6252416 µs.
	// MB is 2^20 bytes, as iostat's rMB/s (bytesPerMB).
	for _, c := range []struct {
		name      string
		got, want Value
	}{
		{"insert/s: no change is a known 0", s.Opcounters.Insert, Known(0)},
		{"query/s: 18452 / 10", s.Opcounters.Query, Known(1845.2)},
		{"update/s: 18391 / 10", s.Opcounters.Update, Known(1839.1)},
		{"delete/s", s.Opcounters.Delete, Known(0)},
		{"getmore/s: 12 / 10", s.Opcounters.Getmore, Known(1.2)},
		{"command/s: 131 / 10", s.Opcounters.Command, Known(13.1)},
		{"bytes in/s: 9871442 / 10", s.Network.BytesInPerSec, Known(987144.2)},
		{"bytes out/s: 68204337 / 10", s.Network.BytesOutPerSec, Known(6820433.7)},
		{"requests/s: 37011 / 10", s.Network.RequestsPerSec, Known(3701.1)},
		{"read mean: 5901184 / 18464 ≈ 319.6 µs", s.OpLatencies.ReadsMeanMicros, Known(5901184.0 / 18464)},
		{"write mean: 7135708 / 18391 = 388 µs", s.OpLatencies.WritesMeanMicros, Known(388)},
		{"command mean: 98250 / 131 = 750 µs", s.OpLatencies.CommandsMeanMicros, Known(750)},
		{"reads/s: 18464 / 10", s.OpLatencies.ReadsPerSec, Known(1846.4)},
		{"writes/s: 18391 / 10", s.OpLatencies.WritesPerSec, Known(1839.1)},
		{"commands/s: 131 / 10", s.OpLatencies.CommandsPerSec, Known(13.1)},
		{"connections: the end's gauge", s.Connections.Current, Known(86)},
		{"available", s.Connections.Available, Known(838774)},
		{"queued readers", s.GlobalLock.QueueReaders, Known(3)},
		{"queued writers", s.GlobalLock.QueueWriters, Known(1)},
		{"active readers", s.GlobalLock.ActiveReaders, Known(12)},
		{"active writers", s.GlobalLock.ActiveWriters, Known(9)},
		{"fill: 612354221 / 16241393664 ≈ 0.0377", s.Cache.FillRatio, Known(612354221.0 / 16241393664)},
		{"hit: 1 − 17920 / 412680 ≈ 0.9566", s.Cache.HitRatio, Known(1 - 17920.0/412680)},
		{"read into cache: 560 MiB / 10 s = 56 MB/s", s.Cache.ReadIntoMBPerSec, Known(56)},
		{"written from cache: 12 MiB / 10 s = 1.2 MB/s", s.Cache.WrittenFromMBPerSec, Known(1.2)},
		{"pages read/s: 17920 / 10", s.Cache.PagesReadPerSec, Known(1792)},
		{"pages requested/s: 412680 / 10", s.Cache.PagesRequestedPerSec, Known(41268)},
		{"application-thread reads/s: 17366 / 10", s.Cache.AppPageReadsPerSec, Known(1736.6)},
		{"application-thread read mean: 6252416 / 17366 ≈ 360 µs", s.Cache.AppPageReadMeanMicros, Known(6252416.0 / 17366)},
		{"bytes in cache: the end's gauge", s.Cache.BytesInCache, Known(612354221)},
		{"max bytes", s.Cache.MaxBytes, Known(16241393664)},
	} {
		checkValue(t, c.name, c.got, c.want)
	}
}

// TestRecordedServersWithoutWiredTiger reads a real mongos and a real
// FerretDB: what they do not report is absent in the sample, in the interval,
// in its JSON and in the summary, never 0.
func TestRecordedServersWithoutWiredTiger(t *testing.T) {
	t.Parallel()

	tests := []struct {
		file string
		// present are figures the server does report, checked so that
		// "everything absent" cannot pass on a document that was not read.
		present func(t *testing.T, s *ServerSample, d *ServerInterval)
		// absentKeys must not appear in the interval's JSON.
		absentKeys []string
		// summary lines the run's summary must carry.
		summary []string
	}{
		{
			// A mongos routes operations: opcounters, network and
			// connections are its own; it has no storage engine,
			// opLatencies or global lock.
			file: "mongos_6.0.3_recorded.json",
			present: func(t *testing.T, s *ServerSample, d *ServerInterval) {
				checkValue(t, "query", s.Opcounters.Query, Known(10))
				checkValue(t, "command", s.Opcounters.Command, Known(227283))
				checkValue(t, "bytes in", s.Network.BytesIn, Known(57943348))
				checkValue(t, "connections", d.Connections.Current, Known(18))
				// The second document repeats the first: known zero rates.
				checkValue(t, "query/s", d.Opcounters.Query, Known(0))
				checkValue(t, "bytes out/s", d.Network.BytesOutPerSec, Known(0))
			},
			absentKeys: []string{`"wiredtiger_cache"`, `"op_latencies"`, `"global_lock"`, `"hit_ratio"`},
			summary: []string{
				"[SERVER], Process, mongos",
				"[SERVER], StorageEngine, " + NotReported,
				"[SERVER], OpLatencies, " + NotReported,
				"[SERVER], GlobalLockQueues, " + NotReported,
				"[SERVER], WiredTigerCache, " + NotReported,
				"[SERVER], Connections, 18",
			},
		},
		{
			// FerretDB answers with identity and uptime only.
			file: "ferretdb_1.24_recorded.json",
			present: func(t *testing.T, s *ServerSample, _ *ServerInterval) {
				checkValue(t, "pid", s.PID, Known(4242))
				checkValue(t, "uptime", s.UptimeSec, Known(0.003033488))

				if s.Info.FerretDBVersion == "" || s.Info.StorageEngine != "" {
					t.Errorf("info = %+v, want a FerretDB version and no storage engine", s.Info)
				}
			},
			absentKeys: []string{`"wiredtiger_cache"`, `"op_latencies"`, `"global_lock"`, `"opcounters_per_s"`, `"network"`, `"connections"`},
			summary: []string{
				"[SERVER], StorageEngine, " + NotReported,
				"[SERVER], WiredTigerCache, " + NotReported,
				"[SERVER], Connections, " + NotReported,
				"[SERVER], Network, " + NotReported,
			},
		},
	}

	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()

			first := Snapshot{At: t0, Server: serverSample(t, tt.file)}
			last := Snapshot{At: t0.Add(10 * time.Second), Server: serverSample(t, tt.file)}
			last.Server.Info = nil

			s := last.Server
			if s.Cache != nil || s.OpLatencies != nil || s.GlobalLock != (GlobalLock{}) {
				t.Errorf("sample: cache %+v, opLatencies %+v, globalLock %+v; want all absent", s.Cache, s.OpLatencies, s.GlobalLock)
			}

			d := Delta(first, last).Server
			if d == nil || d.Restarted || d.Error != "" {
				t.Fatalf("interval = %+v", d)
			}

			if d.Cache != nil || d.OpLatencies != nil || d.GlobalLock != (GlobalLock{}) {
				t.Errorf("interval: cache %+v, opLatencies %+v, globalLock %+v; want all absent", d.Cache, d.OpLatencies, d.GlobalLock)
			}

			tt.present(t, first.Server, d)

			b, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}

			for _, key := range tt.absentKeys {
				if strings.Contains(string(b), key) {
					t.Errorf("%s in the interval's JSON: %s", key, b)
				}
			}

			lines := SummaryLines(first, last, nil, nil)
			for _, want := range tt.summary {
				if !slices.Contains(lines, want) {
					t.Errorf("summary lacks %q:\n%s", want, strings.Join(lines, "\n"))
				}
			}
		})
	}
}

// TestDiskDeltaRecordedDiskstats applies iostat -x's arithmetic to two real
// /proc/diskstats readings of one disk, 2.260 s apart.
func TestDiskDeltaRecordedDiskstats(t *testing.T) {
	t.Parallel()

	read := func(dir string) []DiskCounters {
		t.Helper()

		// Only diskstats is recorded: the other parts of the sample fail,
		// and only the disks are looked at.
		h := newHostReader(filepath.Join("testdata", "diskstats", dir), 4242)
		if h.initErr != nil {
			t.Fatal(h.initErr)
		}

		s := h.sample(false)
		if s.Errors["disks"] != "" {
			t.Fatalf("disks of %s: %s", dir, s.Errors["disks"])
		}

		return s.Disks
	}

	a, b := read("a"), read("b")
	if len(a) != 1 || len(b) != 1 || a[0].Name != "vda" {
		t.Fatalf("disks = %+v, %+v; want vda alone", a, b)
	}

	elapsed := 2260 * time.Millisecond
	h := Delta(Snapshot{At: t0, Host: &HostSample{Disks: a}}, Snapshot{At: t0.Add(elapsed), Host: &HostSample{Disks: b}}).Host

	if len(h.Disks) != 1 {
		t.Fatalf("disks = %+v", h.Disks)
	}

	got := h.Disks[0]

	// sysstat's formulas (iostat -x), itv = 2.260 s, over the differences of
	// the two lines: reads 92087−91278 = 809, sectors read
	// 4790946−4381114 = 409832, ms reading 22504−22126 = 378; writes
	// 114181−110533 = 3648, sectors written 7233984−6755096 = 478888, ms
	// writing 61823−59048 = 2775; ms with I/O in flight 29816−28352 = 1464;
	// weighted ms 98245−94403 = 3842 (discards did not move; flushes are
	// not part of await).
	//
	//   r/s = 809/itv            = 357.9646…   w/s = 3648/itv        = 1614.1593…
	//   IOPS = (809+3648)/itv    = 1972.1239…
	//   rMB/s = 409832/2048/itv  = 88.5457…    wMB/s = 478888/2048/itv = 103.4655…
	//   r_await = 378/809 ms     = 0.4672…     w_await = 2775/3648 ms  = 0.7607…
	//   await = (378+2775)/(809+3648) ms = 0.7074…
	//   %util = 1464/(itv×1000)×100 = 64.7788…  aqu-sz = 3842/(itv×1000) = 1.7
	//
	// as computed with:
	//   python3 -c 'i=2.260; print(809/i, 3648/i, 4457/i, 409832/2048/i,
	//     478888/2048/i, 378/809, 2775/3648, 3153/4457, 1464/(i*1000)*100,
	//     3842/(i*1000))'
	for _, c := range []struct {
		name      string
		got, want Value
	}{
		{"r/s", got.ReadsPerSec, Known(357.96460176991155)},
		{"w/s", got.WritesPerSec, Known(1614.1592920353985)},
		{"IOPS", got.IOPS, Known(1972.12389380531)},
		{"rMB/s", got.ReadMBPerSec, Known(88.5456996681416)},
		{"wMB/s", got.WriteMBPerSec, Known(103.46550055309736)},
		{"r_await", got.ReadAwaitMs, Known(0.4672435105067985)},
		{"w_await", got.WriteAwaitMs, Known(0.7606907894736842)},
		{"await", got.AwaitMs, Known(0.7074265200807718)},
		{"%util", got.UtilPct, Known(64.7787610619469)},
		{"aqu-sz", got.AvgQueueSize, Known(1.7)},
	} {
		checkValue(t, "vda "+c.name, c.got, c.want)
	}
}
