package calibrate

import (
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/output"
)

// Keep writes rep to w and, when jsonPath is given, as JSON there, each
// whatever became of the other: what was measured is kept even when the
// calibration stopped early.
func Keep(w io.Writer, jsonPath string, rep *Report) output.Tally {
	var t output.Tally
	if err := WriteReport(w, rep); err != nil {
		t.Fail(fmt.Errorf("the report on standard output: %w", err))
	} else {
		t.Keep("the report")
	}
	if jsonPath != "" {
		if err := outfile.Write(jsonPath, func(f io.Writer) error { return WriteJSON(f, rep) }); err != nil {
			t.Fail(err)
		} else {
			t.Keep(jsonPath)
		}
	}
	return t
}
