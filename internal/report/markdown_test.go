package report

import (
	"regexp"

	"github.com/mongobench/mongobench/internal/printable"
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"paragraphs", "ESSD is not faster.\nThe disk was idle.\n\nSecond.", "<p>ESSD is not faster. The disk was idle.</p>\n<p>Second.</p>\n"},
		{"heading", "## Verdict", "<h4>Verdict</h4>\n"},
		{"no heading without a space", "#hashtag", "<p>#hashtag</p>\n"},
		{"list", "- one\n- **two**\n  continued", "<ul>\n<li>one</li>\n<li><strong>two</strong> continued</li>\n</ul>\n"},
		{"ordered list", "1. first\n2) second", "<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n"},
		{"emphasis and code", "*cache* is `wiredTiger.cacheSizeGB`", "<p><em>cache</em> is <code>wiredTiger.cacheSizeGB</code></p>\n"},
		{"code keeps stars", "`a*b*c`", "<p><code>a*b*c</code></p>\n"},
		{"link", "see [the blog](https://example.org/a?b=1&c=2)", `<p>see <a href="https://example.org/a?b=1&amp;c=2">the blog</a></p>` + "\n"},
		{"javascript link stays text", "[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"},
		{"html is text", "<script>alert(1)</script> & <b>", "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</p>\n"},
		{"fence", "```\nmongobench run -P w\n<x>\n```", "<pre><code>mongobench run -P w\n&lt;x&gt;</code></pre>\n"},
		{"unclosed fence", "```\ncode", "<pre><code>code</code></pre>\n"},
		{"unpaired star", "2 * 3", "<p>2 * 3</p>\n"},
		{"crlf", "a\r\n\r\nb", "<p>a</p>\n<p>b</p>\n"},
	} {
		if got := string(markdown(tc.in)); got != tc.want {
			t.Errorf("%s: markdown(%q)\ngot  %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// tagRE finds every tag of rendered notes.
var tagRE = regexp.MustCompile(`<(/?)([a-zA-Z0-9]+)([^>]*)>`)

var allowedTags = map[string]bool{"p": true, "h3": true, "h4": true, "h5": true, "h6": true, "ul": true, "ol": true, "li": true,
	"strong": true, "em": true, "code": true, "pre": true, "a": true}

// FuzzMarkdown checks that no input makes markup other than the renderer's
// own: no tag the notes did not get from it, no attribute but a safe href,
// and well-formed nesting.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"# a\n- b *c* `d`", "<img src=x onerror=alert(1)>", "[a](javascript:x)", "**a*b**c*", "```\n<x>", "1. a\n  b\n\n[x](https://e.org)\"onclick=\"", "[a](#x)**"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := string(markdown(in))
		for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
			if !allowedTags[m[2]] {
				t.Fatalf("markdown(%q) made a <%s> tag: %q", in, m[2], out)
			}
			attrs := strings.TrimSpace(m[3])
			if attrs == "" {
				continue
			}
			if m[2] != "a" || !strings.HasPrefix(attrs, `href="`) || strings.Count(attrs, `"`) != 2 {
				t.Fatalf("markdown(%q) made attributes %q: %q", in, attrs, out)
			}
			href := strings.TrimSuffix(strings.TrimPrefix(attrs, `href="`), `"`)
			if l := strings.ToLower(href); !(strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:") || strings.HasPrefix(l, "mailto:") || strings.HasPrefix(l, "#")) {
				t.Fatalf("markdown(%q) links to %q", in, href)
			}
		}
		// Render passes the page through printable.Text, which makes
		// control characters and invalid UTF-8 visible escapes.
		if err := wellFormed("<div>" + printable.Text(out) + "</div>"); err != nil {
			t.Fatalf("markdown(%q) is not well-formed: %v\n%s", in, err, out)
		}
	})
}
