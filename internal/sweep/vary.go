package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// varyAliases are the flag names --vary accepts for properties.
var varyAliases = map[string]string{"threads": "threadcount", "l": "label"}

// ParseVary parses --vary's "NAME=V1,V2,...", "threadcount=auto", or linked
// properties "NAME1,NAME2=A1:A2,B1:B2" varied together.
func ParseVary(s string) (Dim, error) {
	if names, _, _ := strings.Cut(s, "="); strings.Contains(names, ",") {
		return parseLinkedVary(s)
	}
	name, list, ok := strings.Cut(s, "=")
	name = strings.TrimLeft(strings.TrimSpace(name), "-")
	if !ok || name == "" {
		return Dim{}, fmt.Errorf("--vary %q: expected --vary NAME=V1,V2,... such as --vary threadcount=1,2,4,8", redact.Arg(s))
	}
	if alias, ok := varyAliases[name]; ok {
		name = alias
	}
	switch {
	case name == "exportfile" || name == "dotransactions":
		return Dim{}, fmt.Errorf("--vary %s: the sweep sets %s for each run itself", name, name)
	case strings.TrimSpace(list) == "":
		return Dim{}, fmt.Errorf("--vary %s=: no values: list them after the =, separated by commas", name)
	}
	values := strings.Split(list, ",")
	for i, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			return Dim{}, fmt.Errorf("--vary %s=%s: value %d is empty", name, redact.URL(list), i+1)
		}
		if slices.Contains(values[:i], v) {
			return Dim{}, fmt.Errorf("--vary %s=%s: value %s is given twice", name, redact.URL(list), redact.URL(v))
		}
		values[i] = v
	}
	if slices.Contains(values, "auto") {
		switch {
		case name != "threadcount":
			return Dim{}, fmt.Errorf("--vary %s=auto: auto is only for threadcount (it doubles the threads until throughput saturates)", name)
		case len(values) > 1:
			return Dim{}, fmt.Errorf("--vary threadcount=%s: auto stands alone: --vary threadcount=auto", list)
		}
		return Dim{Name: name, Auto: true}, nil
	}
	d := Dim{Name: name, Values: values}
	if !workload.IsKnown(name) {
		// Perhaps a parameter of a native workload among the -P files,
		// which are read after the flags: NewPlan decides.
		d.Unknown = []string{name}
	}
	return d, nil
}

// UnknownPropertyError is a varied name that is neither a property nor a
// parameter of the native workload.
type UnknownPropertyError struct {
	Name       string
	Parameters []string // the native workload's, if there is one
}

func (e *UnknownPropertyError) Error() string {
	msg := fmt.Sprintf("--vary %s: unknown property", e.Name)
	switch hint := workload.Suggest(e.Name); {
	case len(e.Parameters) > 0:
		// A name close to a property is more likely a parameter of the
		// workload mistyped.
		msg += "; the native workload's parameters are " + strings.Join(e.Parameters, ", ")
	case hint != "":
		msg += "; did you mean " + hint + "?"
	}
	return msg
}

// parseLinkedVary parses "NAME1,NAME2,...=A1:A2,B1:B2,...": each value
// gives every property its own, in the order named.
func parseLinkedVary(s string) (Dim, error) {
	names, list, _ := strings.Cut(s, "=")
	var d Dim
	var parts []string
	for _, n := range strings.Split(names, ",") {
		single, err := ParseVary(strings.TrimSpace(n) + "=x")
		switch {
		case err != nil:
			return Dim{}, err
		case slices.Contains(parts, single.Name):
			return Dim{}, fmt.Errorf("--vary %s: %s is named twice", redact.Arg(names), single.Name)
		case single.Name == "mongodb.url":
			return Dim{}, fmt.Errorf("--vary %s: mongodb.url cannot be linked to other properties; vary it on its own", redact.Arg(names))
		}
		parts = append(parts, single.Name)
		d.Unknown = append(d.Unknown, single.Unknown...)
	}
	d.Name, d.Linked = parts[0], parts[1:]
	const example = "such as --vary readproportion,insertproportion=0.95:0.05,0.9:0.1"
	if strings.TrimSpace(list) == "" {
		return Dim{}, fmt.Errorf("--vary %s=: no values: list them after the =, each %s, separated by commas, %s", names, strings.Join(parts, LinkSeparator), example)
	}
	for i, v := range strings.Split(list, ",") {
		vs := strings.Split(strings.TrimSpace(v), LinkSeparator)
		if len(vs) != len(parts) || slices.Contains(vs, "") {
			return Dim{}, fmt.Errorf("--vary %s=%s: value %d (%s) is not %d values joined by %s (%s), %s",
				names, redact.URL(list), i+1, redact.URL(v), len(parts), LinkSeparator, strings.Join(parts, LinkSeparator), example)
		}
		for j := range vs {
			vs[j] = strings.TrimSpace(vs[j])
			if vs[j] == "auto" {
				return Dim{}, fmt.Errorf("--vary %s: auto stands alone: --vary threadcount=auto", names)
			}
		}
		joined := strings.Join(vs, LinkSeparator)
		if slices.Contains(d.Values, joined) {
			return Dim{}, fmt.Errorf("--vary %s=%s: value %s is given twice", names, redact.URL(list), redact.URL(joined))
		}
		d.Values = append(d.Values, joined)
	}
	return d, nil
}
