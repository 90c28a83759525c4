package cli

import (
	"github.com/mongobench/mongobench/internal/texttable"
)

// tableFormat is --format's choice; texttable lays the tables out.
type tableFormat = texttable.Format

const (
	textFormat = texttable.Text
	csvFormat  = texttable.CSV
)

func parseTableFormat(v string) (tableFormat, error) { return texttable.ParseFormat(v) }

func plural(n int, word string) string { return texttable.Plural(n, word) }
