package comparetext

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

func TestArgsOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		refs    []string
		want    Options
		wantErr string
	}{
		{refs: []string{"a", "b"}, want: Options{Refs: []string{"a", "b"}, Alpha: 0.05}},
		{args: []string{"--alpha", "0.01", "--baseline", "B", "--format", "csv", "--allow-different", "phase"}, refs: []string{"a", "b"},
			want: Options{Refs: []string{"a", "b"}, Alpha: 0.01, Baseline: 1, Format: tt.CSV, Allowed: []string{"phase"}}},
		{args: []string{"--alpha", "1"}, refs: []string{"a", "b"}, wantErr: "--alpha"},
		{args: []string{"--format", "xml"}, refs: []string{"a", "b"}, wantErr: "xml"},
		{refs: []string{"a"}, wantErr: "need at least two groups"},
		{refs: strings.Split(strings.Repeat("x,", 30)+"x", ","), wantErr: "at most"},
		{args: []string{"--baseline", "c"}, refs: []string{"a", "b"}, wantErr: "--baseline"},
		{args: []string{"--fail-on", "p(99)>+10%"}, refs: []string{"a", "b"}, want: Options{Refs: []string{"a", "b"}, Alpha: 0.05}},
	}
	for _, tc := range tests {
		a := NewArgs()
		s := cmdflag.NewSet("compare", a.Flags())
		if err := s.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		got, err := a.Options(tc.refs)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v %v: error %v, want one naming %q", tc.args, tc.refs, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got.Alpha != tc.want.Alpha || got.Baseline != tc.want.Baseline || got.Format != tc.want.Format ||
			strings.Join(got.Refs, " ") != strings.Join(tc.want.Refs, " ") || strings.Join(got.Allowed, " ") != strings.Join(tc.want.Allowed, " ") {
			t.Errorf("%v: got %+v, want %+v", tc.args, got, tc.want)
		}
		if strings.Contains(strings.Join(tc.args, " "), "fail-on") != a.Gates.Set() {
			t.Errorf("%v: gates set = %v", tc.args, a.Gates.Set())
		}
	}
}
