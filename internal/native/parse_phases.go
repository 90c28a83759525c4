package native

import (
	"math"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

func (p *parser) phases(n *yaml.Node) {
	found := false
	p.mapping(n, "phases", phaseKinds, func(key string, k, v *yaml.Node) {
		found = true
		ph := p.phase(PhaseKind(key), k, v)
		switch PhaseKind(key) {
		case PhaseLoad:
			p.file.Load = ph
		case PhaseWarmup:
			p.file.Warmup = ph
		case PhaseMeasure:
			p.file.Measure = ph
		}
	})
	if !found && n.Kind == yaml.MappingNode {
		p.errorf(n, "phases is empty; accepted: %s", strings.Join(phaseKinds, ", "))
	}
}

func (p *parser) phase(kind PhaseKind, k, n *yaml.Node) *Phase {
	ph := &Phase{Kind: kind, Threads: 1}
	what := "phase " + string(kind)
	var count, duration *yaml.Node
	p.mapping(n, what, phaseKeys, func(key string, _, v *yaml.Node) {
		w := what + ": " + key
		switch key {
		case "threads":
			ph.Threads = int(p.int(v, w, 1, 100000))
		case "rate":
			ph.Rate = p.float(v, w, 0, 1e9)
		case "count":
			count = v
			ph.Count = p.int(v, w, 1, math.MaxInt64)
		case "duration":
			duration = v
			s := p.str(v, w)
			d, err := time.ParseDuration(s)
			if s != "" && (err != nil || d <= 0) {
				p.errorf(v, "%s is %q; expected a positive duration like 30s, 5m or 1h30m", w, s)
			}
			ph.Duration = d
		case "operations":
			ph.Operations = p.phaseOperations(v, w)
		}
	})
	if n.Kind == yaml.MappingNode && count == nil && duration == nil {
		p.errorf(k, "%s has neither count nor duration; give count: N (operations) or duration: 30s", what)
	}
	if ph.Operations == nil && p.ops != nil {
		ph.Operations = slices.Clone(p.file.Operations)
	}
	if len(ph.Operations) > 0 {
		total := 0.0
		for _, o := range ph.Operations {
			total += o.Weight
		}
		if total == 0 {
			p.errorf(k, "%s: every operation it runs has weight 0; give at least one a positive weight", what)
		}
	}
	return ph
}

func (p *parser) phaseOperations(n *yaml.Node, what string) []*Operation {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.errorf(n, "%s is a %s; expected a list of operation names", what, kindWord(n))
		return nil
	}
	var out []*Operation
	for _, e := range n.Content {
		e = resolve(e)
		name := p.str(e, what)
		if name == "" {
			continue
		}
		op, ok := p.ops[name]
		if !ok {
			p.errorf(e, "%s: %q is not an operation of the workload; accepted: %s", what, name, strings.Join(p.operationNames(), ", "))
			continue
		}
		out = append(out, op)
	}
	return out
}
