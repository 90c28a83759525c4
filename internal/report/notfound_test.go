package report

import (
	"strings"
	"testing"
)

// TestNotFoundBanner: a run whose key lookups all found nothing (run
// against a collection never loaded) is named at the top of the page, by
// the rule that made it exit 1; one with a share of NOT_FOUND that YCSB's
// workloads can give is not.
func TestNotFoundBanner(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status map[string]map[string]int64
		want   string
	}{
		{"all NOT_FOUND", map[string]map[string]int64{"READ": {"NOT_FOUND": 151}, "UPDATE": {"NOT_FOUND": 149}},
			"every one of the 300 key lookups (READ/UPDATE) returned NOT_FOUND: the collection holds none of the keys looked up"},
		{"a short collection", map[string]map[string]int64{"READ": {"OK": 90, "NOT_FOUND": 210}}, ""},
		{"a load", map[string]map[string]int64{"INSERT": {"OK": 300}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := singleInput(t)
			in.Runs[0].Status = tt.status
			page := render(t, in)
			has := strings.Contains(page, "measured nothing: ")
			switch {
			case tt.want == "" && has:
				t.Errorf("the page warns of NOT_FOUND for %v", tt.status)
			case tt.want != "" && !strings.Contains(page, `<div class="banner" role="alert">`):
				t.Errorf("no banner")
			case tt.want != "" && !strings.Contains(page, "measured nothing: "+tt.want):
				t.Errorf("the page does not say %q", tt.want)
			}
		})
	}
}
