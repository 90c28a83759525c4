package export

import (
	"bufio"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestJavaFormatsAgainstJava checks JavaDouble and decimal2 against what
// Java printed for the same doubles (testdata/java_doubles.tsv): YCSB's
// typical throughputs and means, two-decimal ties, and random doubles of
// every magnitude.
func TestJavaFormatsAgainstJava(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/java_doubles.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("bad line %q", line)
		}
		bits, err := strconv.ParseUint(fields[0], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		v := math.Float64frombits(bits)
		// The one departure from Java: a figure that is, or rounds to,
		// zero never prints a minus sign.
		javaDouble, java2 := fields[1], fields[2]
		if javaDouble == "-0.0" {
			javaDouble = "0.0"
		}
		if java2 == "-0" {
			java2 = "0"
		}
		if got := JavaDouble(v); got != javaDouble {
			t.Errorf("JavaDouble(%v) = %q, Java prints %q", v, got, fields[1])
		}
		if fields[2] != "-" {
			if got := decimal2(v); got != java2 {
				t.Errorf("decimal2(%v) = %q, Java prints %q", v, got, fields[2])
			}
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 400 {
		t.Fatalf("only %d values checked", n)
	}
}

func TestJavaDouble(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{7038.453417169134, "7038.453417169134"}, // YCSB's own example
		{3573, "3573.0"},                         // integral values keep ".0"
		{0, "0.0"},
		{1e7, "1.0E7"}, // scientific from 10^7 up
		{9999999, "9999999.0"},
		{12345678, "1.2345678E7"},
		{0.001, "0.001"}, // plain down to 10^-3
		{0.0001, "1.0E-4"},
		{-2.5, "-2.5"},
		{float64(math.MaxInt64), "9.223372036854776E18"},
		{math.SmallestNonzeroFloat64, "4.9E-324"}, // two digits, closer than "5.0E-324"
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
	}
	for _, tt := range tests {
		if got := JavaDouble(tt.in); got != tt.want {
			t.Errorf("JavaDouble(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDecimal2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{5061.3, "5061.3"},
		{265.2, "265.2"},
		{250, "250"},
		{0.5, "0.5"},
		{0.125, "0.12"}, // exact tie: half to even
		{0.375, "0.38"},
		{0.135, "0.14"}, // the double is a little above 0.135
		{1.005, "1"},    // the double is a little below 1.005
		{0.001, "0"},
		{-0.001, "0"}, // Java prints "-0": a figure that rounds to 0 has no sign
		{math.Copysign(0, -1), "0"},
		{-0.006, "-0.01"},
		{1234567.891, "1234567.89"},
		{math.NaN(), "NaN"},
	}
	for _, tt := range tests {
		if got := decimal2(tt.in); got != tt.want {
			t.Errorf("decimal2(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{50, "50th"}, {95, "95th"}, {99, "99th"}, {1, "1st"}, {2, "2nd"}, {3, "3rd"}, {4, "4th"},
		{11, "11th"}, {12, "12th"}, {13, "13th"}, {21, "21st"}, {22, "22nd"}, {23, "23rd"},
		{100, "100th"}, {111, "111th"}, {0, "0th"}, {99.9, "99.9"}, {99.99, "99.99"}, {0.5, "0.5"},
	}
	for _, tt := range tests {
		if got := ordinal(tt.in); got != tt.want {
			t.Errorf("ordinal(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

var javaDoubleShape = regexp.MustCompile(`^-?(\d+\.\d+|\d\.\d+E-?\d+)$`)

func FuzzJavaDouble(f *testing.F) {
	for _, v := range []float64{0, 1, 0.1, 1e7, 1e-4, 7038.453417169134, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		s := JavaDouble(v)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		if !javaDoubleShape.MatchString(s) {
			t.Fatalf("JavaDouble(%v) = %q: not Java's shape", v, s)
		}
		back, err := strconv.ParseFloat(strings.Replace(s, "E", "e", 1), 64)
		if err != nil || back != v {
			t.Fatalf("JavaDouble(%v) = %q reads back as %v, %v", v, s, back, err)
		}
		d := decimal2(v)
		if math.Abs(v) < 1e15 {
			back, err := strconv.ParseFloat(d, 64)
			if err != nil || math.Abs(back-v) > 0.005+1e-9*math.Abs(v) {
				t.Fatalf("decimal2(%v) = %q, more than half a cent away", v, d)
			}
		}
	})
}
