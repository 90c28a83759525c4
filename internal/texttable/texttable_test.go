package texttable

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestFormatting checks the table cells: figures, intervals, id lists.
func TestFormatting(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{Mean(nil, "us"), "–"},
		{Mean([]float64{731}, "ops/s"), "731"},
		{Mean([]float64{100, 100}, "ops/s"), "100"},
		// Two trials: Student's t is 12.7, so the interval is wide.
		{Mean([]float64{90, 110}, "ops/s"), "100 ±127%"},
		{Mean([]float64{0, 1000}, "ops/s"), "500 ±>999%"},
		{Mean([]float64{99, 100, 101}, "ops/s"), "100 ±2.5%"},
		{Mean([]float64{1000, 1000.01, 1000.02}, "ops/s"), "1000 ±<0.1%"},
		{Figure(7.256, "ops/s"), "7.26"},
		{Figure(12.34, "us"), "12.3"},
		{Figure(3, ""), "3"},
		{Figure(2.5, ""), "2.50"},
		{Figure(123.6, "us"), "124"},
		{Number(1.25, true), "1.25"},
		{Number(1.25, false), ""},
		{Number(math.NaN(), true), ""},
		{Percent(0.1234), "+12.3%"},
		{Percent(-0.05), "-5.0%"},
		{Percent(math.NaN()), "–"},
		{IDList([]int64{4, 1, 2, 3, 9}), "runs 1–4, 9"},
		{IDList([]int64{7}), "run 7"},
		{Plural(1, "run"), "1 run"},
		{Plural(0, "run"), "0 runs"},
		{Or("", "-"), "-"},
		{Or("x", "-"), "x"},
		{strings.Join(SortedSet(map[string]bool{"b": true, "a": true}), ","), "a,b"},
		{MarkdownText("a*b_[c]|<d>"), `a\*b\_\[c\]\|\<d>`},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

// TestTableEscapes: a table cell holding a newline or an escape sequence
// stays on its row, escaped, and the columns still line up.
func TestTableEscapes(t *testing.T) {
	t.Parallel()
	for _, label := range []string{"two\nlines", "red\x1b[31m", "cr\rhere", "tab\tbed", "del\x7f", "bidi\u202e"} {
		var b bytes.Buffer
		Write(&b, []string{"id", "label", "ops"}, [][]string{{"1", label, "10"}, {"22", "plain", "200"}}, map[int]bool{1: true})
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("%q: %d lines, want 3:\n%s", label, len(lines), b.String())
		}
		if strings.ContainsAny(b.String(), "\r\t\x1b\x7f\u202e") {
			t.Errorf("%q: raw control character in\n%q", label, b.String())
		}
		if len([]rune(lines[1])) != len([]rune(lines[2])) {
			t.Errorf("%q: rows not aligned:\n%s", label, b.String())
		}
	}
}

// TestWriteAs: each format lays out the same table.
func TestWriteAs(t *testing.T) {
	t.Parallel()
	head := []string{"op", "count", "note"}
	rows := [][]string{{"READ", "10", "a|b"}, {"UPDATE", "200", "x,y"}}
	left := map[int]bool{0: true, 2: true}
	tests := []struct {
		f    Format
		want string
	}{
		{Text, "op      count  note\nREAD       10  a|b\nUPDATE    200  x,y\n"},
		{CSV, "op,count,note\nREAD,10,a|b\nUPDATE,200,\"x,y\"\n"},
		{Markdown, "| op | count | note |\n|---|---:|---|\n| READ | 10 | a\\|b |\n| UPDATE | 200 | x,y |\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		WriteAs(&b, tc.f, head, rows, left)
		if b.String() != tc.want {
			t.Errorf("format %d:\n%q\nwant\n%q", tc.f, b.String(), tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]Format{"": Text, "text": Text, "csv": CSV, "markdown": Markdown, "md": Markdown} {
		if got, err := ParseFormat(v); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	if _, err := ParseFormat("html"); err == nil || !strings.Contains(err.Error(), "expected text, csv or markdown") {
		t.Errorf("ParseFormat(html): %v", err)
	}
}
