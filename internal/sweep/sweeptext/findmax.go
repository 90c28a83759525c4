package sweeptext

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/findmax"
	"github.com/mongobench/mongobench/internal/sweep"
	tt "github.com/mongobench/mongobench/internal/texttable"
	"github.com/mongobench/mongobench/internal/threshold"
)

// WriteFindMax prints a find-max search: its steps, then its answer
// against the objective and the rules every rate tried had to meet.
func WriteFindMax(w io.Writer, res findmax.Result, objective []threshold.Threshold) {
	names := make([]string, len(objective))
	for i, t := range objective {
		names[i] = t.String()
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "find-max steps:")
	rows := make([][]string, 0, len(res.Steps))
	for i, st := range res.Steps {
		verdict := "pass"
		if !st.Pass {
			verdict = "fail: " + st.Why
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), st.Phase, tt.Figure(st.Target, "ops/s"), verdict})
	}
	tt.Write(w, []string{"step", "phase", "target", "verdict"}, rows, map[int]bool{1: true, 3: true})
	fmt.Fprintf(w, "find-max: %s at %s (achieved >= %.0f%% of the target, median schedule lag <= %g ms)\n",
		res.Text(), strings.Join(names, " and "), 100*sweep.MinAchieved, float64(sweep.MaxMedianLagUs)/1000)
}
