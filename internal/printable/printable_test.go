package printable

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain label", "plain label"},
		{"données — 速い", "données — 速い"}, // printable non-ASCII is kept
		{`back\slash`, `back\slash`},
		{"two\nlines", `two\nlines`},
		{"tab\there", `tab\there`},
		{"cr\rreturn", `cr\rreturn`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"nul\x00byte", `nul\x00byte`},
		{"del\x7f", `del\x7f`},
		{"c1\u0085next", `c1\u0085next`},
		{"line\u2028sep", `line\u2028sep`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"not a character\uffff\ufffe", `not a character\uffff\ufffe`},
		{"isolate\u2066x\u2069", `isolate\u2066x\u2069`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if Clean(tt.in) != (tt.in == tt.want) {
			t.Errorf("Clean(%q) = %v", tt.in, Clean(tt.in))
		}
	}
}

// FuzzString checks that the output is always clean, valid UTF-8 and one
// line, and that clean text is left alone.
func FuzzString(f *testing.F) {
	for _, s := range []string{"a", "a\nb", "\x1b]0;title\x07", "\xff\xfe", "\u202e", "é", "\r\n", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if !Clean(out) || !utf8.ValidString(out) || strings.ContainsAny(out, "\n\r") {
			t.Fatalf("String(%q) = %q", s, out)
		}
		if Clean(s) && out != s {
			t.Fatalf("clean %q changed to %q", s, out)
		}
	})
}

func TestText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"<p>a\n\tb\r\n</p>", "<p>a\n\tb\r\n</p>"},
		{"<td>run\x1b[2J</td>\n", "<td>run\\x1b[2J</td>\n"},
		{"bell\x07\u0085\u202e", `bell\a\u0085\u202e`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestField(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"user 70.1%, system 26.0%", "user 70.1%; system 26.0%"},
		{"a,b", "a;b"},
		{"line\nbreak, and comma", `line\nbreak; and comma`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Field(tt.in); got != tt.want {
			t.Errorf("Field(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
