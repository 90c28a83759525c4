package workload

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Every number a user types (properties, flags) goes through these
// parsers, so that NaN, the infinities and values past the range of their
// type are refused in one place. Left to strconv and a bare comparison,
// NaN passes every "< lo" test and +Inf every "> hi" test when hi is
// unbounded, and both then surface far away as a run of zero operations,
// a NaN throughput or a timeout silently replaced by its default.

// ErrNumber is wrapped by every error of ParseInt, ParseFloat and
// ParseSeconds.
var ErrNumber = errors.New("not an accepted number")

// MaxSeconds bounds every duration property: 10^9 s (31 years) keeps any
// sum of a few of them within time.Duration's 292 years.
const MaxSeconds = 1e9

// ParseInt parses a whole number from lo to hi. Surrounding white space
// is ignored.
func ParseInt(raw string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%w: too large", ErrNumber)
		}
		return 0, fmt.Errorf("%w: not a whole number", ErrNumber)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%w: out of range", ErrNumber)
	}
	return n, nil
}

// IntRange says which whole numbers ParseInt(…, lo, hi) accepts.
func IntRange(lo, hi int64) string {
	if hi == math.MaxInt64 {
		return fmt.Sprintf("a whole number >= %d", lo)
	}
	return fmt.Sprintf("a whole number from %d to %d", lo, hi)
}

// ParseFloat parses a finite number from lo to hi. NaN and the
// infinities are refused whatever the bounds.
func ParseFloat(raw string, lo, hi float64) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		// ParseFloat returns ±Inf or 0 for what float64 cannot hold.
		return 0, fmt.Errorf("%w: out of range", ErrNumber)
	case err != nil:
		return 0, fmt.Errorf("%w: not a number", ErrNumber)
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%w: not a finite number", ErrNumber)
	case f < lo || f > hi:
		return 0, fmt.Errorf("%w: out of range", ErrNumber)
	}
	return f, nil
}

// FloatRange says which numbers ParseFloat(…, lo, hi) accepts; kind names
// them ("a proportion").
func FloatRange(kind string, lo, hi float64) string {
	return fmt.Sprintf("%s from %s to %s", kind, formatBound(lo), formatBound(hi))
}

// formatBound prints 1000000 rather than 1e+06, which reads as a typo.
func formatBound(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ParseSeconds parses a duration as YCSB's properties give it, a number
// of seconds ("30", "0.5"), or with a unit ("30s", "2m", "250ms"), and
// checks it lies from lo to hi. A value that rounds to less than a
// nanosecond is 0.
func ParseSeconds(raw string, lo, hi time.Duration) (time.Duration, error) {
	v := strings.TrimSpace(raw)
	if strings.ContainsAny(v, "hmsµun") {
		// "Inf" and "NaN" hold an 'n' but are no durations: only a
		// number with a unit gets here.
		if d, err := time.ParseDuration(v); err == nil {
			if d < lo || d > hi {
				return 0, fmt.Errorf("%w: out of range", ErrNumber)
			}
			return d, nil
		}
	}
	f, err := ParseFloat(v, lo.Seconds(), hi.Seconds())
	if err != nil {
		return 0, err
	}
	d := time.Duration(math.Round(f * float64(time.Second)))
	if d < lo || d > hi {
		return 0, fmt.Errorf("%w: out of range", ErrNumber)
	}
	return d, nil
}

// SecondsRange says which durations ParseSeconds(…, lo, hi) accepts.
func SecondsRange(lo, hi time.Duration) string {
	return fmt.Sprintf("a number of seconds from %s to %s (or a duration such as 30s)", formatBound(lo.Seconds()), formatBound(hi.Seconds()))
}
