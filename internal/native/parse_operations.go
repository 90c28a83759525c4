package native

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

func (p *parser) operations(n *yaml.Node) {
	p.ops = map[string]*Operation{}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "operations is a %s; expected a list of operations, each with name and kind", kindWord(n))
		return
	}
	if len(n.Content) == 0 {
		p.errorf(n, "operations is empty; a workload has at least one operation")
	}
	for i, on := range n.Content {
		op := p.operation(resolve(on), fmt.Sprintf("operation %d", i+1), nil)
		if op == nil || op.Name == "" {
			continue
		}
		if _, dup := p.ops[op.Name]; dup {
			p.errorf(on, "operation %q is named twice; each operation needs a name of its own", op.Name)
			continue
		}
		p.ops[op.Name] = op
		p.file.Operations = append(p.file.Operations, op)
	}
}

// operationNode is one operation's mapping as the file gives it: defaults
// and checks depend on which keys were given at all, not only on what
// they hold.
type operationNode struct {
	mapping *yaml.Node
	fields  map[string]*yaml.Node // each key's value
	keys    map[string]*yaml.Node // each key itself, where errors about it point
}

// operation reads one operation, or one step of parent.
func (p *parser) operation(n *yaml.Node, what string, parent *Operation) *Operation {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s is a %s; expected a mapping with name and kind", what, kindWord(n))
		return nil
	}
	op := &Operation{Weight: 1, line: n.Line, col: n.Column}
	node := operationNode{mapping: n, fields: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}}
	p.mapping(n, what, nil, func(key string, k, v *yaml.Node) { node.fields[key], node.keys[key] = v, k })
	what = p.operationName(op, node, what, parent)
	info, valid := p.operationKind(op, node, what, parent)
	if !valid {
		return op
	}
	p.checkOperationKeys(node, what, info, parent)
	if v := node.fields["weight"]; v != nil && parent == nil {
		op.Weight = p.float(v, what+": weight", 0, 1e9)
	}
	p.operationCollection(op, node, what, parent)
	sc := p.operationScope(op, node, what, parent)
	for _, key := range info.options {
		if v := node.fields[key]; v != nil {
			p.operationOption(op, key, v, what, sc)
		}
	}
	operationDefaults(op, node)
	return op
}

// operationName reads op's name and returns what errors call the
// operation from then on: by its name once it has one.
func (p *parser) operationName(op *Operation, node operationNode, what string, parent *Operation) string {
	if v := node.fields["name"]; v != nil {
		op.Name = p.name(v, what+": name")
		if op.Name != "" {
			return "operation " + op.Name
		}
	} else if parent == nil {
		p.errorf(node.mapping, "%s has no name; give it one with name:", what)
	}
	return what
}

// operationKind reads op's kind, which decides every other key; false
// when there is none to go on. A step's kind must suit its parent, and a
// step left unnamed is named after its kind.
func (p *parser) operationKind(op *Operation, node operationNode, what string, parent *Operation) (kindInfo, bool) {
	kv := node.fields["kind"]
	if kv == nil {
		p.errorf(node.mapping, "%s has no kind; accepted: %s", what, strings.Join(kindNames(), ", "))
		return kindInfo{}, false
	}
	info, known := kindOf(kv.Value)
	if !known || kv.Kind != yaml.ScalarNode {
		p.errorf(kv, "%s: kind %q is not an operation kind; accepted: %s", what, kv.Value, strings.Join(kindNames(), ", "))
		return kindInfo{}, false
	}
	op.Kind = info.kind
	if parent == nil {
		return info, true
	}
	switch {
	case parent.Kind == BulkWrite && !info.write:
		p.errorf(kv, "%s: a bulkWrite step cannot be %s; accepted: %s", what, info.kind, strings.Join(writeKindNames(), ", "))
	case parent.Kind == Transaction && (info.kind == Transaction || info.kind == CreateIndex):
		p.errorf(kv, "%s: a transaction step cannot be %s; accepted: any other kind", what, info.kind)
	}
	if op.Name == "" {
		op.Name = parent.Name + "." + string(info.kind)
	}
	return info, true
}

// checkOperationKeys reports keys the kind does not take and options it
// needs that are missing.
func (p *parser) checkOperationKeys(node operationNode, what string, info kindInfo, parent *Operation) {
	accepted := append(slices.Clone(commonOperationKeys), info.options...)
	if parent != nil {
		// Steps share their operation's weight and let.
		accepted = slices.DeleteFunc(accepted, func(s string) bool { return s == "weight" || s == "let" })
	}
	for key, k := range node.keys {
		if !slices.Contains(accepted, key) {
			p.errorf(k, "%s: key %q is not an option of %s; accepted: %s", what, key, info.kind, strings.Join(accepted, ", "))
		}
	}
	for _, req := range info.required {
		if node.fields[req] == nil {
			p.errorf(node.mapping, "%s: %s needs %s", what, info.kind, req)
		}
	}
}

// operationCollection points op at the collection it names; a step that
// names none works on its parent's.
func (p *parser) operationCollection(op *Operation, node operationNode, what string, parent *Operation) {
	v := node.fields["collection"]
	if v != nil {
		name := p.str(v, what+": collection")
		if c, found := p.colls[name]; found {
			op.Collection = c
			// One bulkWrite is one command on one collection.
			if parent != nil && parent.Kind == BulkWrite && parent.Collection != nil && c != parent.Collection {
				p.errorf(v, "%s: a bulkWrite step writes to the bulkWrite's collection %s, not %s; accepted: no collection, or %s (a transaction's steps may each name their own)", what, parent.Collection.Name, name, parent.Collection.Name)
			}
		} else if name != "" {
			p.errorf(v, "%s: collection %q is not among the workload's collections; accepted: %s", what, name, strings.Join(p.collectionNames(), ", "))
		}
	} else if parent != nil {
		op.Collection = parent.Collection
	}
	// A transaction needs no collection of its own: its steps may name theirs.
	if op.Collection == nil && v == nil && op.Kind != Transaction {
		p.errorf(node.mapping, "%s has no collection; accepted: %s", what, strings.Join(p.collectionNames(), ", "))
	}
}

// operationScope reads op's let and returns what its templates may refer
// to. A step sees its parent's lets, and its values are keyed under its
// parent's name as well as its own, so that steps of two operations never
// draw the same values.
func (p *parser) operationScope(op *Operation, node operationNode, what string, parent *Operation) scope {
	sc := scope{name: "op:" + op.Name, collection: op.Collection}
	if parent != nil {
		sc.lets = parent.Let
		sc.name = "op:" + parent.Name + "/" + op.Name
	}
	if v := node.fields["let"]; v != nil && parent == nil {
		p.mapping(v, what+": let", nil, func(key string, k, lv *yaml.Node) {
			if !nameRE.MatchString(key) {
				p.errorf(k, "%s: let %q is not a name; accepted: letters, digits, _ and -", what, key)
				return
			}
			// Each let sees only the lets before it, which are made first.
			t := p.template(lv, what+": let "+key, scope{name: "op:" + op.Name + "/let", lets: op.Let}, wantAny)
			op.Let = append(op.Let, Let{Name: key, Value: t})
		})
		sc.lets = op.Let
	}
	return sc
}

// templateOptions are the operation options that are templates: the shape
// each must have at its root and the field it compiles into.
var templateOptions = map[string]struct {
	want  want
	field func(*Operation) **Template
}{
	"document":     {wantDocument, func(op *Operation) **Template { return &op.Document }},
	"filter":       {wantDocument, func(op *Operation) **Template { return &op.Filter }},
	"update":       {wantDocumentOrList, func(op *Operation) **Template { return &op.Update }},
	"arrayFilters": {wantList, func(op *Operation) **Template { return &op.ArrayFilters }},
	"projection":   {wantDocument, func(op *Operation) **Template { return &op.Projection }},
	"sort":         {wantDocument, func(op *Operation) **Template { return &op.Sort }},
	"hint":         {wantAny, func(op *Operation) **Template { return &op.Hint }},
	"pipeline":     {wantList, func(op *Operation) **Template { return &op.Pipeline }},
	"keys":         {wantDocument, func(op *Operation) **Template { return &op.Keys }},
}

// operationOption reads one of the kind's options into op.
func (p *parser) operationOption(op *Operation, key string, v *yaml.Node, what string, sc scope) {
	ow := what + ": " + key
	if t, isTemplate := templateOptions[key]; isTemplate {
		*t.field(op) = p.template(v, ow, sc, t.want)
		if key == "pipeline" {
			op.Stages = stageNames(v)
		}
		if key == "arrayFilters" && v.Kind == yaml.SequenceNode {
			for _, f := range v.Content {
				if f.Kind != yaml.MappingNode {
					p.errorf(f, "%s: an array filter is a document, such as {elem.qty: {$gt: 5}}", ow)
				}
			}
		}
		return
	}
	switch key {
	case "field":
		op.Field = p.str(v, ow)
	case "indexName":
		op.IndexName = p.str(v, ow)
	case "unique":
		op.Unique = p.bool(v, ow)
	case "limit":
		op.Limit = p.int(v, ow, 0, math.MaxInt64)
	case "skip":
		op.Skip = p.int(v, ow, 0, math.MaxInt64)
	case "upsert":
		op.Upsert = p.bool(v, ow)
	case "ordered":
		op.Ordered = p.bool(v, ow)
	case "returnNew":
		op.ReturnNew = p.bool(v, ow)
	case "batch":
		op.Batch = int(p.int(v, ow, 1, maxBatch))
	case "readConcern":
		op.ReadConcern = p.oneOf(v, ow, readConcerns)
	case "writeConcern":
		op.WriteConcern = p.oneOf(v, ow, writeConcerns)
	case "retries":
		op.Retries = int(p.int(v, ow, 0, maxRetries))
	case "atomic":
		op.Atomic = p.bool(v, ow)
	case "steps":
		p.steps(op, v, what)
	}
}

// steps reads a bulkWrite's or a transaction's steps, each an operation
// of its own.
func (p *parser) steps(op *Operation, v *yaml.Node, what string) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		p.errorf(v, "%s: steps is a %s; expected a list of one or more operations", what, kindWord(v))
		return
	}
	for i, s := range v.Content {
		if st := p.operation(resolve(s), fmt.Sprintf("%s: step %d", what, i+1), op); st != nil {
			op.Steps = append(op.Steps, st)
		}
	}
}

// operationDefaults fills in what the file left out.
func operationDefaults(op *Operation, node operationNode) {
	switch op.Kind {
	case InsertOne, InsertMany, ReplaceOne:
		if op.Document == nil && op.Collection != nil {
			op.Document = op.Collection.Document
		}
	}
	if op.Kind == InsertMany && op.Batch == 0 {
		op.Batch = 100
	}
	if (op.Kind == InsertMany || op.Kind == BulkWrite) && node.fields["ordered"] == nil {
		op.Ordered = true
	}
	if op.Kind == Transaction && node.fields["retries"] == nil {
		op.Retries = 3
	}
	if op.Kind == Transaction && node.fields["atomic"] == nil {
		op.Atomic = true
	}
}

func writeKindNames() []string {
	var out []string
	for _, k := range kinds {
		if k.write {
			out = append(out, string(k.kind))
		}
	}
	return out
}

func (p *parser) operationNames() []string {
	names := make([]string, 0, len(p.file.Operations))
	for _, o := range p.file.Operations {
		names = append(names, o.Name)
	}
	return names
}

// stageNames are the first keys of a pipeline's stages: the stage names a
// server must know.
func stageNames(v *yaml.Node) []string {
	if v.Kind != yaml.SequenceNode {
		return nil
	}
	var names []string
	for _, st := range v.Content {
		if st.Kind == yaml.MappingNode && len(st.Content) >= 2 {
			names = append(names, st.Content[0].Value)
		}
	}
	return names
}
