package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
)

// statusPercentiles are the fixed percentiles of YCSB's status line.
var statusPercentiles = []float64{50, 90, 99, 99.9, 99.99}

// StatusLine formats one status line as YCSB's StatusThread does:
//
//	2020-12-29 17:39:19:271 10 sec: 50613 operations; 5061.3 current ops/sec; est completion in 50 seconds [READ: Count=25300, Max=9471, Min=144, Avg=265.2, 50=250, 90=277, 99=1512, 99.9=3100, 99.99=5000] [UPDATE: ...]
//
// now is the wall-clock time printed (in its location), elapsed the time
// since the run started, totalOps the operations done so far, iv the
// interval just closed (its throughput and latencies are printed; nil
// prints none) and remaining the estimated time left (negative when
// unknown, or when nothing is left, which YCSB does not print either). A
// label (-l) goes before the line, with no space, as in YCSB. Like YCSB's,
// the line ends with a space when it ends with an estimate or a measurement.
func StatusLine(now time.Time, elapsed time.Duration, totalOps int64, iv *measure.Interval, remaining time.Duration) string {
	var b strings.Builder
	b.WriteString(now.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, ":%03d ", now.Nanosecond()/1e6)
	b.WriteString(strconv.FormatInt(int64(elapsed/time.Second), 10))
	b.WriteString(" sec: ")
	b.WriteString(strconv.FormatInt(totalOps, 10))
	b.WriteString(" operations; ")
	if totalOps != 0 {
		var cur float64
		if iv != nil {
			// Java divides by the interval's milliseconds; an empty
			// interval gives NaN or Infinity there too.
			cur = float64(iv.Operations) / (float64(iv.EndNs-iv.StartNs) / 1e9)
		}
		b.WriteString(decimal2(cur))
		b.WriteString(" current ops/sec; ")
	}
	if remaining >= 0 {
		b.WriteString("est completion in ")
		b.WriteString(formatRemaining(int64(math.Ceil(remaining.Seconds()))))
	}
	if iv != nil {
		// YCSB's Measurements.getSummary: every service latency summary,
		// then every intended latency one.
		for i := range iv.Measurements {
			m := &iv.Measurements[i]
			if m.Service != nil {
				writeSummary(&b, m.Name, m.Service)
			}
		}
		for i := range iv.Measurements {
			m := &iv.Measurements[i]
			if m.Intended == nil {
				continue
			}
			name := m.Name
			if m.Service != nil {
				name = "Intended-" + name
			}
			writeSummary(&b, name, m.Intended)
		}
	}
	return b.String()
}

// writeSummary writes OneMeasurementHdrHistogram.getSummary for h.
func writeSummary(b *strings.Builder, name string, h *hdrhistogram.Histogram) {
	// An empty histogram prints 0 for every figure, as YCSB's HdrHistogram
	// 2.1.12 gives them.
	var minV, maxV int64
	if h.TotalCount() > 0 {
		minV, maxV = h.Min(), h.Max()
	}
	fmt.Fprintf(b, "[%s: Count=%d, Max=%d, Min=%d, Avg=%s", name, h.TotalCount(), maxV, minV, decimal2(measure.Mean(h)))
	for i, v := range measure.Percentiles(h, statusPercentiles) {
		fmt.Fprintf(b, ", %s=%d", measure.PercentileKey(statusPercentiles[i]), v)
	}
	b.WriteString("] ")
}

// formatRemaining turns seconds into YCSB's RemainingFormatter text, quirks
// included ("1 seconds"; minutes and seconds are dropped past a day).
func formatRemaining(seconds int64) string {
	var b strings.Builder
	days := seconds / 86400
	if days > 0 {
		b.WriteString(strconv.FormatInt(days, 10))
		b.WriteString(plural(days, " day ", " days "))
		seconds -= days * 86400
	}
	hours := seconds / 3600
	if hours > 0 {
		b.WriteString(strconv.FormatInt(hours, 10))
		b.WriteString(plural(hours, " hour ", " hours "))
		seconds -= hours * 3600
	}
	if days < 1 {
		if minutes := seconds / 60; minutes > 0 {
			b.WriteString(strconv.FormatInt(minutes, 10))
			b.WriteString(plural(minutes, " minute ", " minutes "))
		}
	}
	if b.Len() == 0 {
		b.WriteString(strconv.FormatInt(seconds, 10))
		b.WriteString(" seconds ")
	}
	return b.String()
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
