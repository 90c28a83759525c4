package analysis

import (
	"slices"
	"strings"
	"testing"
)

func TestParseBaseline(t *testing.T) {
	t.Parallel()
	refs := []string{"a.json", "b.json", "label:c"}
	tests := []struct {
		v    string
		want int
		says string
	}{
		{"", 0, ""}, {"b.json", 1, ""}, {"label:c", 2, ""}, {"C", 2, ""}, {"b", 1, ""},
		{"D", 0, `--baseline "D" names no group: expected one of the groups as given or its letter, A to C`},
		{"c", 2, ""}, {"x.json", 0, "names no group"},
	}
	for _, tc := range tests {
		got, err := ParseBaseline(tc.v, refs)
		if tc.says != "" {
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("ParseBaseline(%q): %v, want an error saying %q", tc.v, err, tc.says)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseBaseline(%q) = %d, %v; want %d", tc.v, got, err, tc.want)
		}
	}
}

func TestParseAllowed(t *testing.T) {
	t.Parallel()
	got, err := ParseAllowed("fieldcount, phase,fieldcount")
	if err != nil || !slices.Equal(got, []string{"fieldcount", "phase"}) {
		t.Errorf("ParseAllowed = %q, %v; want fieldcount and phase once each", got, err)
	}
	if got, err := ParseAllowed(""); err != nil || got != nil {
		t.Errorf("ParseAllowed(\"\") = %q, %v", got, err)
	}
	if _, err := ParseAllowed("fieldcount,mongodb.url"); err == nil || !strings.Contains(err.Error(), `"mongodb.url" is no property that shapes the work`) {
		t.Errorf("the URL allowed to differ: %v", err)
	}
}
