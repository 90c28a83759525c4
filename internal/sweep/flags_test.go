package sweep

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/stats"
)

func TestFlags(t *testing.T) {
	t.Parallel()
	var (
		dims                      []Dim
		repeat                    int
		discard, reload, noReload bool
		outDir                    string
		knee                      stats.KneeOptions
	)
	dest := FlagDest{Dims: &dims, Repeat: &repeat, DiscardFirst: &discard, Reload: &reload, NoReload: &noReload, OutDir: &outDir, Knee: &knee}
	s := cmdflag.NewSet("sweep", Flags(dest))
	err := s.Parse(strings.Fields("--vary threadcount=1,2 --vary target=10,20 --repeat 3 --discard-first --reload --out-dir d --knee-throughput 0.1 --knee-latency 0.3 --max-threads 64"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dims) != 2 || dims[0].Name != "threadcount" || repeat != 3 || !discard || !reload || noReload || outDir != "d" {
		t.Errorf("dims %v repeat %d discard %v reload %v/%v out-dir %q", dims, repeat, discard, reload, noReload, outDir)
	}
	if knee.MinThroughputGain != 0.1 || knee.MinLatencyGrowth != 0.3 || knee.MaxX != 64 {
		t.Errorf("knee %+v", knee)
	}
	for _, tt := range []struct{ args, want string }{
		{"--vary threadcount=1 --vary threadcount=2", "--vary threadcount is given twice: list all its values in one --vary"},
		{"--repeat 0", `--repeat "0" is invalid: expected a whole number of trials from 1 to 10000`},
		{"--out-dir= ", "--out-dir is empty: expected a directory"},
		{"--knee-throughput 0", `--knee-throughput "0" is invalid: expected a fraction > 0 and at most 1000000, such as 0.05 for +5% throughput`},
		{"--max-threads 0", `--max-threads "0" is invalid: expected a whole number from 1 to 1048576`},
	} {
		dims = nil
		s := cmdflag.NewSet("sweep", Flags(dest))
		args := strings.Fields(tt.args)
		if tt.args == "--out-dir= " {
			args = []string{"--out-dir= "}
		}
		if err := s.Parse(args); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.args, err, tt.want)
		}
	}
}
