package report

import (
	"html"
	"html/template"
	"net/url"
	"strings"
)

// markdown renders the author's notes: a small, safe subset of Markdown,
// enough for a conclusion written by hand (paragraphs, "#" headings,
// "-"/"*"/"1." lists, **bold**, *emphasis*, `code`, [links](https://…) and
// fenced code blocks). Everything the author wrote is escaped first, so
// that HTML in the notes shows as text and can neither run a script nor
// break the page; only the tags made here are markup.
func markdown(src string) template.HTML {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(src, "\n")
	var b strings.Builder
	var para []string
	list := "" // "ul" or "ol" while a list is open
	flushPara := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	closeList := func() {
		if list != "" {
			b.WriteString("</" + list + ">\n")
			list = ""
		}
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flushPara()
			closeList()
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimLeft(lines[i], " \t"), "```"); i++ {
				code = append(code, lines[i])
			}
			b.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case trimmed == "":
			flushPara()
			closeList()
		case headingLevel(trimmed) > 0:
			flushPara()
			closeList()
			n := headingLevel(trimmed)
			// The page's own headings are h1 (title) and h2 (sections):
			// the author's start at h3, under the conclusion's heading.
			tag := "h" + string(rune('0'+min(n+2, 6)))
			b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(trimmed[n:])) + "</" + tag + ">\n")
		case listItem(trimmed, "ul") != "":
			flushPara()
			if list != "ul" {
				closeList()
				b.WriteString("<ul>\n")
				list = "ul"
			}
			b.WriteString("<li>" + inline(listItem(trimmed, "ul")) + "</li>\n")
		case listItem(trimmed, "ol") != "":
			flushPara()
			if list != "ol" {
				closeList()
				b.WriteString("<ol>\n")
				list = "ol"
			}
			b.WriteString("<li>" + inline(listItem(trimmed, "ol")) + "</li>\n")
		case list != "" && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")):
			// A list item's continuation line: appended to the item
			// just written.
			s := b.String()
			s = strings.TrimSuffix(s, "</li>\n") + " " + inline(trimmed) + "</li>\n"
			b.Reset()
			b.WriteString(s)
		default:
			closeList()
			para = append(para, trimmed)
		}
	}
	flushPara()
	closeList()
	return template.HTML(b.String()) // #nosec: every piece of the source went through html.EscapeString
}

// headingLevel is the number of leading '#' of a Markdown heading ("## x"
// is 2), 0 when the line is no heading.
func headingLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n == len(s) || s[n] != ' ' {
		return 0
	}
	return n
}

// listItem returns the text of a list item of the kind ("ul": "- x",
// "* x"; "ol": "1. x"), "" when s is none.
func listItem(s, kind string) string {
	if kind == "ul" {
		if (strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") || strings.HasPrefix(s, "+ ")) && len(strings.TrimSpace(s[2:])) > 0 {
			return strings.TrimSpace(s[2:])
		}
		return ""
	}
	d := 0
	for d < len(s) && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d == 0 || d > 9 || d+1 >= len(s) || (s[d] != '.' && s[d] != ')') || s[d+1] != ' ' {
		return ""
	}
	return strings.TrimSpace(s[d+2:])
}

// inline renders the spans of one block: code first (nothing inside it
// is markup), then links, bold and emphasis, on escaped text.
func inline(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		b.WriteString(spans(s[:i]))
		b.WriteString("<code>" + html.EscapeString(s[i+1:i+1+j]) + "</code>")
		s = s[i+1+j+1:]
	}
	b.WriteString(spans(s))
	return b.String()
}

// spans renders links, **bold** and *emphasis* in text without code.
func spans(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "](")
		open := strings.LastIndexByte(s[:max(i, 0)], '[')
		if i < 0 || open < 0 {
			break
		}
		end := strings.IndexByte(s[i+2:], ')')
		if end < 0 {
			break
		}
		text, target := s[open+1:i], s[i+2:i+2+end]
		b.WriteString(emphasis(s[:open]))
		if safeLink(target) {
			b.WriteString(`<a href="` + html.EscapeString(target) + `">` + emphasis(text) + "</a>")
		} else {
			// A javascript: (or any other) link stays text.
			b.WriteString(emphasis("[" + text + "](" + target + ")"))
		}
		s = s[i+2+end+1:]
	}
	b.WriteString(emphasis(s))
	return b.String()
}

// safeLink reports whether a link's target may be followed from the page:
// http, https and mailto addresses and fragments of the page itself.
func safeLink(target string) bool {
	if strings.HasPrefix(target, "#") {
		return true
	}
	u, err := url.Parse(target)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return true
	}
	return false
}

// emphasis escapes s and renders its **bold** and *emphasis* pairs. An
// emphasis pair never spans the edge of a bold one, so the tags nest.
func emphasis(s string) string {
	em := func(t string) string { return pairs(t, "*", "em", func(u string) string { return u }) }
	return pairs(html.EscapeString(s), "**", "strong", em)
}

// pairs wraps the text between each pair of delim in tag, rendering the
// text inside and outside the pairs with inner; an unpaired delimiter stays
// as it is.
func pairs(s, delim, tag string, inner func(string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, delim)
		if i < 0 {
			break
		}
		j := strings.Index(s[i+len(delim):], delim)
		if j <= 0 {
			break
		}
		b.WriteString(inner(s[:i]))
		b.WriteString("<" + tag + ">" + inner(s[i+len(delim):i+len(delim)+j]) + "</" + tag + ">")
		s = s[i+len(delim)+j+len(delim):]
	}
	b.WriteString(inner(s))
	return b.String()
}
