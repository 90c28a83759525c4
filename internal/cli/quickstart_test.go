package cli

import (
	"regexp"
	"strconv"
	"testing"
)

// TestQuickstart runs the README's first command, shortened: no URL, so
// mongobench starts the embedded server, fills it, and runs against it.
// Every read finds its record, and the loading line's figures agree.
func TestQuickstart(t *testing.T) {
	t.Parallel()
	r := mongobench(t, "run", "mongodb", "-P", "workloads/workloada", "-p", "recordcount=500", "-p", "operationcount=300")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`mongobench: no mongodb\.url given: started the embedded server \(FerretDB, SQLite\) at mongodb://127\.0\.0\.1:\d+/, data in `,
		`mongobench: the embedded server is empty: loading 500 records into usertable first`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stderr) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	m := regexp.MustCompile(`mongobench: loaded (\d+) records in ([\d.]+) s \((\d+) records/s\)`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no loading line:\n%s", r.stderr)
	}
	n, _ := strconv.Atoi(m[1])
	secs, _ := strconv.ParseFloat(m[2], 64)
	rate, _ := strconv.ParseFloat(m[3], 64)
	// The seconds are rounded to 0.1: the rate must lie within what
	// that rounding allows.
	if n != 500 || rate < float64(n)/(secs+0.05)-1 || (secs > 0.05 && rate > float64(n)/(secs-0.05)+1) {
		t.Errorf("loading line %q: %d records at %v records/s does not fit %v s", m[0], n, rate, secs)
	}
	s := parseSummary(t, r.stdout)
	reads, updates := s.int(t, "READ", "Operations"), s.int(t, "UPDATE", "Operations")
	if reads+updates != 300 || s.int(t, "READ", "Return=OK") != reads || s.int(t, "UPDATE", "Return=OK") != updates {
		t.Errorf("summary: %d reads (%d OK), %d updates (%d OK): want 300 operations, all OK",
			reads, s.int(t, "READ", "Return=OK"), updates, s.int(t, "UPDATE", "Return=OK"))
	}
	if s["CLIENT"]["IncludesEmbeddedServer"] != "true" || s["CLIENT"]["ClientBound"] != "" {
		t.Errorf("[CLIENT] %v: want IncludesEmbeddedServer and no verdict", s["CLIENT"])
	}
}
