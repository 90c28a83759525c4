package workload

import (
	"os"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

const (
	tableStart = "<!-- properties:start -->"
	tableEnd   = "<!-- properties:end -->"
)

// propertyTable renders KnownProperties as the README's markdown table.
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

// TestREADMEPropertyTable keeps the README's list of properties the same
// as the one the code validates against (go test -update rewrites it).
func TestREADMEPropertyTable(t *testing.T) {
	const path = "../../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i, j := strings.Index(readme, tableStart), strings.Index(readme, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %s … %s markers", tableStart, tableEnd)
	}
	want := tableStart + "\n" + propertyTable() + tableEnd
	got := readme[i : j+len(tableEnd)]
	if got == want {
		return
	}
	if golden.Updating() {
		if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j+len(tableEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's property table is out of date: run go test ./internal/workload -run TestREADMEPropertyTable -update")
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
