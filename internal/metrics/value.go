package metrics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Value is a measurement that may be absent. Absent means the source did
// not report it (a server without WiredTiger has no cache figures) or it
// cannot be derived for this interval (a counter went backwards, nothing
// happened to average over); it is never the same as zero.
//
// In JSON an absent Value is null, and fields tagged omitzero are left out.
type Value struct {
	V  float64
	OK bool
}

// Known returns a present Value. NaN and infinities are not measurements:
// they come back absent, so that no output ever has to print them.
func Known(v float64) Value {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Value{}
	}

	return Value{V: v, OK: true}
}

// Get returns the value and whether it is present.
func (v Value) Get() (float64, bool) { return v.V, v.OK }

// IsZero reports whether v is absent; it is what omitzero looks at, so a
// present 0 is still written.
func (v Value) IsZero() bool { return !v.OK }

// String is the value in Go's shortest form, or "absent".
func (v Value) String() string {
	if !v.OK {
		return "absent"
	}

	return strconv.FormatFloat(v.V, 'g', -1, 64)
}

// MarshalJSON writes the number, or null when absent.
func (v Value) MarshalJSON() ([]byte, error) {
	if !v.OK || math.IsNaN(v.V) || math.IsInf(v.V, 0) {
		return []byte("null"), nil
	}

	// encoding/json's own float format: plain digits for everyday
	// magnitudes, so that byte counts do not come out as 2.5e+09.
	return json.Marshal(v.V)
}

// UnmarshalJSON reads a number or null.
func (v *Value) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*v = Value{}
		return nil
	}

	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("metrics: value %q: want a number or null: %w", b, err)
	}

	*v = Known(f)

	return nil
}

// rate is the per-second rate of a counter between two samples elapsed
// seconds apart. A counter that went backwards was reset (a restart), so the
// interval has no rate rather than a negative one.
func rate(prev, cur Value, elapsed float64) Value {
	if !prev.OK || !cur.OK || elapsed <= 0 || cur.V < prev.V {
		return Value{}
	}

	return Known((cur.V - prev.V) / elapsed)
}

// delta is the growth of a counter, absent when it went backwards.
func delta(prev, cur Value) Value {
	if !prev.OK || !cur.OK || cur.V < prev.V {
		return Value{}
	}

	return Known(cur.V - prev.V)
}

// ratio is num/den, absent when either is absent or den is 0.
func ratio(num, den Value) Value {
	if !num.OK || !den.OK || den.V == 0 {
		return Value{}
	}

	return Known(num.V / den.V)
}

// clamp01 keeps a ratio inside [0, 1].
func clamp01(v Value) Value {
	if !v.OK {
		return v
	}

	return Known(min(max(v.V, 0), 1))
}
