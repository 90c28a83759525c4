package golden

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, got, want string
		// wantMsg is a part of the description; "" means equal.
		wantMsg string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"empty both", "", "", ""},
		{"second line, third column", "a\nbcX\n", "a\nbcY\n", "at line 2, column 3 (the output has 3 lines, the file 3)"},
		{"output longer", "a\nb\n", "a\n", "at line 2, column 1 (the output has 3 lines, the file 2)"},
		{"missing final newline", "a", "a\n", "at line 2, column 1 (the output has 1 lines, the file 2)"},
		{"long line shown from near the change", strings.Repeat("x", 200) + "1", strings.Repeat("x", 200) + "2", `got:  "` + strings.Repeat("x", 80) + `1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			msg := diff([]byte(tt.got), []byte(tt.want))
			if tt.wantMsg == "" {
				if msg != "" {
					t.Fatalf("diff of equal inputs = %q, want \"\"", msg)
				}
				return
			}
			if !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("diff = %q, want it to contain %q", msg, tt.wantMsg)
			}
		})
	}
}
