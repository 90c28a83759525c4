package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
)

// writeRanOn prints what each configuration of the study ran on, which
// properties differ between them, and the warnings: configurations that
// differ in several things at once, runs of one configuration on
// different servers, a data size that changed along a sweep. Nothing
// when the runs recorded none of it.
func writeRanOn(w io.Writer, st *analysis.Study) {
	names := make([]string, len(st.Configs))
	groups := make([][]analysis.Run, len(st.Configs))
	for i, c := range st.Configs {
		names[i], groups[i] = c.Name, c.Runs
	}
	ro := analysis.GroupsRanOn(names, groups, st)
	warnings := ro.Warnings
	for _, c := range analysis.Confounders(names, groups) {
		warnings = append(warnings, c.String())
	}
	if len(ro.Rows) > 0 {
		fmt.Fprintln(w, "ran on:")
		rows := make([][]string, 0, len(ro.Rows))
		for _, r := range ro.Rows {
			row := []string{r.Property}
			for _, v := range r.Values {
				row = append(row, orText(v.Text(), "not recorded"))
			}
			rows = append(rows, row)
		}
		left := map[int]bool{}
		for i := range len(names) + 1 {
			left[i] = true
		}
		writeTable(w, append([]string{""}, names...), rows, left)
		var differ []string
		for _, r := range ro.Differing() {
			differ = append(differ, r.Property)
		}
		switch {
		case len(names) < 2:
		case len(differ) == 0:
			fmt.Fprintln(w, "differ: in nothing recorded (server, engine, topology, hosts)")
		default:
			fmt.Fprintf(w, "differ: %s\n", strings.Join(differ, ", "))
		}
	}
	for _, s := range warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}
