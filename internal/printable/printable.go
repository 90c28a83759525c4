// Package printable makes user-provided text safe to show on a terminal or
// in a one-line-per-record format: a label, a property name or a server's
// error message holding a newline would break a table or a summary line,
// and one holding an escape sequence would drive the user's terminal.
package printable

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every control character, invalid UTF-8 byte and
// line or paragraph separator written as a Go escape (\n, \x1b, \u2028);
// text without them is returned as is. Backslashes are left alone, so the
// result is for reading, not for parsing back.
func String(s string) string { return escape(s, false) }

// Text is String for text of several lines, such as a whole page: line
// feeds, carriage returns and tabs are kept.
func Text(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	if Clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i]), 16))
		case lines && (r == '\n' || r == '\r' || r == '\t'):
			b.WriteRune(r)
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Clean reports whether s holds nothing String would escape.
func Clean(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafeRune reports the runes a terminal acts on or a line-based reader
// splits on: C0 and C1 controls, DEL, U+2028 and U+2029, the
// bidirectional overrides that can make text display as other text, and
// U+FFFE and U+FFFF, which are no characters and which XML, and so a
// page read as XHTML, refuses.
func unsafeRune(r rune) bool {
	switch {
	case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\ufffe', r == '\uffff':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// Field returns s made fit for one field of a summary line in YCSB's
// `[SECTION], name, value` shape: String's escapes, and every comma
// written as a semicolon, so that a reader splitting the line on commas
// (awk -F', ', a CSV reader) always finds exactly three fields.
func Field(s string) string {
	s = String(s)
	if !strings.Contains(s, ",") {
		return s
	}
	return strings.ReplaceAll(s, ",", ";")
}
