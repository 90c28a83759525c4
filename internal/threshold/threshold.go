// Package threshold is the pass/fail judgement of a run against limits
// the user sets (--threshold 'READ:p(99)<5ms'): their grammar, and their
// evaluation on a run's results at its end or on the intervals so far
// while it runs.
package threshold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/printable"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// Overall names the figures of all the operations of a run together.
const Overall = "OVERALL"

// Stat is what a threshold judges.
type Stat int

// The statistics a threshold may judge.
const (
	Percentile Stat = iota // a latency percentile: p(99)
	Avg                    // the mean latency
	Max                    // the highest latency
	Throughput             // operations per second
	Errors                 // failed operations: a count, or a share with %
)

// Latency says which latency a latency threshold judges.
type Latency int

// The latencies: by default intended latency when the run recorded it
// (an open-loop run at -target), since that is what a user of the
// system waits; service latency otherwise.
const (
	DefaultLatency Latency = iota
	IntendedLatency
	ServiceLatency
)

func (l Latency) String() string {
	switch l {
	case IntendedLatency:
		return "intended"
	case ServiceLatency:
		return "service"
	}
	return ""
}

// Threshold is one parsed --threshold.
type Threshold struct {
	// Op is an operation's name ("READ") or Overall.
	Op         string
	Stat       Stat
	Percentile float64 // of Stat Percentile: 0 < P <= 100
	Latency    Latency
	Cmp        string // "<", "<=", ">" or ">="
	// Limit is in µs for latencies, operations per second for
	// throughput, and for errors a count, or a share from 0 to 1 when
	// Percent.
	Limit   float64
	Percent bool
	// AbortOnFail ends the run at the first interval after which the
	// threshold fails on what was measured so far.
	AbortOnFail bool
}

// Accepted is the grammar, for error messages.
const Accepted = `[OP:][intended |service ]p(N)|avg|max<LATENCY (units ns, us, µs, ms, s), [OP:]throughput>N, [OP:]errors<N or N%, with <, <=, > or >=, and ";abortOnFail" to stop the run when it fails, such as READ:p(99)<5ms`

// Parse parses one threshold.
func Parse(s string) (Threshold, error) {
	t, err := parse(s)
	if err != nil {
		return Threshold{}, fmt.Errorf("threshold %q: %v; accepted: %s", s, err, Accepted)
	}
	return t, nil
}

func parse(s string) (Threshold, error) {
	var t Threshold
	body := strings.TrimSpace(s)
	if rest, opt, ok := strings.Cut(body, ";"); ok {
		if !strings.EqualFold(strings.TrimSpace(opt), "abortOnFail") {
			return t, fmt.Errorf("unknown option %q after ';' (abortOnFail is the one option)", strings.TrimSpace(opt))
		}
		t.AbortOnFail = true
		body = strings.TrimSpace(rest)
	}
	t.Op = Overall
	if op, rest, ok := strings.Cut(body, ":"); ok {
		name, err := operationName(strings.TrimSpace(op))
		if err != nil {
			return t, err
		}
		t.Op = name
		body = strings.TrimSpace(rest)
	}
	for _, k := range []struct {
		word string
		l    Latency
	}{{"intended ", IntendedLatency}, {"service ", ServiceLatency}} {
		if len(body) >= len(k.word) && strings.EqualFold(body[:len(k.word)], k.word) {
			t.Latency = k.l
			body = strings.TrimSpace(body[len(k.word):])
			break
		}
	}
	i := strings.IndexAny(body, "<>")
	if i < 0 {
		return t, fmt.Errorf("no comparison (<, <=, > or >=)")
	}
	stat, rest := strings.ToLower(strings.TrimSpace(body[:i])), body[i:]
	t.Cmp = rest[:1]
	rest = rest[1:]
	if strings.HasPrefix(rest, "=") {
		t.Cmp += "="
		rest = rest[1:]
	}
	value := strings.TrimSpace(rest)
	if value == "" {
		return t, fmt.Errorf("no limit after %s", t.Cmp)
	}
	switch {
	case strings.HasPrefix(stat, "p(") && strings.HasSuffix(stat, ")"):
		p, err := strconv.ParseFloat(stat[2:len(stat)-1], 64)
		if err != nil || !(p > 0 && p <= 100) {
			return t, fmt.Errorf("percentile %q: expected a number above 0 and at most 100, such as p(99.9)", stat)
		}
		t.Stat, t.Percentile = Percentile, p
	case stat == "avg":
		t.Stat = Avg
	case stat == "max":
		t.Stat = Max
	case stat == "throughput":
		t.Stat = Throughput
	case stat == "errors":
		t.Stat = Errors
	default:
		return t, fmt.Errorf("unknown statistic %q (p(N), avg, max, throughput or errors)", stat)
	}
	if t.Latency != DefaultLatency && !t.IsLatency() {
		return t, fmt.Errorf("%s latency goes with p(N), avg or max, not %s", t.Latency, stat)
	}
	var err error
	switch t.Stat {
	case Percentile, Avg, Max:
		t.Limit, err = parseDuration(value)
	case Throughput:
		t.Limit, err = parseNumber(strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(value, "ops/s")), "/s"), "throughput", "operations per second, such as 2000")
	case Errors:
		if v, ok := strings.CutSuffix(value, "%"); ok {
			t.Percent = true
			t.Limit, err = parseNumber(strings.TrimSpace(v), "error share", "a percentage from 0 to 100, such as 0.1%")
			if err == nil && t.Limit > 100 {
				err = fmt.Errorf("error share %q: expected a percentage from 0 to 100, such as 0.1%%", value)
			}
			t.Limit /= 100
		} else {
			t.Limit, err = parseNumber(value, "error count", "a number of failed operations, such as 10, or a share, such as 0.1%")
		}
	}
	if err != nil {
		return t, err
	}
	return t, nil
}

// IsLatency says whether the threshold judges a latency.
func (t Threshold) IsLatency() bool { return t.Stat == Percentile || t.Stat == Avg || t.Stat == Max }

func parseNumber(s, what, accepted string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("%s %q: expected %s", what, s, accepted)
	}
	return v, nil
}

// units are the latency units, in µs.
var units = []struct {
	name string
	us   float64
}{{"ns", 1e-3}, {"us", 1}, {"µs", 1}, {"ms", 1e3}, {"s", 1e6}}

// parseDuration reads a latency limit into µs; a unit is required, since
// a bare 5 reads as milliseconds to some users and seconds to others.
func parseDuration(s string) (float64, error) {
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.name); ok {
			// "ms" also ends in "s": the longer units come first.
			if u.name == "s" && (strings.HasSuffix(n, "m") || strings.HasSuffix(n, "n") || strings.HasSuffix(n, "u") || strings.HasSuffix(n, "µ")) {
				continue
			}
			v, err := parseNumber(strings.TrimSpace(n), "latency", "a number with a unit (ns, us, µs, ms or s), such as 5ms")
			if err != nil {
				return 0, err
			}
			if math.IsInf(v*u.us, 0) {
				return 0, fmt.Errorf("latency %q is beyond any a run can measure", s)
			}
			return v * u.us, nil
		}
	}
	return 0, fmt.Errorf("latency %q: expected a number with a unit (ns, us, µs, ms or s), such as 5ms", s)
}

// String is the threshold in its canonical form, which Parse reads back
// as the same threshold.
func (t Threshold) String() string {
	var b strings.Builder
	b.WriteString(t.Op)
	b.WriteByte(':')
	if t.Latency != DefaultLatency {
		b.WriteString(t.Latency.String())
		b.WriteByte(' ')
	}
	b.WriteString(t.statName())
	b.WriteString(t.Cmp)
	b.WriteString(t.limitText())
	if t.AbortOnFail {
		b.WriteString(";abortOnFail")
	}
	return b.String()
}

func (t Threshold) statName() string {
	switch t.Stat {
	case Percentile:
		return "p(" + strconv.FormatFloat(t.Percentile, 'f', -1, 64) + ")"
	case Avg:
		return "avg"
	case Max:
		return "max"
	case Throughput:
		return "throughput"
	}
	return "errors"
}

// limitText writes the limit back in its own unit: a latency in the
// largest unit that keeps it whole enough to read.
func (t Threshold) limitText() string {
	switch t.Stat {
	case Throughput:
		return strconv.FormatFloat(t.Limit, 'f', -1, 64)
	case Errors:
		if t.Percent {
			return strconv.FormatFloat(t.Limit*100, 'f', -1, 64) + "%"
		}
		return strconv.FormatFloat(t.Limit, 'f', -1, 64)
	}
	return FormatLatency(t.Limit)
}

// FormatLatency writes µs in the unit that reads best: 5ms, 250us, 1.5s.
func FormatLatency(us float64) string {
	switch {
	case us >= 1e6:
		return figure(us/1e6) + "s"
	case us >= 1e3:
		return figure(us/1e3) + "ms"
	case us >= 1 || us == 0:
		return figure(us) + "us"
	}
	return figure(us*1e3) + "ns"
}

// figure writes x to 12 significant digits: a limit converted between
// units ("9ns" is 0.009000000000000001 µs) reads as it was written, and
// reads back to the same limit.
func figure(x float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	if err != nil {
		r = x
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// holds says whether v meets the threshold's comparison.
func (t Threshold) holds(v float64) bool {
	switch t.Cmp {
	case "<":
		return v < t.Limit
	case "<=":
		return v <= t.Limit
	case ">":
		return v > t.Limit
	}
	return v >= t.Limit
}

// operationName is the operation a threshold names: OVERALL or one of
// YCSB's, whatever their case, or a native workload's named operation as
// written (its names are case-sensitive). Whether the workload has a
// named operation is known only once its file is read: Judge finds no
// data for one it lacks, which fails, and the commands check the names
// against the workload before running (CheckOperations).
func operationName(op string) (string, error) {
	upper := strings.ToUpper(op)
	if upper == Overall {
		return Overall, nil
	}
	if o, known := db.ParseOp(upper); known && int(o) < db.NumOps {
		if !measure.CountsAsOperation(o) {
			return "", fmt.Errorf("operation %q is counted under the operations it is made of, not judged alone: accepted: OVERALL, READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE, DELETE or a native workload's operation", op)
		}
		return upper, nil
	}
	if op == "" || len(op) > db.MaxOpName || strings.ContainsAny(op, " \t\n;<>=()") || !printable.Clean(op) {
		return "", fmt.Errorf("unknown operation %q: accepted: OVERALL, READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE, DELETE or a native workload's operation name", printable.String(op))
	}
	return op, nil
}

// CheckOperations refuses a threshold on an operation the workload does
// not have: ycsb says YCSB's operations are the workload's, named lists
// a native workload's operations.
func CheckOperations(ts []Threshold, ycsb bool, named []string) error {
	for _, t := range ts {
		if t.Op == Overall {
			continue
		}
		if o, known := db.ParseOp(t.Op); (ycsb && known && int(o) < db.NumOps) || slices.Contains(named, t.Op) {
			continue
		}
		accepted := "OVERALL, READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE or DELETE"
		if !ycsb {
			accepted = strings.Join(append([]string{"OVERALL"}, named...), ", ")
		}
		return fmt.Errorf("--threshold %s: the workload has no operation %q: accepted: %s", printable.String(t.String()), printable.String(t.Op), accepted)
	}
	return nil
}
