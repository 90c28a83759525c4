package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadNotes: the conclusion is read whole; a missing, oversized or
// binary file is refused, naming --notes and what it accepts.
func TestReadNotes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := file("ok.md", []byte("# Conclusion\n\nB is faster.\n"))
	tests := []struct {
		path, want, says string
	}{
		{"", "", ""},
		{ok, "# Conclusion\n\nB is faster.\n", ""},
		{filepath.Join(dir, "none.md"), "", "expected a Markdown file with your conclusion"},
		{dir, "", "--notes: "},
		{file("big.md", make([]byte, MaxNotesBytes+1)), "", "is over 256 KiB: expected a conclusion of a few paragraphs"},
		{file("bin.md", []byte{0xff, 0xfe, 'x'}), "", "is not UTF-8 text: expected a Markdown file"},
	}
	for _, tc := range tests {
		got, err := ReadNotes(tc.path)
		if tc.says == "" {
			if err != nil || got != tc.want {
				t.Errorf("ReadNotes(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(err.Error(), "--notes") {
			t.Errorf("ReadNotes(%q): %v, want an error saying %q", tc.path, err, tc.says)
		}
	}
}
