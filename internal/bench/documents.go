package bench

import (
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
)

// documentCounter is an OpRunner that counts what its operations
// returned or affected (a native workload's).
type documentCounter interface {
	Documents() []results.OpDocuments
}

// documentsOf takes ops' counts once its phase is over; nil for a
// runner that keeps none.
func documentsOf(ops runner.OpRunner) []results.OpDocuments {
	if c, ok := ops.(documentCounter); ok {
		return c.Documents()
	}
	return nil
}

// DocumentLines are the summary's lines of what each named operation
// returned or affected, after its latencies' in YCSB's form: the total
// (DocumentsReturned, DocumentsInserted, ...), the mean per operation,
// the documents an update changed, and the failures by server code.
func DocumentLines(docs []results.OpDocuments) []string {
	var lines []string
	for _, d := range docs {
		if d.Operations == 0 && len(d.Errors) == 0 {
			continue // never ran, as its latencies say by their absence
		}
		sec := "[" + printable.Field(d.Operation) + "], "
		if d.Counted != "none" && d.Counted != "" {
			what := "Documents" + strings.ToUpper(d.Counted[:1]) + d.Counted[1:]
			lines = append(lines,
				sec+what+", "+strconv.FormatInt(d.Documents, 10),
				sec+what+"PerOperation, "+strconv.FormatFloat(d.PerOperation, 'f', 2, 64))
		}
		if d.Modified != nil {
			lines = append(lines, sec+"DocumentsModified, "+strconv.FormatInt(*d.Modified, 10))
		}
		for _, e := range d.Errors {
			code := "none"
			if e.Code != 0 {
				code = strconv.FormatInt(int64(e.Code), 10)
				if e.Name != "" {
					code += " " + printable.Field(e.Name)
				}
			}
			lines = append(lines, sec+"ErrorCode("+code+"), "+strconv.FormatInt(e.Count, 10))
		}
	}
	return lines
}
