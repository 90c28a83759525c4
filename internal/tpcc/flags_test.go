package tpcc

import (
	"slices"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

func TestRunArgs(t *testing.T) {
	t.Parallel()
	got := RunArgs([]string{"-threads", "4", "--no-check", "-p", "maxexecutiontime=5", "-no-check"})
	want := []string{"-p", "workload=tpcc", "-p", "maxexecutiontime=60", "-threads", "4", "-p", "tpcc.check=false",
		"-p", "maxexecutiontime=5", "-p", "tpcc.check=false"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestFlags(t *testing.T) {
	t.Parallel()
	var g Given
	if err := cmdflag.NewSet("tpcc load", g.Flags()).Parse(strings.Fields("-p warehouses=2 --data-dir d --part 0/2 --drop -p seed=1")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Props, []string{"warehouses=2", "seed=1"}) || g.DataDir != "d" || g.Part != "0/2" || !g.Drop {
		t.Errorf("given %+v", g)
	}
}

func TestCheckDrop(t *testing.T) {
	t.Parallel()
	s, err := ResolveSettings(nil, "0/2", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckDrop(true); err == nil || !strings.Contains(err.Error(), "--drop with --part 0/2 is refused") {
		t.Errorf("a part's drop: %v", err)
	}
	if err := s.CheckDrop(false); err != nil {
		t.Errorf("a part without drop: %v", err)
	}
}
