package export

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
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
	r, err := results.NewResults(s, results.Meta{Phase: results.PhaseRun})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ErrorWindows) != 2 || r.ErrorWindows[0].StartS != 12 || r.ErrorWindows[0].EndS != 17.5 || r.ErrorWindows[0].Errors != 523 {
		t.Errorf("results error windows: %+v", r.ErrorWindows)
	}
}

// TestErrorMessageLines checks the lines and the results section that say
// what failed operations said: YCSB's line shape with the count third, so
// a three-field parser reads a number, the message on a line of its own
// with its commas made semicolons, and the results file round-tripping
// them.
func TestErrorMessageLines(t *testing.T) {
	t.Parallel()
	s := &measure.Summary{StartNs: 0, EndNs: 1e9, Operations: 1010,
		ErrorMessages: []measure.OpErrors{
			{Op: db.Read, Messages: []measure.ErrorMessage{
				{Message: "(Unauthorized) command find requires authentication", Count: 996},
				{Message: "two\nlines, and \x1b[31mcolour", Count: 2},
			}, Other: 4},
			{Op: db.InsertBatch, Messages: []measure.ErrorMessage{{Message: "E11000 duplicate key", Count: 1}}},
		}}
	var b bytes.Buffer
	if err := WriteText(&b, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "[READ-FAILED], Error1, 996\n" +
		"[READ-FAILED], Error1.Message, (Unauthorized) command find requires authentication\n" +
		"[READ-FAILED], Error2, 2\n" +
		`[READ-FAILED], Error2.Message, two\nlines; and \x1b[31mcolour` + "\n" +
		"[READ-FAILED], OtherErrors, 4\n" +
		"[INSERT-BATCH-FAILED], Error1, 1\n" +
		"[INSERT-BATCH-FAILED], Error1.Message, E11000 duplicate key\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("summary ends with\n%s\nwant\n%s", b.String(), want)
	}
	for _, l := range strings.Split(strings.TrimSuffix(want, "\n"), "\n") {
		f := strings.Split(l, ",")
		if len(f) != 3 {
			t.Errorf("line %q: %d fields, want 3", l, len(f))
		} else if !strings.Contains(f[1], ".Message") && strings.Trim(f[2], " 0123456789") != "" {
			t.Errorf("line %q: third field is not a count", l)
		}
	}

	r, err := results.NewResults(s, results.Meta{Phase: results.PhaseRun})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := []results.OpErrorsResult{
		{Op: "READ", Messages: []results.ErrorMessageResult{{Message: "(Unauthorized) command find requires authentication", Count: 996}, {Message: "two\nlines, and \x1b[31mcolour", Count: 2}}, Other: 4},
		{Op: "INSERT-BATCH", Messages: []results.ErrorMessageResult{{Message: "E11000 duplicate key", Count: 1}}},
	}
	if !reflect.DeepEqual(r.ErrorMessages, wantJSON) {
		t.Errorf("results error_messages = %+v\nwant %+v", r.ErrorMessages, wantJSON)
	}
	var j bytes.Buffer
	if err := results.WriteJSON(&j, r); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadJSON(&j)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := back.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(bs.ErrorMessages, s.ErrorMessages) {
		t.Errorf("read back: %+v\nwant %+v", bs.ErrorMessages, s.ErrorMessages)
	}
	// Two parts of one run that saw the same errors: merged, every count
	// doubles.
	asPart := func(index int) *results.Results {
		var b bytes.Buffer
		if err := results.WriteJSON(&b, back); err != nil {
			t.Fatal(err)
		}
		p, err := results.ReadJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if p.Extra == nil {
			p.Extra = &results.Extra{}
		}
		p.Extra.Part = &results.Part{Index: index, Count: 2, RunID: "errors"}
		return p
	}
	m, err := results.Merge(asPart(0), asPart(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.ErrorMessages; len(got) != 2 || got[0].Messages[0].Count != 1992 || got[0].Other != 8 || got[1].Messages[0].Count != 2 {
		t.Errorf("merged error_messages = %+v", got)
	}
	// A results file with a bad section is refused, not misread.
	back.ErrorMessages = []results.OpErrorsResult{{Op: "FR OB"}}
	if _, err := back.Summary(); err == nil || !strings.Contains(err.Error(), `unknown operation "FR OB"`) {
		t.Errorf("unknown op: %v", err)
	}
}
