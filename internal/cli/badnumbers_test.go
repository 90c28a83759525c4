package cli

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/workload"
)

// notNumbers are values no numeric property or flag may accept: they are
// not finite, or overflow float64 or int64.
var notNumbers = []string{"NaN", "Inf", "-Inf", "+Infinity", "1e400", "-1e400", "9223372036854775808", "1e300"}

// TestBadNumbers gives every numeric property (each known property whose
// default is a number) and every numeric flag values that are no number
// of its range: each must exit 2 with one line naming it, before anything
// connects.
func TestBadNumbers(t *testing.T) {
	t.Parallel()
	// Never contacted: were a value accepted, the run would fail to
	// connect instead, exit 1.
	const url = "mongodb://127.0.0.1:1/x"
	type row struct {
		name string   // what the message must name
		args []string // the command line, the bad value last
	}
	var rows []row
	for _, k := range workload.KnownProperties {
		if _, err := strconv.ParseFloat(k.Default, 64); err != nil && k.Name != "recordcount" && k.Name != "insertcount" && k.Name != "seed" && k.Name != "mongodb.maxconnections" {
			continue
		}
		rows = append(rows, row{k.Name, []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "-p", k.Name + "="}})
	}
	bench := func(flag string) []string {
		return []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, flag}
	}
	rows = append(rows,
		row{"threadcount", bench("-threads")},
		row{"target", bench("-target")},
		row{"warmuptime", bench("--warmup")},
		row{"--max-errors", bench("--max-errors")},
		row{"--max-error-rate", bench("--max-error-rate")},
		row{"--repeat", []string{"sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--vary", "threadcount=1,2", "--repeat"}},
		row{"--max-threads", []string{"sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--vary", "threadcount=1,2", "--max-threads"}},
		row{"--knee-throughput", []string{"sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--vary", "threadcount=1,2", "--knee-throughput"}},
		row{"--knee-latency", []string{"sweep", "run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + url, "--vary", "threadcount=1,2", "--knee-latency"}},
		row{"--repeat", []string{"calibrate", "--repeat"}},
		row{"-threads", []string{"calibrate", "-threads"}},
		row{"operationcount", []string{"calibrate", "-operationcount"}},
		row{"--limit", []string{"history", "--limit"}},
		row{"--alpha", []string{"compare", "a", "b", "--alpha"}},
	)
	for _, r := range rows {
		for _, v := range notNumbers {
			if r.name == "seed" && v == "9223372036854775808" {
				continue // a seed is any uint64
			}
			args := append([]string(nil), r.args...)
			if last := len(args) - 1; strings.HasSuffix(args[last], "=") {
				args[last] += v
			} else {
				args = append(args, v)
			}
			t.Run(r.name+"="+v, func(t *testing.T) {
				t.Parallel()
				res := mongobench(t, args...)
				if res.code != ExitBadInput {
					t.Fatalf("%v: exit %d, want %d; stderr: %s", args, res.code, ExitBadInput, res.stderr)
				}
				if strings.Count(res.stderr, "\n") != 1 || !strings.Contains(res.stderr, r.name) || !strings.Contains(res.stderr, "expected") {
					t.Errorf("%v: stderr %q: want one line naming %s and what it accepts", args, res.stderr, r.name)
				}
			})
		}
	}
}
