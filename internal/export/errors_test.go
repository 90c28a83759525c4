package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/measure"
)

func TestErrorWindowLines(t *testing.T) {
	t.Parallel()
	s := &measure.Summary{StartNs: 1e9, EndNs: 31e9, Operations: 10,
		ErrorWindows: []measure.ErrorWindow{{StartNs: 13e9, EndNs: 18.5e9, Errors: 523}, {StartNs: 25e9, EndNs: 25.1e9, Errors: 1}}}
	var b bytes.Buffer
	if err := WriteText(&b, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "[ERRORS], Window1Start(s), 12.0\n[ERRORS], Window1End(s), 17.5\n[ERRORS], Window1FailedOperations, 523\n" +
		"[ERRORS], Window2Start(s), 24.0\n[ERRORS], Window2End(s), 24.1\n[ERRORS], Window2FailedOperations, 1\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("summary ends with\n%s\nwant\n%s", b.String(), want)
	}
	r, err := NewResults(s, Meta{Phase: PhaseRun})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ErrorWindows) != 2 || r.ErrorWindows[0].StartS != 12 || r.ErrorWindows[0].EndS != 17.5 || r.ErrorWindows[0].Errors != 523 {
		t.Errorf("results error windows: %+v", r.ErrorWindows)
	}
}
