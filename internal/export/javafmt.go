package export

import (
	"math"
	"strconv"
	"strings"
)

// JavaDouble formats d as Java's Double.toString does (JDK 19 and later,
// whose digits are the shortest that read back as d): "3573.0",
// "7038.453417169134", "1.0E7", "1.0E-4", "NaN", "Infinity". YCSB prints
// every double of its text summary this way. Negative zero is the one
// departure: it prints "0.0", as no figure of a run is ever below zero.
func JavaDouble(d float64) string {
	switch {
	case math.IsNaN(d):
		return "NaN"
	case math.IsInf(d, 1):
		return "Infinity"
	case math.IsInf(d, -1):
		return "-Infinity"
	case d == 0:
		return "0.0"
	}
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	digits, exp := javaDigits(d)
	if d >= 1e-3 && d < 1e7 {
		// Plain notation, at least one digit on each side of the point.
		if exp >= 0 {
			if len(digits) > exp+1 {
				b.WriteString(digits[:exp+1])
				b.WriteByte('.')
				b.WriteString(digits[exp+1:])
			} else {
				b.WriteString(digits)
				b.WriteString(strings.Repeat("0", exp+1-len(digits)))
				b.WriteString(".0")
			}
		} else {
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -exp-1))
			b.WriteString(digits)
		}
		return b.String()
	}
	// Computerized scientific notation: d.dddE±n.
	b.WriteByte(digits[0])
	b.WriteByte('.')
	if len(digits) > 1 {
		b.WriteString(digits[1:])
	} else {
		b.WriteByte('0')
	}
	b.WriteByte('E')
	b.WriteString(strconv.Itoa(exp))
	return b.String()
}

// javaDigits returns the significant digits of d > 0 and the decimal
// exponent of the first one (d = 0.d1d2… × 10^(exp+1)). They are the
// shortest digits that read back as d, except that Java considers two-digit
// decimals when one digit would do and takes the one closest to d.
func javaDigits(d float64) (string, int) {
	s := strconv.FormatFloat(d, 'e', -1, 64)
	mant, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	digits := strings.Replace(mant, ".", "", 1)
	if len(digits) == 1 {
		two := strconv.FormatFloat(d, 'e', 1, 64)
		if v, err := strconv.ParseFloat(two, 64); err == nil && v == d {
			m2, e2, _ := strings.Cut(two, "e")
			exp, _ = strconv.Atoi(e2)
			digits = strings.TrimRight(strings.Replace(m2, ".", "", 1), "0")
		}
	}
	return digits, exp
}

// decimal2 formats v as Java's new DecimalFormat("#.##") does, which YCSB
// uses for its status line: at most two decimals, rounded half-even, no
// trailing zeros, no grouping ("0.5", "1234567.89", "3"). DecimalFormat
// starts from the digits of Double.toString, so a large value prints those
// digits padded with zeros rather than its exact binary expansion. NaN
// prints as "NaN" (JDK 9 and later; JDK 8 printed U+FFFD).
func decimal2(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "-∞"
	}
	neg := math.Signbit(v)
	a := math.Abs(v)
	var s string
	if digits, exp := javaDigits(a); a == 0 || len(digits)-(exp+1) > 2 {
		// Rounding is needed. Rounding the exact binary value, half to
		// even on exact ties, gives what DecimalFormat gets from the
		// shortest digits and its tie rules: a rounding boundary between
		// the value and its shortest digits would itself be shorter.
		s = strconv.FormatFloat(a, 'f', 2, 64)
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	} else {
		s = plainDigits(digits, exp)
	}
	if neg && s != "0" {
		// Java keeps the sign of a negative value that rounds to zero
		// ("-0"); a figure that rounds to nothing has no sign worth
		// printing.
		return "-" + s
	}
	return s
}

// plainDigits writes 0.d1d2… × 10^(exp+1) in positional notation, without
// a fraction when it has none.
func plainDigits(digits string, exp int) string {
	switch {
	case exp < 0:
		return "0." + strings.Repeat("0", -exp-1) + digits
	case len(digits) > exp+1:
		return digits[:exp+1] + "." + digits[exp+1:]
	default:
		return digits + strings.Repeat("0", exp+1-len(digits))
	}
}

// ordinal names a percentile as YCSB's OneMeasurementHdrHistogram.ordinal
// does: whole numbers get English ordinals ("50th", "1st", "11th"), others
// print as Java doubles ("99.9").
func ordinal(p float64) string {
	if p != math.Trunc(p) || math.IsInf(p, 0) {
		return JavaDouble(p)
	}
	j := int64(p)
	n := j
	if n < 0 {
		n = -n
	}
	switch n % 100 {
	case 11, 12, 13:
		return strconv.FormatInt(j, 10) + "th"
	}
	suffixes := [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}
	return strconv.FormatInt(j, 10) + suffixes[n%10]
}
