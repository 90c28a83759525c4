// Package redact removes secrets from text before it is shown or written:
// the password of a connection string's userinfo and the values of the
// connection-string options that carry secrets. It is the one place that
// knows what a secret looks like. Whole values (a URL, a property value, an
// argument) go through URL or Args, which know where the value ends; free
// text (messages, log lines) goes through Text, and the terminal streams and
// log files through a Writer, which applies Text to everything written.
//
// A password may hold anything a user can type: quotes, backslashes, '@',
// ':', '/', '%', spaces, tabs and non-ASCII, escaped or not, and the URL may
// have lost its scheme ("user:pw@host") or mangled it ("mongodb:/user:pw@").
// So userinfo is found from its '@' and not by parsing: everything from the
// first ':' of the userinfo up to the last '@' is the password. When that
// masks more than the password, nothing secret is shown either.
package redact

import (
	"io"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Mask replaces a secret.
const Mask = "***"

// secretOptions are the connection-string options whose whole value is a
// secret: the driver's (tlsCertificateKeyFilePassword and its legacy alias
// sslClientCertificateKeyPassword) and those other drivers accept.
var secretOptions = []string{"tlsCertificateKeyFilePassword", "sslClientCertificateKeyPassword", "sslPEMKeyPassword", "password"}

// secretProperties are the authMechanismProperties whose value is a secret.
var secretProperties = []string{"AWS_SESSION_TOKEN"}

// Option values end at the next option in a whole URL; in free text they
// also end at white space or a quote, as nothing else marks their end. An
// '=' or ':' may be percent-encoded.
var (
	optionInURL = regexp.MustCompile(`(?i)((?:` + strings.Join(secretOptions, "|") + `)(?:=|%3D))[^&;]*` +
		`|((?:` + strings.Join(secretProperties, "|") + `)(?::|%3A))[^,&;]*`)
	optionInText = regexp.MustCompile(`(?i)((?:` + strings.Join(secretOptions, "|") + `)(?:=|%3D))[^&;\s"'` + "`" + `]*` +
		`|((?:` + strings.Join(secretProperties, "|") + `)(?::|%3A))[^,&;\s"'` + "`" + `]*`)
)

// mayHoldSecret is the cheap test that lets text without any secret through
// untouched: userinfo needs an '@', and every secret option's name holds
// one of these words.
func mayHoldSecret(s string) bool {
	if strings.IndexByte(s, '@') >= 0 {
		return true
	}
	l := strings.ToLower(s)
	return strings.Contains(l, "password") || strings.Contains(l, "session_token")
}

// span is a secret's place in a string: [from, to).
type span struct{ from, to int }

// optionSpans lists where the values of secret options are in s.
func optionSpans(re *regexp.Regexp, s string) []span {
	var out []span
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		from := m[3]
		if from < 0 {
			from = m[5]
		}
		out = append(out, span{from, m[1]})
	}
	return out
}

// mask replaces the spans of s, found on s as it is, by Mask: a password
// and an option value may overlap or hold each other, and masking one
// first would hide where the other is.
func mask(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	pos := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].from <= cur.to; i++ {
			cur.to = max(cur.to, spans[i].to)
		}
		if cur.from < pos {
			cur.from = pos
		}
		b.WriteString(s[pos:cur.from])
		b.WriteString(Mask)
		pos = cur.to
	}
	b.WriteString(s[pos:])
	return b.String()
}

// URL returns s, one connection string (or anything typed where one was
// expected), with its password and secret option values replaced by ***.
// The userinfo runs from after the scheme (or the start, when there is
// none) to the last '@': the driver itself takes the first '@', so a
// password can never reach past the last one.
func URL(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	spans := optionSpans(optionInURL, s)
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		if p := passwordStart(s[:at], true); p >= 0 {
			spans = append(spans, span{p, at})
		}
	}
	return mask(s, spans)
}

// Text returns s with every password of a URL-like string in it, and every
// secret option value, replaced by ***. Each line is taken alone: the
// password of a userinfo runs from the first ':' after the scheme, or
// from the first ':' that is not the ": " of a message when there is no
// scheme, to the last '@' of the line.
func Text(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	spans := optionSpans(optionInText, s)
	for off := 0; off < len(s); {
		end := strings.IndexAny(s[off:], "\n\r")
		if end < 0 {
			end = len(s)
		} else {
			end += off + 1
		}
		if sp, ok := passwordInLine(s[off:end]); ok {
			spans = append(spans, span{off + sp.from, off + sp.to})
		}
		off = end
	}
	return mask(s, spans)
}

// passwordInLine finds the password of a line of text.
func passwordInLine(line string) (span, bool) {
	last := strings.LastIndexByte(line, '@')
	for lo := 0; lo <= last; {
		at := lo + strings.IndexByte(line[lo:], '@')
		if p := passwordStart(line[lo:at], false); p >= 0 {
			return span{lo + p, last}, true
		}
		// An '@' without a ':' before it is a user without a password (or
		// not a URL at all); a later '@' may still end a userinfo.
		lo = at + 1
	}
	return span{}, false
}

// passwordStart returns where the password starts in seg, the text before
// a userinfo's '@' (the index after the ':' that ends the user name), or
// -1 when seg holds no password. whole says seg starts where the value
// does, so that it can only be one connection string.
func passwordStart(seg string, whole bool) int {
	schemes := schemeEnds(seg, whole)
	for i, u := range schemes {
		// Only mongodb:// and mongodb+srv:// surely start a URL: another
		// "scheme" after a user's ':' (`user:"pw://x@h`) is in a password.
		if !whole && !knownScheme(seg, u) {
			if c := firstSeparator(seg[:schemeStart(seg, u)], schemes[:i], false); c >= 0 {
				return c
			}
		}
		// Any other "scheme" may as well be a user name whose password
		// starts with '/' ("user:/pw:x@h"): mask from its ':', which
		// hides a user name too at worst.
		if !knownScheme(seg, u) {
			return schemeColon(seg, u) + 1
		}
		if c := strings.IndexByte(seg[u:], ':'); c >= 0 {
			// That ':' may open the next URL of the line ("mongodb://h/x
			// and mongodb://u:pw@h"): its user name comes after it.
			if i+1 < len(schemes) && u+c == schemeColon(seg, schemes[i+1]) {
				continue
			}
			return u + c + 1
		}
		// No ':' after the scheme. After mongodb:// that is a user without
		// a password; after anything else ("bench:/pw@h") the "scheme"
		// may be the user name itself.
		if !knownScheme(seg, u) {
			return schemeColon(seg, u) + 1
		}
		if whole {
			return escapedColon(seg[u:], u)
		}
		// Unless this scheme is inside the password of a URL without one
		// ("bench:x mongodb://y@h"): a ':' before it says so.
		return firstSeparator(seg[:schemeStart(seg, u)], schemes[:i], false)
	}
	if whole {
		if c := strings.IndexByte(seg, ':'); c >= 0 {
			return c + 1
		}
		return escapedColon(seg, 0)
	}
	return firstSeparator(seg, nil, true)
}

// firstSeparator returns the index after the first ':' of text that can
// separate a user from a password: not the ": " of a message, nor the ':'
// of a scheme; -1 when there is none. With spaced, a password that starts
// with white space is allowed for when there is no other: the last ": "
// before the '@' is taken.
func firstSeparator(seg string, schemes []int, spaced bool) int {
	last := -1
	for i := 0; i < len(seg); i++ {
		if seg[i] != ':' {
			continue
		}
		if i+1 < len(seg) && isSpace(seg[i+1]) {
			if spaced {
				last = i + 1
			}
			continue
		}
		scheme := false
		for _, u := range schemes {
			scheme = scheme || schemeColon(seg, u) == i
		}
		if !scheme {
			return i + 1
		}
	}
	return last
}

// schemeStart is where the scheme whose user name starts at u begins.
func schemeStart(seg string, u int) int {
	w := schemeColon(seg, u)
	for w > 0 && isSchemeByte(seg[w-1]) {
		w--
	}
	return w
}

// escapedColon finds "user%3Apassword", the separator itself escaped, in
// userinfo that starts at offset off of its value.
func escapedColon(userinfo string, off int) int {
	if c := strings.Index(strings.ToLower(userinfo), "%3a"); c >= 0 {
		return off + c + 3
	}
	return -1
}

// knownScheme says the scheme whose user name starts at u is mongodb://
// or mongodb+srv://, written as the driver accepts it.
func knownScheme(seg string, u int) bool {
	for _, s := range []string{"mongodb://", "mongodb+srv://"} {
		if u >= len(s) && strings.EqualFold(seg[u-len(s):u], s) && (u == len(s) || !isSchemeByte(seg[u-len(s)-1])) {
			return true
		}
	}
	return false
}

// schemeEnds lists where the user name starts after each scheme in seg
// ("mongodb://", "mongodb+srv://", "mongodb:/" and any other). A scheme
// starts a word: "a:/b" inside a password that follows "user:" is none.
// In a whole value only a scheme at its start counts.
func schemeEnds(seg string, whole bool) []int {
	var out []int
	for i := 0; i+1 < len(seg); i++ {
		if seg[i] != ':' || seg[i+1] != '/' {
			continue
		}
		w := i
		for w > 0 && isSchemeByte(seg[w-1]) {
			w--
		}
		if w == i || !isLetter(seg[w]) {
			continue
		}
		if whole && strings.TrimSpace(seg[:w]) != "" {
			continue
		}
		if !whole && w > 0 && !isBoundary(seg[w-1]) {
			continue
		}
		u := i + 1
		for u < len(seg) && seg[u] == '/' {
			u++
		}
		out = append(out, u)
		if whole {
			break
		}
	}
	return out
}

// schemeColon is the index of the ':' of the scheme whose user name starts
// at u.
func schemeColon(seg string, u int) int {
	for u > 0 && seg[u-1] == '/' {
		u--
	}
	return u - 1
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isSchemeByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

// isBoundary says a word may start after c: a scheme preceded by anything
// else is part of a longer token (a password, a path).
func isBoundary(c byte) bool {
	return isSpace(c) || strings.IndexByte(`"'=(<[{,;`+"`", c) >= 0
}

// Args redacts every argument of a command line. Each argument is a whole
// value: a URL, a property assignment ("mongodb.url=…") or a flag.
func Args(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Arg(a)
	}
	return out
}

// Arg redacts one argument or property assignment: "name=value" keeps its
// name and redacts its value as a URL; anything else is redacted as a URL
// whole.
func Arg(a string) string {
	if name, value, ok := strings.Cut(a, "="); ok && isPropertyName(name) {
		return name + "=" + URL(value)
	}
	return URL(a)
}

func isPropertyName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isSchemeByte(c) && c != '_' {
			return false
		}
	}
	return true
}

// Changed reports whether s holds something URL would mask.
func Changed(s string) bool { return URL(s) != s }

// Writer returns a writer that redacts with Text everything written to w
// before passing it on. Each Write is redacted alone, so a secret must be
// written in one call (a line at a time, as fmt.Fprint* does). Wrapping a
// Writer again returns it unchanged.
func Writer(w io.Writer) io.Writer {
	if rw, ok := w.(*writer); ok {
		return rw
	}
	return &writer{w: w}
}

type writer struct{ w io.Writer }

func (w *writer) Write(p []byte) (int, error) {
	if !mayHoldSecret(string(p)) {
		return w.w.Write(p)
	}
	clean := Text(string(p))
	if clean == string(p) {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, clean); err != nil {
		return 0, err
	}
	// The caller wrote all of p, as far as it can tell.
	return len(p), nil
}

// Error returns msg, a message about the connection string uri (from a
// parser or the driver), with every secret of uri masked. Such messages
// quote pieces of the URL without the names that would mark them as
// secret: `invalid option value "…"`, three characters of a password in
// `invalid URL escape "%zz"`, or the part of a password after an unescaped
// '@' or ':' taken for a port (`parsing "…": invalid syntax`). So every
// quoted piece of msg that is part of a secret is masked, and the secrets
// themselves wherever they are.
func Error(msg, uri string) string {
	secrets := secretsOf(uri)
	if len(secrets) == 0 {
		return Text(msg)
	}
	var b strings.Builder
	for rest := msg; ; {
		q := strings.IndexByte(rest, '"')
		if q < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:q])
		lit, err := strconv.QuotedPrefix(rest[q:])
		if err != nil {
			b.WriteByte('"')
			rest = rest[q+1:]
			continue
		}
		rest = rest[q+len(lit):]
		piece, _ := strconv.Unquote(lit)
		if piece != "" && slices.ContainsFunc(secrets, func(s string) bool { return strings.Contains(s, piece) }) {
			lit = `"` + Mask + `"`
		}
		b.WriteString(lit)
	}
	msg = b.String()
	for _, s := range secrets {
		// Bare, a short secret would mask common words.
		if len(s) >= 4 && s != Mask {
			msg = strings.ReplaceAll(msg, s, Mask)
		}
	}
	return Text(msg)
}

// secretsOf lists the secrets of a connection string as written and
// unescaped, longest first so that none is left half masked.
func secretsOf(uri string) []string {
	var out []string
	add := func(s string) {
		out = append(out, s)
		if u, err := url.PathUnescape(s); err == nil {
			out = append(out, u)
		}
		if u, err := url.QueryUnescape(s); err == nil {
			out = append(out, u)
		}
	}
	if at := strings.LastIndexByte(uri, '@'); at >= 0 {
		if p := passwordStart(uri[:at], true); p >= 0 {
			add(uri[p:at])
		}
	}
	for _, sp := range optionSpans(optionInURL, uri) {
		add(uri[sp.from:sp.to])
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}
