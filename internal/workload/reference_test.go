package workload

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// propertyTable renders KnownProperties as the reference's markdown table.
func propertyTable() string {
	var b strings.Builder
	b.WriteString("| property | default | meaning |\n|---|---|---|\n")
	for _, k := range KnownProperties {
		def := k.Default
		if def == "" {
			def = "—"
		} else {
			def = "`" + def + "`"
		}
		b.WriteString("| `" + k.Name + "` | " + def + " | " + strings.ReplaceAll(k.Help, "|", `\|`) + " |\n")
	}
	return b.String()
}

// TestReferenceProperties keeps docs/reference/properties.md the list of
// properties the code reads, with their defaults (go test
// ./internal/workload -run TestReferenceProperties -update rewrites it).
func TestReferenceProperties(t *testing.T) {
	t.Parallel()
	doc := "# Properties\n\n" +
		"Generated from the code (`go test ./internal/workload -run TestReferenceProperties -update`): every\n" +
		"property mongobench reads, its default and what it does. Set them in a workload file (`-P`) or\n" +
		"with `-p NAME=VALUE`, as YCSB does; `-p` wins over the files. A property mongobench does not know\n" +
		"is said on stderr, with the nearest known name.\n\n" + propertyTable()
	golden.CheckFile(t, "../../docs/reference/properties.md", doc)
}
