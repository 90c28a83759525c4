package diagnosis

import (
	"strings"

	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
)

// SummaryLines are the [DIAGNOSIS] lines of the text summary, in YCSB's
// `[NAME], measurement, value` shape:
//
//	[DIAGNOSIS], Limit, server CPU
//	[DIAGNOSIS], Limits, server CPU; disk (borderline)
//	[DIAGNOSIS], Evidence(server CPU), the server's host CPUs were 96.1% busy …
//	[DIAGNOSIS], CannotJudge, WiredTiger cache: not reported by this server
//	[DIAGNOSIS], Note, …
//
// Limit is the verdict alone, for scripts; Limits appears when there are
// several, strongest first. Like the [SERVER] and [CLIENT] lines, they are
// made beside the figures they print, and keep to three fields: the
// commas of a sentence become semicolons.
func SummaryLines(d *results.Diagnosis) []string {
	lines := summaryLines(d)
	for i, l := range lines {
		measurement, value, _ := strings.Cut(strings.TrimPrefix(l, "[DIAGNOSIS], "), ", ")
		lines[i] = "[DIAGNOSIS], " + measurement + ", " + printable.Field(value)
	}
	return lines
}

func summaryLines(d *results.Diagnosis) []string {
	if d == nil {
		return nil
	}
	const name = "[DIAGNOSIS], "
	lines := []string{name + "Limit, " + d.Verdict}
	if len(d.Limits) > 1 {
		v := ""
		for i, l := range d.Limits {
			if i > 0 {
				v += "; "
			}
			v += LimitName(l)
		}
		lines = append(lines, name+"Limits, "+v)
	}
	for _, l := range d.Limits {
		for _, e := range l.Evidence {
			lines = append(lines, name+"Evidence("+l.Kind+"), "+e)
		}
	}
	for _, c := range d.CannotJudge {
		lines = append(lines, name+"CannotJudge, "+c)
	}
	for _, n := range d.Notes {
		lines = append(lines, name+"Note, "+n)
	}
	return lines
}

// LimitName is a limit's kind, marked when it is borderline.
func LimitName(l results.Limit) string {
	if l.Borderline {
		return l.Kind + " (borderline)"
	}
	return l.Kind
}
