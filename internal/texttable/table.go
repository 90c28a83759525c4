// Package texttable lays out the tables and figures that mongobench's
// commands print: aligned text for the terminal, CSV for spreadsheets,
// Markdown for slides and notes.
package texttable

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/printable"
)

// Format is how a command prints its tables.
type Format int

// The formats --format accepts.
const (
	Text Format = iota
	CSV
	Markdown
)

// ParseFormat reads --format's value; "" is Text.
func ParseFormat(v string) (Format, error) {
	switch v {
	case "", "text":
		return Text, nil
	case "csv":
		return CSV, nil
	case "markdown", "md":
		return Markdown, nil
	}
	return 0, fmt.Errorf("--format %q is invalid: expected text, csv or markdown", v)
}

// Write prints rows under head in aligned columns: numbers to the right,
// the columns in left to the left. The last column is not padded.
func Write(w io.Writer, head []string, rows [][]string, left map[int]bool) {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(printable.String(c))))
		}
	}
	for _, r := range append([][]string{head}, rows...) {
		fmt.Fprintln(w, Row(r, widths, left))
	}
}

// Row pads the cells of one table row to widths. A cell's control
// characters are escaped: a label holding a newline would break the table.
func Row(cells []string, widths []int, left map[int]bool) string {
	var b strings.Builder
	for i, c := range cells {
		c = printable.String(c)
		if i > 0 {
			b.WriteString("  ")
		}
		pad := max(0, widths[i]-len([]rune(c)))
		switch {
		case i == len(cells)-1 && left[i]:
			b.WriteString(c)
		case left[i]:
			b.WriteString(c + strings.Repeat(" ", pad))
		default:
			b.WriteString(strings.Repeat(" ", pad) + c)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// WriteAs prints a table in format f; Text is Write's.
func WriteAs(w io.Writer, f Format, head []string, rows [][]string, left map[int]bool) {
	switch f {
	case CSV:
		cw := csv.NewWriter(w)
		_ = cw.Write(head)
		_ = cw.WriteAll(rows) // WriteAll flushes
	case Markdown:
		fmt.Fprintln(w, MarkdownRow(head))
		seps := make([]string, len(head))
		for i := range head {
			seps[i] = "---:"
			if left[i] {
				seps[i] = "---"
			}
		}
		fmt.Fprintln(w, "|"+strings.Join(seps, "|")+"|")
		for _, r := range rows {
			fmt.Fprintln(w, MarkdownRow(r))
		}
	default:
		Write(w, head, rows, left)
	}
}

// MarkdownRow is one row of a Markdown table; a cell's pipes are escaped
// and its control characters shown, so that no cell breaks the table.
func MarkdownRow(cells []string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + strings.ReplaceAll(printable.String(c), "|", `\|`) + " |")
	}
	return b.String()
}

// MarkdownText escapes what Markdown would take for markup in a line of
// text given by the user.
func MarkdownText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "|", `\|`, "[", `\[`, "]", `\]`, "<", `\<`)
	return r.Replace(printable.String(s))
}
