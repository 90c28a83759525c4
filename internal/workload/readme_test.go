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
