package metrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// FuzzParseServerStatus feeds arbitrary bytes as a serverStatus reply: the
// parser must not panic, and what it reads must give sane intervals.
func FuzzParseServerStatus(f *testing.F) {
	// Small seeds with every section read: the fuzzer minimizes each new
	// input, which takes minutes on a full 4 KB serverStatus reply.
	f.Add([]byte(extJSON(f, []byte(`{"host": "h:1", "pid": {"$numberLong": "7"}, "uptime": 3.5,
		"opcounters": {"insert": 1, "query": {"$numberLong": "2"}}, "connections": {"current": 3},
		"network": {"bytesIn": 4.0}, "globalLock": {"currentQueue": {"readers": 1}},
		"opLatencies": {"reads": {"latency": 10, "ops": 2}}, "storageEngine": {"name": "wiredTiger"},
		"wiredTiger": {"cache": {"pages read into cache": 5, "pages requested from the cache": 9}}}`))))
	f.Add([]byte(extJSON(f, []byte(`{"version": "7.0.0", "opLatencies": [1, {"a": 2}], "wiredTiger": {"cache": []}}`))))

	f.Add([]byte{})
	f.Add([]byte{5, 0, 0, 0, 0})

	f.Fuzz(func(t *testing.T, data []byte) {
		s, _, err := parseServerStatus(bson.Raw(data))
		if err != nil {
			return
		}

		d := Delta(Snapshot{At: t0, Server: &s}, Snapshot{At: t0.Add(time.Second), Server: &s})
		checkInterval(t, d)
	})
}

// FuzzDelta derives intervals from arbitrary counters: whatever they are,
// rates are never negative, ratios stay in [0, 1], %util at most 100, and
// nothing is NaN.
func FuzzDelta(f *testing.F) {
	f.Add(100.0, 40000.0, 5000.0, 612.0, 40400.0, 5200.0, uint64(1000), uint64(2000), int64(10_000))
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint64(0), uint64(0), int64(0))
	f.Add(5.0, 1.0, -3.0, 1.0, 5.0, 1e300, uint64(1<<63), uint64(1), int64(-5))

	f.Fuzz(func(t *testing.T, read1, req1, bytes1, read2, req2, bytes2 float64, io1, io2 uint64, elapsedMs int64) {
		sample := func(read, req, b float64) *ServerSample {
			return &ServerSample{
				Opcounters: Opcounters{Insert: Known(b)},
				Cache: &WiredTigerCache{
					PagesReadInto: Known(read), PagesRequested: Known(req),
					BytesInCache: Known(b), MaxBytes: Known(req), BytesReadInto: Known(b),
				},
			}
		}
		disk := func(n uint64) *HostSample {
			return &HostSample{
				CPU:   &CPUTimes{NumCPU: 2, User: float64(n), Idle: float64(n / 2)},
				Disks: []DiskCounters{{Name: "sda", ReadIOs: n, ReadTicks: n * 3, IOTicks: n, WeightedIOTicks: n}},
			}
		}

		prev := Snapshot{At: t0, Server: sample(read1, req1, bytes1), Host: disk(io1)}
		cur := Snapshot{At: t0.Add(time.Duration(elapsedMs) * time.Millisecond), Server: sample(read2, req2, bytes2), Host: disk(io2)}

		checkInterval(t, Delta(prev, cur))
	})
}

func checkInterval(t *testing.T, d IntervalMetrics) {
	t.Helper()

	b, err := json.Marshal(d)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}

	if strings.Contains(string(b), "NaN") || strings.Contains(string(b), "Inf") {
		t.Fatalf("NaN or Inf in %s", b)
	}

	nonNeg := func(name string, v Value) {
		if v.OK && (v.V < 0 || math.IsNaN(v.V)) {
			t.Errorf("%s = %v", name, v.V)
		}
	}

	if s := d.Server; s != nil {
		nonNeg("insert/s", s.Opcounters.Insert)
		nonNeg("bytes in/s", s.Network.BytesInPerSec)

		if c := s.Cache; c != nil {
			if c.HitRatio.OK && (c.HitRatio.V < 0 || c.HitRatio.V > 1) {
				t.Errorf("hit ratio %v", c.HitRatio.V)
			}

			nonNeg("read into MB/s", c.ReadIntoMBPerSec)
		}
	}

	if h := d.Host; h != nil {
		for _, k := range h.Disks {
			nonNeg("r/s", k.ReadsPerSec)
			nonNeg("await", k.AwaitMs)

			if k.UtilPct.OK && (k.UtilPct.V < 0 || k.UtilPct.V > 100) {
				t.Errorf("util %v", k.UtilPct.V)
			}
		}

		if c := h.CPU; c != nil {
			nonNeg("user", c.UserPct)
			nonNeg("idle", c.IdlePct)
		}
	}
}

// FuzzValueJSON checks that a Value read from JSON writes back to the same
// Value.
func FuzzValueJSON(f *testing.F) {
	for _, s := range []string{"null", "0", "-1.5", "1e308", "12345678901234567890", `"x"`, "[]"} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		var v Value
		if err := v.UnmarshalJSON(data); err != nil {
			return
		}

		b, err := v.MarshalJSON()
		if err != nil {
			t.Fatalf("marshal %v: %v", v, err)
		}

		var back Value
		if err := back.UnmarshalJSON(b); err != nil || back != v {
			t.Fatalf("%s → %v → %s → %v, %v", data, v, b, back, err)
		}
	})
}

// FuzzWholeDisk checks the partition naming rule: a whole disk is always a
// proper prefix followed by digits, with "p" between when it ends in one.
func FuzzWholeDisk(f *testing.F) {
	for _, s := range []string{"sda1", "nvme0n1p2", "mmcblk0p1", "dm-0", "sda", "p1", "0p1", ""} {
		f.Add(s)
	}

	f.Fuzz(func(t *testing.T, name string) {
		whole, ok := wholeDisk(name)
		if !ok {
			return
		}

		if whole == "" || !strings.HasPrefix(name, whole) || len(whole) >= len(name) {
			t.Fatalf("wholeDisk(%q) = %q", name, whole)
		}

		rest := strings.TrimPrefix(name[len(whole):], "p")
		if rest == "" || strings.Trim(rest, "0123456789") != "" {
			t.Fatalf("wholeDisk(%q) = %q leaves %q", name, whole, name[len(whole):])
		}
	})
}

func BenchmarkParseServerStatus(b *testing.B) {
	raw := fixture(b, "serverstatus/mongod_b.json")

	b.ReportAllocs()

	for b.Loop() {
		parseServerStatus(raw)
	}
}

func BenchmarkDelta(b *testing.B) {
	first, last := recordedRun(b)

	b.ReportAllocs()

	for b.Loop() {
		Delta(first, last)
	}
}

func BenchmarkHostSample(b *testing.B) {
	h := newHostReader(filepath.Join("testdata", "proc", "b"), 4242)

	b.ReportAllocs()

	for b.Loop() {
		h.sample(false)
	}
}

func BenchmarkSampleThisHost(b *testing.B) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		b.Skip("no /proc on this system")
	}

	s := NewSampler(SamplerOptions{})

	b.ReportAllocs()

	for b.Loop() {
		s.Sample(b.Context(), time.Now())
	}
}
