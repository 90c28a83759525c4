package bench

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

func TestLimitsFlags(t *testing.T) {
	t.Parallel()
	var l Limits
	if err := cmdflag.NewSet("run", l.Flags()).Parse(strings.Fields("--max-errors 5 --max-error-rate 0.5")); err != nil {
		t.Fatal(err)
	}
	if l.MaxErrors != 5 || l.MaxErrorRate != 0.5 {
		t.Errorf("limits %+v", l)
	}
	for _, tt := range []struct{ args, want string }{
		{"--max-errors -1", `--max-errors "-1" is invalid: expected a whole number >= 0 (0 = never stop on errors)`},
		{"--max-errors 1.5", `--max-errors "1.5" is invalid`},
		{"--max-error-rate 0", `--max-error-rate "0" is invalid: expected a fraction of failed operations greater than 0 and at most 1, such as 0.5`},
		{"--max-error-rate 1.01", `--max-error-rate "1.01" is invalid`},
	} {
		var l Limits
		if err := cmdflag.NewSet("run", l.Flags()).Parse(strings.Fields(tt.args)); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.args, err, tt.want)
		}
	}
}
