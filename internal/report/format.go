package report

import (
	"math"
	"strconv"
	"strings"
)

// groupDigits inserts thousands separators into the integer part of a
// decimal number: "1234567.5" → "1,234,567.5".
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	if len(intPart) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	first := len(intPart) % 3
	if first > 0 {
		b.WriteString(intPart[:first])
	}
	for i := first; i < len(intPart); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(intPart[i : i+3])
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// formatInt formats n with thousands separators.
func formatInt(n int64) string { return groupDigits(strconv.FormatInt(n, 10)) }

// formatNum formats a measured value for reading, not for parsing: three
// significant digits for small values, whole numbers with thousands
// separators from 100 up ("3,050", "42.5", "0.973").
func formatNum(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	var s string
	switch {
	case a >= 99.5:
		s = strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	case a >= 9.995:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 0.9995:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(v, 'g', 3, 64)
		if strings.ContainsAny(s, "e") {
			s = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return groupDigits(trimZeros(s))
}

// trimZeros drops trailing zeros of a fraction: "42.50" → "42.5", "3.00" → "3".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// formatCompact formats an axis label briefly: "950", "1.5k", "20k", "3M".
func formatCompact(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case a >= 1e9:
		return trimZeros(strconv.FormatFloat(v/1e9, 'f', 2, 64)) + "G"
	case a >= 1e6:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', 2, 64)) + "M"
	case a >= 1e4:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "k"
	case a >= 1e3:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 2, 64)) + "k"
	}
	return formatNum(v)
}

// formatLatency formats a latency given in microseconds in the unit that
// reads best: "850 µs", "3.1 ms", "1.25 s".
func formatLatency(us float64) string {
	a := math.Abs(us)
	switch {
	case math.IsNaN(us) || math.IsInf(us, 0):
		return "–"
	case a >= 1e6:
		return sig3(us/1e6) + " s"
	case a >= 1e3:
		return sig3(us/1e3) + " ms"
	}
	return sig3(us) + " µs"
}

// sig3 formats v with at most three significant digits, never in exponent
// form: 1.25, 31.4, 314, 3140.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 99.95:
		return groupDigits(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	case a >= 9.995:
		return trimZeros(strconv.FormatFloat(v, 'f', 1, 64))
	case a >= 0.9995:
		return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 3, 64))
}

// formatRate formats a throughput: "3,050 ops/s".
func formatRate(v float64) string { return formatNum(v) + " ops/s" }

// formatPct formats a ratio as a percentage with two significant digits
// below 10% and whole numbers above: 0.031 → "3.1%", 0.31 → "31%".
func formatPct(r float64) string {
	p := math.Abs(r) * 100
	switch {
	case math.IsNaN(p) || math.IsInf(p, 0):
		return "–"
	case p >= 9.5:
		return strconv.FormatFloat(math.Round(p), 'f', 0, 64) + "%"
	case p >= 0.95:
		return trimZeros(strconv.FormatFloat(p, 'f', 1, 64)) + "%"
	case p == 0:
		return "0%"
	}
	return trimZeros(strconv.FormatFloat(p, 'f', 2, 64)) + "%"
}

// formatFactor formats a ratio of two values: "3.2×", "12×".
func formatFactor(f float64) string {
	if f >= 9.95 {
		return strconv.FormatFloat(math.Round(f), 'f', 0, 64) + "×"
	}
	return trimZeros(strconv.FormatFloat(f, 'f', 1, 64)) + "×"
}

// formatSeconds formats an elapsed time: "45 s", "2 min 30 s", "1 h 5 min".
func formatSeconds(s float64) string {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return "–"
	case s < 10:
		return trimZeros(strconv.FormatFloat(s, 'f', 1, 64)) + " s"
	case s < 120:
		return strconv.FormatFloat(math.Round(s), 'f', 0, 64) + " s"
	case s < 7200:
		total := int64(math.Round(s))
		m, sec := total/60, total%60
		if sec == 0 {
			return strconv.FormatInt(m, 10) + " min"
		}
		return strconv.FormatInt(m, 10) + " min " + strconv.FormatInt(sec, 10) + " s"
	}
	total := int64(math.Round(s / 60))
	h, m := total/60, total%60
	if m == 0 {
		return strconv.FormatInt(h, 10) + " h"
	}
	return strconv.FormatInt(h, 10) + " h " + strconv.FormatInt(m, 10) + " min"
}

// formatX formats a sweep's varied value: "64", "2.5", "1,000,000".
func formatX(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return formatInt(int64(x))
	}
	return groupDigits(strconv.FormatFloat(x, 'g', -1, 64))
}
