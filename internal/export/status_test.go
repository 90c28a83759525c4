package export

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/measure"
)

var statusNow = time.Date(2020, 12, 29, 17, 39, 19, 271_900_000, time.FixedZone("CET", 3600))

// testInterval is the fourth 10 s interval of a run: 1000 reads of
// 1..1000 µs (and 100 µs more intended), two failed reads, 500 updates.
func testInterval(t *testing.T) *measure.Interval {
	read := span(1, 1000, 1)
	upd := span(2000, 2998, 2)
	iv := &measure.Interval{
		Index:      3,
		StartNs:    30 * int64(time.Second),
		EndNs:      40 * int64(time.Second),
		Operations: 1502,
		Measurements: []measure.Measurement{
			{Name: "READ", Op: db.Read, Service: hist(t, read...), Intended: hist(t, plus(read, 100)...)},
			{Name: "READ-FAILED", Op: db.Read, Failed: true, Service: hist(t, 70, 90), Intended: hist(t, 170, 190)},
			{Name: "UPDATE", Op: db.Update, Service: hist(t, upd...), Intended: hist(t, plus(upd, 100)...)},
		},
	}
	iv.Status[db.Read][db.OK] = 1000
	iv.Status[db.Read][db.Error] = 2
	iv.Status[db.Update][db.OK] = 500
	return iv
}

func TestStatusLineGolden(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	iv := testInterval(t)
	b.WriteString(StatusLine(statusNow, 40*time.Second+300*time.Millisecond, 50613, iv, 50*time.Second) + "\n")
	serviceOnly := *iv
	serviceOnly.Measurements = nil
	for _, m := range iv.Measurements {
		m.Intended = nil
		serviceOnly.Measurements = append(serviceOnly.Measurements, m)
	}
	b.WriteString(StatusLine(statusNow, 40*time.Second, 50613, &serviceOnly, 3*time.Hour+61*time.Second) + "\n")
	b.WriteString(StatusLine(statusNow, 0, 0, nil, -1) + "\n")
	golden.Check(t, "status.golden", []byte(b.String()))
}

func TestStatusLine(t *testing.T) {
	t.Parallel()
	h := hist(t, span(1, 100, 1)...)
	iv := &measure.Interval{
		StartNs: 0, EndNs: 10 * int64(time.Second), Operations: 100,
		Measurements: []measure.Measurement{{Name: "READ", Op: db.Read, Service: h}},
	}
	tests := []struct {
		name      string
		elapsed   time.Duration
		total     int64
		iv        *measure.Interval
		remaining time.Duration
		want      string
	}{
		{
			"figures by hand", 10*time.Second + 999*time.Millisecond, 100, iv, 50 * time.Second,
			"2020-12-29 17:39:19:271 10 sec: 100 operations; 10 current ops/sec; est completion in 50 seconds " +
				"[READ: Count=100, Max=100, Min=1, Avg=50.5, 50=50, 90=90, 99=99, 99.9=100, 99.99=100] ",
		},
		{
			"no estimate when unknown", 10 * time.Second, 100, iv, -1,
			"2020-12-29 17:39:19:271 10 sec: 100 operations; 10 current ops/sec; " +
				"[READ: Count=100, Max=100, Min=1, Avg=50.5, 50=50, 90=90, 99=99, 99.9=100, 99.99=100] ",
		},
		{
			"no rate before the first operation", 0, 0, nil, 0,
			"2020-12-29 17:39:19:271 0 sec: 0 operations; est completion in 0 seconds ",
		},
		{
			// HdrHistogram 2.1.12, YCSB's, gives 0 for every figure of an
			// empty histogram; 2.1.4 printed Min=9223372036854775807 and
			// Avg=NaN.
			"an empty measurement", 10 * time.Second, 100, &measure.Interval{
				StartNs: 0, EndNs: 10 * int64(time.Second), Operations: 100,
				Measurements: []measure.Measurement{{Name: "INSERT", Op: db.Insert, Service: hist(t)}},
			}, -1,
			"2020-12-29 17:39:19:271 10 sec: 100 operations; 10 current ops/sec; " +
				"[INSERT: Count=0, Max=0, Min=0, Avg=0, 50=0, 90=0, 99=0, 99.9=0, 99.99=0] ",
		},
		{
			"remaining rounds up to whole seconds", 5 * time.Second, 7, nil, 1500 * time.Millisecond,
			"2020-12-29 17:39:19:271 5 sec: 7 operations; 0 current ops/sec; est completion in 2 seconds ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := StatusLine(statusNow, tt.elapsed, tt.total, tt.iv, tt.remaining); got != tt.want {
				t.Errorf("StatusLine =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestStatusLineIntendedNames(t *testing.T) {
	t.Parallel()
	iv := testInterval(t)
	line := StatusLine(statusNow, 0, 1, iv, -1)
	names := []string{"[READ:", "[READ-FAILED:", "[UPDATE:", "[Intended-READ:", "[Intended-READ-FAILED:", "[Intended-UPDATE:"}
	last := -1
	for _, n := range names {
		i := strings.Index(line, n)
		if i <= last {
			t.Fatalf("%s at %d, after %d: want YCSB's order (service, then intended)\n%s", n, i, last, line)
		}
		last = i
	}
	for i := range iv.Measurements {
		iv.Measurements[i].Service = nil
	}
	line = StatusLine(statusNow, 0, 1, iv, -1)
	if strings.Contains(line, "Intended-") || !strings.Contains(line, "[READ: Count=1000, Max=1100, Min=101,") {
		t.Errorf("intended only: want sections named after the op\n%s", line)
	}
}

func TestFormatRemaining(t *testing.T) {
	t.Parallel()
	tests := []struct {
		seconds int64
		want    string
	}{
		{0, "0 seconds "},
		{1, "1 seconds "}, // YCSB's plural
		{59, "59 seconds "},
		{60, "1 minute "},
		{150, "2 minutes "},
		{3600, "1 hour "},
		{3661, "1 hour 1 minute "},
		{7322, "2 hours 2 minutes "},
		{86400, "1 day "},
		{2*86400 + 3*3600 + 120, "2 days 3 hours "}, // no minutes past a day
	}
	for _, tt := range tests {
		if got := formatRemaining(tt.seconds); got != tt.want {
			t.Errorf("formatRemaining(%d) = %q, want %q", tt.seconds, got, tt.want)
		}
	}
}
