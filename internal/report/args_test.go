package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

func TestArgsOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		refs    []string
		want    Options
		wantErr string
	}{
		{refs: []string{"a"}, want: Options{Alpha: 0.05}},
		{args: []string{"--alpha", "0.1", "--knee-throughput", "0.1", "--knee-latency", "0.5", "--title", "T", "--allow-different", "phase"}, refs: []string{"a", "b"},
			want: Options{Alpha: 0.1, Title: "T", Allowed: []string{"phase"}}},
		{args: []string{"--knee-throughput", "0"}, refs: []string{"a"}, wantErr: "--knee-throughput"},
		{args: []string{"--knee-latency", "x"}, refs: []string{"a"}, wantErr: "--knee-latency"},
		{args: []string{"--alpha", "0"}, refs: []string{"a"}, wantErr: "--alpha"},
		{args: []string{"-o", " "}, refs: []string{"a"}, wantErr: "-o is empty"},
		{refs: nil, wantErr: "no runs named"},
		{refs: strings.Split(strings.Repeat("x,", 30)+"x", ","), wantErr: "at most"},
	}
	for _, tc := range tests {
		a := NewArgs()
		if err := cmdflag.NewSet("report", a.Flags()).Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		got, err := a.Options(tc.refs)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.Alpha != tc.want.Alpha || got.Title != tc.want.Title || strings.Join(got.Allowed, ",") != strings.Join(tc.want.Allowed, ",") {
			t.Errorf("%v: %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
	a := NewArgs()
	_ = cmdflag.NewSet("report", a.Flags()).Parse([]string{"--knee-throughput", "0.1", "--knee-latency", "0.5"})
	if o, _ := a.Options([]string{"a"}); o.Knee.MinThroughputGain != 0.1 || o.Knee.MinLatencyGrowth != 0.5 {
		t.Errorf("knee thresholds %+v, want 0.1 and 0.5", o.Knee)
	}
}

func TestCheckDefaultOut(t *testing.T) {
	t.Parallel()
	page := filepath.Join(t.TempDir(), "report.html")
	a := &Args{Out: page}
	if err := a.CheckDefaultOut(); err != nil {
		t.Fatalf("no file there: %v", err)
	}
	if err := os.WriteFile(page, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := a.CheckDefaultOut(); err == nil || !strings.Contains(err.Error(), "no -o names it") {
		t.Errorf("a page standing at the default: %v", err)
	}
	a.OutNamed = true
	if err := a.CheckDefaultOut(); err != nil {
		t.Errorf("named with -o: %v", err)
	}
}
