package calibrate

import (
	"fmt"
	"math"
	"strings"

	"github.com/mongobench/mongobench/internal/workload"
)

// Given is a calibrate command line's measurement settings as given:
// -threads, -operationcount and the -p settings in their order.
type Given struct {
	Threads    string
	Operations string
	Settings   [][2]string // name, value
}

// Apply sets what g gives in o. The properties calibrate sets per
// measurement are taken from -p when their own flags are absent:
// -p threadcount=8 is -threads 8; -p mongodb.url names the null server
// to use; every other -p is an override. Its errors are in what was
// given.
func (g Given) Apply(o *Options) error {
	threads, operations, records := g.Threads, g.Operations, ""
	if o.Overrides == nil {
		o.Overrides = map[string]string{}
	}
	for _, s := range g.Settings {
		key, value := s[0], s[1]
		switch key {
		case "threadcount":
			if g.Threads == "" {
				threads = value
			}
		case "operationcount":
			if g.Operations == "" {
				operations = value
			}
		case "recordcount":
			records = value
		case "mongodb.url":
			o.ServerURI = strings.TrimSpace(value)
		default:
			o.Overrides[key] = value
		}
	}
	if threads != "" {
		for f := range strings.SplitSeq(threads, ",") {
			n, err := workload.ParseInt(f, 1, 1<<20)
			if err != nil {
				return fmt.Errorf("-threads %q is invalid: expected thread counts from 1 to %d separated by commas, e.g. 1,16,64", threads, 1<<20)
			}
			o.Threads = append(o.Threads, int(n))
		}
	}
	var err error
	if o.Operations, err = positiveCount("operationcount", operations); err != nil {
		return err
	}
	if o.RecordCount, err = positiveCount("recordcount", records); err != nil {
		return err
	}
	return nil
}

func positiveCount(name, v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	n, err := workload.ParseInt(v, 1, math.MaxInt64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is invalid: expected a whole number > 0", name, v)
	}
	return n, nil
}
