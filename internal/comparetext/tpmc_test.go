package comparetext

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// TestWriteTpmC: compare's table of TPC-C runs has their tpmC, after the
// throughput, with its interval and verdict; other runs' has none.
func TestWriteTpmC(t *testing.T) {
	t.Parallel()
	tpcc := func(g []analysis.Run, tpmC ...float64) []analysis.Run {
		for i, r := range g {
			r.Res.Extra = &results.Extra{TPCC: &results.TPCC{TpmC: tpmC[i], Warehouses: 1}}
		}
		return g
	}
	var out bytes.Buffer
	st := newStudy(t, tpcc(group(t, "base", nil, 1000, 1010, 990), 300, 306, 294), tpcc(group(t, "new", nil, 1000, 1010, 990), 200, 204, 196))
	Write(&out, tt.Text, []string{"base", "new"}, st)
	// 300 ± 4.303·6/√3 = ±14.9 (5.0%); 200 ± 9.9 (5.0%).
	row := regexp.MustCompile(`(?m)^OVERALL +tpmC +300 ±5\.0% +200 ±5\.0% +-33\.3% +.*worse`)
	if !row.MatchString(out.String()) {
		t.Errorf("no tpmC row of 300 against 200, worse:\n%s", out.String())
	}
	out.Reset()
	Write(&out, tt.Text, []string{"base", "new"}, newStudy(t, group(t, "base", nil, 1000, 1010, 990), group(t, "new", nil, 900, 905, 895)))
	if bytes.Contains(out.Bytes(), []byte("tpmC")) {
		t.Errorf("YCSB runs compared with a tpmC:\n%s", out.String())
	}
}
