package partition

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

func TestFlags(t *testing.T) {
	t.Parallel()
	var g Given
	s := cmdflag.NewSet("run", g.Flags())
	if err := s.Parse([]string{"--part", "1/4", "--parts", "4", "--run-id", "r1", "--barrier-timeout", "30s"}); err != nil {
		t.Fatal(err)
	}
	if want := (Given{Part: "1/4", Parts: 4, RunID: "r1", BarrierTimeout: 30 * time.Second}); g != want {
		t.Errorf("given %+v, want %+v", g, want)
	}
	for _, tt := range []struct{ args, want string }{
		{"--parts 0", `--parts "0" is invalid: expected a number of parts from 1 to `},
		{"--barrier-timeout -1s", `--barrier-timeout "-1s" is invalid: expected a duration greater than 0`},
		{"--start-at yesterday", `--start-at "yesterday" is invalid: expected a time in RFC 3339 form`},
	} {
		var g Given
		s := cmdflag.NewSet("run", g.Flags())
		if err := s.Parse(strings.Fields(tt.args)); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestParseStartAt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		in, want string
	}{
		{"2026-01-02T16:00:00Z", ""},
		{" 2026-01-02T14:00:00Z ", ""}, // past: starts at once
		{"2026-01-03T16:00:00Z", "--start-at 2026-01-03T16:00:00Z is 25h0m0s from now: expected an instant within 24 hours"},
		{"2036-01-02T15:00:00Z", "--start-at 2036-01-02T15:00:00Z is 3652 days from now"},
	}
	for _, tt := range tests {
		_, err := parseStartAt(tt.in, now)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.in, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%q: %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestShortArg(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 50)
	if got, want := shortArg(long), strings.Repeat("é", 40)+"… (50 characters)"; got != want {
		t.Errorf("shortArg = %q, want %q", got, want)
	}
	if got := shortArg("mongodb://u:secret@h/"); strings.Contains(got, "secret") {
		t.Errorf("shortArg kept the password: %q", got)
	}
}
