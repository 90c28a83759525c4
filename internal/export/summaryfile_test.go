package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSummaryOutput: the summary goes to stdout, or whole to the
// exportfile with a note saying so; What names where it went.
func TestSummaryOutput(t *testing.T) {
	t.Parallel()
	var stdout, notes bytes.Buffer
	s := NewSummaryOutput(&stdout, "", TextExporter)
	fmt.Fprintln(s, "[OVERALL], RunTime(ms), 10")
	if err := s.Finish(&notes); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != "[OVERALL], RunTime(ms), 10\n" || notes.Len() != 0 || s.What() != "the summary" {
		t.Errorf("stdout %q, notes %q, what %q", stdout.String(), notes.String(), s.What())
	}

	path := filepath.Join(t.TempDir(), "summary.json")
	stdout.Reset()
	s = NewSummaryOutput(&stdout, path, JSONExporter)
	fmt.Fprintln(s, "[OVERALL], RunTime(ms), 10")
	if b, err := os.ReadFile(path); err == nil {
		t.Errorf("the exportfile was written before the summary ended: %q", b)
	}
	if err := s.Finish(&notes); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"metric\" : \"OVERALL\",\n  \"measurement\" : \"RunTime(ms)\",\n  \"value\" : 10\n}"
	if stdout.Len() != 0 || string(b) != want {
		t.Errorf("stdout %q; exportfile %q, want %q", stdout.String(), b, want)
	}
	if notes.String() != "mongobench: summary written to "+path+"\n" || s.What() != "the summary in "+path {
		t.Errorf("notes %q, what %q", notes.String(), s.What())
	}
	if err := NewSummaryOutput(&stdout, filepath.Join(path, "x"), TextExporter).Finish(&notes); err == nil {
		t.Error("an exportfile under a file: no error")
	}
}
