package calibrate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("closed pipe") }

func TestKeep(t *testing.T) {
	t.Parallel()
	rep := fixedReport()
	var want, jsonWant bytes.Buffer
	if err := WriteReport(&want, rep); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&jsonWant, rep); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.json")
	var out bytes.Buffer
	tally := Keep(&out, path, rep)
	if len(tally.Failed) != 0 || strings.Join(tally.Kept, ",") != "the report,"+path {
		t.Errorf("tally %+v", tally)
	}
	if out.String() != want.String() {
		t.Error("the report on the writer is not WriteReport's")
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != jsonWant.String() {
		t.Errorf("the JSON file is not WriteJSON's: %v", err)
	}
	// The report lost: the JSON copy is still written.
	path2 := filepath.Join(t.TempDir(), "c.json")
	tally = Keep(brokenWriter{}, path2, rep)
	if len(tally.Failed) != 1 || !strings.HasPrefix(tally.Failed[0].Error(), "the report on standard output: ") || strings.Join(tally.Kept, ",") != path2 {
		t.Errorf("tally %+v", tally)
	}
}
