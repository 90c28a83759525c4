package report

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/printable"
)

// TestRenderEscapesControlCharacters puts control characters where users
// and servers put text (the title, a run's label, its command and its
// configuration): the page must hold none of them, each shown escaped.
func TestRenderEscapesControlCharacters(t *testing.T) {
	t.Parallel()
	for _, evil := range []string{"a\x1b[2Jb", "bell\x07", "nul\x00", "c1\u0085", "bidi\u202eevil", "del\x7f"} {
		in := singleInput(t)
		in.Title = "title " + evil
		r := in.Runs[0]
		r.Label = "label " + evil
		r.Command = append(r.Command, "-p", "note="+evil)
		if r.Config == nil {
			r.Config = map[string]string{}
		}
		r.Config["note"] = evil
		page := render(t, in)
		if !printable.Clean(strings.NewReplacer("\n", "", "\r", "", "\t", "").Replace(page)) {
			t.Errorf("%q: the page holds control characters", evil)
		}
		// html/template itself turns a NUL into U+FFFD.
		if want := printable.String(evil); !strings.Contains(evil, "\x00") && !strings.Contains(page, want) {
			t.Errorf("%q: the page does not show it as %q", evil, want)
		}
	}
}
