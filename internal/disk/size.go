package disk

import (
	"fmt"
	"strconv"
	"strings"
)

// The test file's size bounds: enough for random reads to leave the
// drive's own cache, small enough to fit where a database does.
const (
	MinSizeBytes = 1 << 20
	MaxSizeBytes = 1 << 40
)

// SizeAccepted says which sizes ParseSize accepts.
const SizeAccepted = "a size from 1M to 1T, in bytes or with K, M, G or T (powers of 1024, KiB and KB alike)"

var sizeUnits = map[string]int64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

// ParseSize parses a test-file size: "256M", "1G", "1GiB", "8388608".
func ParseSize(s string) (int64, error) {
	v := strings.ToUpper(strings.TrimSpace(s))
	v = strings.TrimSuffix(strings.TrimSuffix(v, "IB"), "B")
	i := len(v)
	for i > 0 && (v[i-1] < '0' || v[i-1] > '9') {
		i--
	}
	unit, ok := sizeUnits[v[i:]]
	if !ok || i == 0 {
		return 0, fmt.Errorf("size %q: expected %s", s, SizeAccepted)
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil || n <= 0 || n > MaxSizeBytes/unit || n*unit < MinSizeBytes {
		return 0, fmt.Errorf("size %q: expected %s", s, SizeAccepted)
	}
	return n * unit, nil
}

// FormatSize prints a size in the largest unit that divides it: 4 KiB,
// 256 MiB.
func FormatSize(n int64) string {
	for _, u := range []struct {
		name string
		b    int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.b && n%u.b == 0 {
			return strconv.FormatInt(n/u.b, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}
