package stats

import "testing"

func TestParseAlpha(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{{"0.05", 0.05, true}, {"0.5", 0.5, true}, {"0", 0, false}, {"1", 0, false}, {"1.5", 0, false}, {"x", 0, false}} {
		got, err := ParseAlpha(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseAlpha(%q) = %v, %v", tt.in, got, err)
		}
		if err != nil && err.Error() != `--alpha "`+tt.in+`" is invalid: expected a significance level between 0 and 1, such as 0.05` {
			t.Errorf("ParseAlpha(%q): %v", tt.in, err)
		}
	}
}
