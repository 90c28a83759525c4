// Package partition splits one benchmark over several client processes,
// each a part of the whole: which part a process is, its share of the
// keys to load, of the operations, of the target rate, its seed, and the
// synchronized start of all parts (see Barrier and WaitUntil).
//
// The parts are numbered from 0, as a Kubernetes Indexed Job numbers its
// pods (JOB_COMPLETION_INDEX), so that the completion index is the part.
package partition

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/workload"
)

// EnvIndex is the variable a Kubernetes Indexed Job sets in each pod to
// its completion index, 0 to completions-1.
const EnvIndex = "JOB_COMPLETION_INDEX"

// MaxParts bounds the number of parts: far beyond any cluster's client
// machines, small enough that every share is worth running.
const MaxParts = 10000

// Part is one part of a partitioned run: Index of Count, from 0. The zero
// value, or a Count of 1, is the whole run.
type Part struct {
	Index int
	Count int
}

// Whole reports whether p is the whole run rather than a part of one.
func (p Part) Whole() bool { return p.Count <= 1 }

// String is p as --part takes it: "3/8".
func (p Part) String() string { return strconv.Itoa(p.Index) + "/" + strconv.Itoa(p.Count) }

// Parse reads "I/N", the part I of N (0 <= I < N).
func Parse(s string) (Part, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || count > MaxParts || index < 0 || index >= count {
		return Part{}, fmt.Errorf("--part %q is invalid: expected I/N, the part I of N counted from 0 (0 <= I < N <= %d), such as 0/4", s, MaxParts)
	}
	return Part{Index: index, Count: count}, nil
}

// Resolve picks the part from --part (part, "" when not given), --parts
// (parts, 0 when not given) and, when --part is not given, the completion
// index in the environment. The whole run when neither flag is given.
func Resolve(part string, parts int, getenv func(string) string) (Part, error) {
	if parts < 0 || parts > MaxParts {
		return Part{}, fmt.Errorf("--parts %d is invalid: expected a number of parts from 1 to %d", parts, MaxParts)
	}
	if part != "" {
		p, err := Parse(part)
		if err != nil {
			return Part{}, err
		}
		if parts != 0 && parts != p.Count {
			return Part{}, fmt.Errorf("--part %s and --parts %d disagree on the number of parts: give one of them", p, parts)
		}
		return p, nil
	}
	if parts == 0 {
		return Part{}, nil
	}
	raw := strings.TrimSpace(getenv(EnvIndex))
	if raw == "" {
		return Part{}, fmt.Errorf("--parts %d needs this process's part: set %s (a Kubernetes Indexed Job does) or give --part I/%d", parts, EnvIndex, parts)
	}
	index, err := strconv.Atoi(raw)
	if err != nil || index < 0 || index >= parts {
		return Part{}, fmt.Errorf("%s=%q is invalid with --parts %d: expected a whole number from 0 to %d", EnvIndex, raw, parts, parts-1)
	}
	return Part{Index: index, Count: parts}, nil
}

// Share returns p's slice of n things: its offset from the first and its
// size. The remainder of n/Count goes one each to the first parts, so the
// slices differ by one at most and together cover n exactly.
func (p Part) Share(n int64) (offset, size int64) {
	if p.Whole() {
		return 0, n
	}
	c, i := int64(p.Count), int64(p.Index)
	q, r := n/c, n%c
	return i*q + min(i, r), q + bool01(i < r)
}

func bool01(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Rate returns p's share of a target rate (operations per second; 0 for
// none). A whole number of operations per second, at least one per part,
// is spread as counts are; any other is divided evenly, so that no part
// gets 0, which would mean no target at all.
func (p Part) Rate(target float64) float64 {
	if p.Whole() || target <= 0 {
		return target
	}
	if target == math.Trunc(target) && target >= float64(p.Count) && target <= 1<<53 {
		_, n := p.Share(int64(target))
		return float64(n)
	}
	return target / float64(p.Count)
}

// Seed returns p's seed of the run's seed: part 0 keeps it, so that a run
// of one part repeats the whole run; the others get seeds of their own,
// so the parts do not all draw the same keys.
func (p Part) Seed(seed uint64) uint64 {
	return seed + uint64(p.Index)*0x9e3779b97f4a7c15
}

// Apply narrows spec, resolved for the whole run, to p's share. A load
// loads p's slice of the keys insertstart … insertstart+insertcount-1
// (YCSB's way of splitting a load over clients); a run makes p's share of
// operationcount at p's share of the target, and its inserts take key
// numbers no other part takes (workload.Spec.Part). The error names what
// cannot be split so that every part has something to do.
func (p Part) Apply(spec *workload.Spec) error {
	if p.Whole() {
		return nil
	}
	if !spec.Transactions {
		if spec.InsertCount < int64(p.Count) {
			return fmt.Errorf("insertcount=%d cannot be split into %d parts: each part loads at least one record (lower --parts, or load more records)", spec.InsertCount, p.Count)
		}
		off, n := p.Share(spec.InsertCount)
		spec.InsertStart += off
		spec.InsertCount = n
	} else {
		if spec.OperationCount > 0 && spec.OperationCount < int64(p.Count) {
			return fmt.Errorf("operationcount=%d cannot be split into %d parts: each part makes at least one operation (lower --parts, or raise operationcount)", spec.OperationCount, p.Count)
		}
		_, spec.OperationCount = p.Share(spec.OperationCount)
	}
	spec.Target = p.Rate(spec.Target)
	// A ramp's every stage is shared as -target is: the parts together
	// pace the whole ramp.
	spec.Stages = slices.Clone(spec.Stages)
	for i := range spec.Stages {
		spec.Stages[i].Target = p.Rate(spec.Stages[i].Target)
	}
	spec.Part, spec.Parts = p.Index, p.Count
	return nil
}
