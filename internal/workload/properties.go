package workload

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mongobench/mongobench/internal/inputfile"
)

// Properties is the merged set of workload properties: files read in order,
// then -p overrides, which win regardless of their position on the command
// line (YCSB's rule). It remembers where each value came from so errors can
// name the file and line.
type Properties struct {
	values map[string]string
	origin map[string]string
}

// NewProperties returns an empty property set.
func NewProperties() *Properties {
	return &Properties{values: map[string]string{}, origin: map[string]string{}}
}

// Set sets key to value, recording origin (e.g. "-p" or "file:12").
func (p *Properties) Set(key, value, origin string) {
	p.values[key] = value
	p.origin[key] = origin
}

// Get returns the value of key and whether it is set.
func (p *Properties) Get(key string) (string, bool) {
	v, ok := p.values[key]
	return v, ok
}

// Origin says where key was set: "-p", "FILE:LINE", or "" when unset.
func (p *Properties) Origin(key string) string { return p.origin[key] }

// Keys returns the set keys in sorted order.
func (p *Properties) Keys() []string {
	keys := make([]string, 0, len(p.values))
	for k := range p.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Clone returns an independent copy.
func (p *Properties) Clone() *Properties {
	c := NewProperties()
	for k, v := range p.values {
		c.values[k] = v
		c.origin[k] = p.origin[k]
	}
	return c
}

// Merge copies every property of o into p, o's values winning.
func (p *Properties) Merge(o *Properties) {
	for k, v := range o.values {
		p.values[k] = v
		p.origin[k] = o.origin[k]
	}
}

// ParseFile reads a Java-format properties file (YCSB's workload files).
func ParseFile(path string) (*Properties, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read workload file %s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	return Parse(f, path)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// byteOrderMark is U+FEFF as UTF-8 writes it at the start of a file.
const byteOrderMark = "\uFEFF"

// Parse reads properties in java.util.Properties format: '#' and '!'
// comments, '=', ':' or white space between key and value, backslash line
// continuations and escapes (\t \n \r \f \uXXXX). name is used in errors
// ("name:line: ...").
func Parse(r io.Reader, name string) (*Properties, error) {
	p := NewProperties()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		startLine := lineNo
		text := sc.Text()
		if lineNo == 1 {
			// Editors on Windows start UTF-8 files with a byte-order mark,
			// which would otherwise become part of the first key.
			text = strings.TrimPrefix(text, byteOrderMark)
		}
		line := strings.TrimLeft(text, " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		for endsWithContinuation(line) {
			line = line[:len(line)-1]
			if !sc.Scan() {
				break
			}
			lineNo++
			line += strings.TrimLeft(sc.Text(), " \t\f")
		}
		key, value, err := splitProperty(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, startLine, err)
		}
		p.Set(key, value, fmt.Sprintf("%s:%d", name, startLine))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	return p, nil
}

// endsWithContinuation reports an odd number of trailing backslashes.
func endsWithContinuation(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

func splitProperty(line string) (key, value string, err error) {
	// The key ends at the first unescaped '=', ':' or white space.
	i := 0
	for i < len(line) {
		c := line[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	if i > len(line) {
		i = len(line)
	}
	rawKey := line[:i]
	rest := strings.TrimLeft(line[i:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	if key, err = unescape(rawKey); err != nil {
		return "", "", err
	}
	if key == "" {
		return "", "", fmt.Errorf("malformed line %q: expected key=value", line)
	}
	if value, err = unescape(rest); err != nil {
		return "", "", err
	}
	if !utf8.ValidString(value) {
		return "", "", fmt.Errorf("property %s: value is not valid UTF-8", key)
	}
	return key, value, nil
}

func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if len(s)-(i+1) < 4 {
				return "", fmt.Errorf(`malformed \uXXXX escape in %q`, s)
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf(`malformed \uXXXX escape in %q`, s)
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// Format writes p in the properties format Parse reads, one key=value
// line per property in key order, escaped so that Parse gives back
// exactly these keys and values: what is written is what was read,
// whatever continuations, escapes, separators and comments the file it
// came from used.
func Format(w io.Writer, p *Properties) error {
	for _, k := range p.Keys() {
		if _, err := io.WriteString(w, escapeProperty(k, true)+"="+escapeProperty(p.values[k], false)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// escapeProperty escapes s as a key (whose end is its first separator)
// or a value (whose leading white space would be dropped).
func escapeProperty(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == ' ' && (key || i == 0):
			b.WriteString(`\ `)
		case key && (r == '=' || r == ':'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case (r == '#' || r == '!') && i == 0 && key:
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfeff:
			// Control characters, and a byte-order mark the parser would
			// drop at the start of the file.
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
