package historytext

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

func TestOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		check   func(*Options) bool
		wantErr string
	}{
		{nil, func(o *Options) bool { return o.Filter.Limit == DefaultLimit && !o.LimitGiven && o.Format == tt.Text }, ""},
		{[]string{"--limit", "0"}, func(o *Options) bool { return o.Filter.Limit == 0 && o.LimitGiven }, ""},
		{[]string{"--sweep", "sweep:abc", "--phase", "run", "--format", "markdown", "-v", "--changes"}, func(o *Options) bool {
			return o.Filter.SweepID == "abc" && o.Filter.Phase == "run" && o.Format == tt.Markdown && o.Verbose && o.Changes
		}, ""},
		{[]string{"--limit", "-1"}, nil, `history: --limit "-1" is invalid`},
		{[]string{"--limit", "1000000001"}, nil, "from 0 to 1000000000"},
		{[]string{"--format", "xml"}, nil, "history: "},
		{[]string{"--phase", "warmup"}, nil, `history: --phase "warmup" is invalid: expected load or run`},
	}
	if err := NewOptions().Check([]string{"mongodb://u:secret@h/x"}); err == nil || !strings.HasPrefix(err.Error(), "history: unexpected argument") || strings.Contains(err.Error(), "secret") {
		t.Errorf("a positional word: %v", err)
	}
	for _, tc := range tests {
		o := NewOptions()
		err := cmdflag.NewSet("history", o.Flags()).Parse(tc.args)
		if err == nil {
			err = o.Check(nil)
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !tc.check(o) {
			t.Errorf("%v: %+v, %v", tc.args, o, err)
		}
	}
}
