package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestReportFiles writes the page of a results file.
func TestReportFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeSynth(t, dir, map[string]resultstest.Spec{"a1": {Label: "a", Throughput: 1000}})
	out := filepath.Join(dir, "one.html")
	r := experiment(t, runReportCmd, p["a1"], "-o", out, "--title", "One run")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(page), "One run") {
		t.Fatalf("page of %d bytes (err %v) without its title", len(page), err)
	}
}

// TestReportTooManyGroups: a group is lettered A to Z, so a 27th is
// refused as bad input before anything is read or written.
func TestReportTooManyGroups(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	refs := make([]string, 27)
	for i := range refs {
		refs[i] = filepath.Join(dir, "r"+strconv.Itoa(i)+".json")
	}
	refusedUnchanged(t, dir, func() cmdResult {
		return experiment(t, runReportCmd, append(refs, "-o", filepath.Join(dir, "r.html"))...)
	}, []string{"report: 27 groups given: at most 26 are set side by side; join runs into one group with commas"})
}

func TestReportNotes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeSynth(t, dir, map[string]resultstest.Spec{"a1": {Label: "a", Throughput: 1000}})
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("## Verdict\nESSD is **not** faster: <script>x</script>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.html")
	r := experiment(t, runReportCmd, p["a1"], "-o", out, "--notes", notes)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	page, _ := os.ReadFile(out)
	if !strings.Contains(string(page), "<h4>Verdict</h4>\n<p>ESSD is <strong>not</strong> faster: &lt;script&gt;x&lt;/script&gt;</p>") {
		t.Errorf("the notes are not on the page as Markdown, escaped")
	}
	for _, tc := range []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "none.md"), "report: --notes: "},
		{"a directory", dir, "report: --notes: "},
	} {
		r := experiment(t, runReportCmd, p["a1"], "-o", filepath.Join(dir, "x.html"), "--notes", tc.path)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line with %q", tc.name, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "x.html")); err == nil {
			t.Errorf("%s: a page was written", tc.name)
		}
	}
}
