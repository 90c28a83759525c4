// Package historytext prints what history shows of the results store:
// the listing of runs and, for --changes, the change points of each
// configuration's figures.
package historytext

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	tt "github.com/mongobench/mongobench/internal/texttable"
)

// WriteListing prints runs, a row each, in format f; verbose adds each
// run's command line: a column of its own in CSV and Markdown, a second
// table under the first in text.
func WriteListing(w io.Writer, f tt.Format, runs []store.RunInfo, verbose bool) {
	head := []string{"id", "start (UTC)", "label", "phase", "runtime(s)", "operations", "throughput(ops/s)", "sweep", "point", "trial", "note"}
	// A spreadsheet wants empty cells and every digit; the terminal a dash
	// and the digits that matter.
	none, throughput := "-", func(v float64) string { return tt.Figure(v, "ops/s") }
	if f == tt.CSV {
		none, throughput = "", func(v float64) string { return tt.Number(v, true) }
	}
	command := verbose && f != tt.Text
	if command {
		head = append(head, "command")
	}
	rows := make([][]string, 0, len(runs))
	for _, r := range runs {
		trial, point := "", ""
		if r.SweepID != "" {
			trial = strconv.Itoa(r.Trial)
			m := results.SweepMark{Point: r.Point}
			point = m.Label()
		}
		note := ""
		if r.Partial {
			note = "partial"
		}
		row := []string{
			strconv.FormatInt(r.ID, 10), r.Start.UTC().Format("2006-01-02 15:04:05"), tt.Or(r.Label, none), r.Phase,
			strconv.FormatFloat(float64(r.RuntimeMs)/1000, 'f', 2, 64), strconv.FormatInt(r.Operations, 10),
			throughput(r.Throughput), tt.Or(r.SweepID, none), tt.Or(point, none), tt.Or(trial, none), note,
		}
		if command {
			row = append(row, strings.Join(r.Command, " "))
		}
		rows = append(rows, row)
	}
	left := map[int]bool{1: true, 2: true, 3: true, 7: true, 8: true, 10: true, 11: true}
	tt.WriteAs(w, f, head, rows, left)
	if verbose && f == tt.Text {
		fmt.Fprintln(w)
		cmds := make([][]string, 0, len(runs))
		for _, r := range runs {
			cmds = append(cmds, []string{strconv.FormatInt(r.ID, 10), strings.Join(r.Command, " ")})
		}
		tt.Write(w, []string{"id", "command"}, cmds, map[int]bool{1: true})
	}
}
