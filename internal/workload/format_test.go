package workload

import (
	"strings"
	"testing"
)

// TestFormatRoundTrip: Format writes what Parse reads back exactly, for
// keys and values holding every character the properties grammar gives
// a meaning: separators, escapes, comment marks, white space at either
// end, backslashes (a trailing one would continue the line), line
// breaks, control characters and a byte-order mark.
func TestFormatRoundTrip(t *testing.T) {
	t.Parallel()
	p := NewProperties()
	for k, v := range map[string]string{
		"plain":                 "value",
		"mongodb.url":           "mongodb://bob:hunter2@db:27017/ycsb?w=1&password=x",
		"key with spaces":       "  leading and trailing  ",
		"key=with:separators":   "=starts with a separator",
		":colon":                ":value",
		"#hash":                 "#not a comment",
		"!bang":                 "!not a comment",
		"trailing\\":            "ends with a backslash\\",
		"two\\\\":               "\\\\",
		"tab\tkey":              "tab\tnewline\ncr\rff\f",
		"\ufeffbom":             "\ufeffvalue",
		"ctl\x01":               "bell\a esc\x1b del\x7f c1\u0085",
		"unicode é 日本":          "snow ☃ and 𝄞",
		"empty":                 "",
		"\\u0041 looks escaped": "\\u0041",
		" ":                     " ",
	} {
		p.Set(k, v, "test")
	}
	var b strings.Builder
	if err := Format(&b, p); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(strings.NewReader(b.String()), "formatted")
	if err != nil {
		t.Fatalf("Parse of Format's output: %v\n%s", err, b.String())
	}
	if got, want := back.Keys(), p.Keys(); strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("keys %q, want %q\n%s", got, want, b.String())
	}
	for _, k := range p.Keys() {
		want, _ := p.Get(k)
		if got, _ := back.Get(k); got != want {
			t.Errorf("%q = %q after the round trip, want %q", k, got, want)
		}
	}
	if n := strings.Count(b.String(), "\n"); n != len(p.Keys()) {
		t.Errorf("%d lines for %d properties: each property is one line\n%s", n, len(p.Keys()), b.String())
	}
}
