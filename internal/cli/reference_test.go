package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// TestReferenceCommands keeps docs/reference/commands.md the help of
// every command as the binary prints it, and the exit codes: the
// reference is generated from the code, never written beside it (go test
// ./internal/cli -run TestReferenceCommands -update rewrites it).
func TestReferenceCommands(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Command reference\n\n")
	b.WriteString("Generated from the code (`go test ./internal/cli -run TestReferenceCommands -update`): each\n")
	b.WriteString("command's help as `mongobench COMMAND --help` prints it, then the exit codes.\n\n")
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		fmt.Fprintf(&b, "- [mongobench %s](#mongobench-%s)\n", c.name, c.name)
	}
	b.WriteString("- [Exit codes](#exit-codes)\n")
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		fmt.Fprintf(&b, "\n## mongobench %s\n\n```text\n%s\n```\n", c.name, strings.TrimRight(c.help(), "\n"))
	}
	b.WriteString("\n## Exit codes\n\n| code | meaning |\n|---|---|\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "| %d | %s |\n", e.code, e.meaning)
	}
	golden.CheckFile(t, "../../docs/reference/commands.md", b.String())
}
