package native

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mongobench/mongobench/internal/printable"
)

// Error is one thing wrong in a workload file, where it is.
type Error struct {
	Line, Col int // 0: the whole file (a -p override, say)
	Msg       string
}

// Errors is everything wrong in one file, in the order found.
type Errors struct {
	File string
	List []Error
}

// Error prints one line per error: FILE:LINE:COL: what is wrong; what is
// accepted.
func (e *Errors) Error() string {
	var b strings.Builder
	for i, x := range e.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.format(x))
	}
	return b.String()
}

func (e *Errors) format(x Error) string {
	if x.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, x.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, x.Line, x.Col, x.Msg)
}

// Lines returns each error as its one line.
func (e *Errors) Lines() []string {
	out := make([]string, len(e.List))
	for i, x := range e.List {
		out[i] = e.format(x)
	}
	return out
}

// maxErrors stops a file that is wrong throughout from burying the first
// errors, which are the ones to fix first.
const maxErrors = 50

// IsNative reports whether data looks like a native workload file rather
// than YCSB properties: a YAML or JSON mapping with one of the native
// sections. YCSB's "name=value" lines are never a YAML mapping.
func IsNative(data []byte) bool {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return false
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "collections", "operations", "phases":
			return true
		}
	}
	return false
}

// Parse reads and checks a workload file. overrides are -p name=value
// settings of its parameters, applied before anything else is read. The
// error, if any, is an *Errors listing everything wrong.
func Parse(path string, data []byte, overrides []Parameter) (*File, error) {
	p := &parser{file: &File{Path: path, Seed: 1}, params: map[string]*yaml.Node{}}
	p.parse(data, overrides)
	if len(p.errs) > 0 {
		return nil, &Errors{File: path, List: p.errs}
	}
	return p.file, nil
}

type parser struct {
	file   *File
	errs   []Error
	params map[string]*yaml.Node
	colls  map[string]*Collection
	ops    map[string]*Operation
	refs   []pendingRef
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	if len(p.errs) >= maxErrors {
		return
	}
	// Messages quote what the file says, which may hold newlines or
	// escape sequences; each error must stay one printable line.
	e := Error{Msg: printable.String(fmt.Sprintf(format, args...))}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
		// One error per place: the first is the cause (an unknown
		// ${name}), what follows from it there (its value then not a
		// number) would only repeat it.
		for _, x := range p.errs {
			if x.Line == e.Line && x.Col == e.Col {
				return
			}
		}
	}
	p.errs = append(p.errs, e)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the syntax errors of the YAML library's parser, as
// opposed to its scanner: it numbers their lines from 0 (the line where
// the unclosed construct began), its scanner's from 1.
var parserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected key",
	"did not find expected node content",
}

func (p *parser) parse(data []byte, overrides []Parameter) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		// The YAML library reports a syntax error's line, not its column.
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			if slices.Contains(parserProblems, m[2]) {
				line++
			}
			p.errs = append(p.errs, Error{Line: line, Col: 1, Msg: printable.String("not valid YAML or JSON: " + m[2])})
			return
		}
		if errors.Is(err, io.EOF) {
			p.errs = append(p.errs, Error{Msg: "the file is empty; expected a workload: a mapping with collections, operations and phases"})
			return
		}
		p.errs = append(p.errs, Error{Msg: printable.String("not valid YAML or JSON: " + strings.TrimPrefix(msg, "yaml: "))})
		return
	}
	var extra yaml.Node
	if dec.Decode(&extra) == nil {
		p.errorf(&extra, "a second YAML document; a workload file holds one")
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		p.errorf(top, "the file is a %s; expected a mapping with the keys %s", kindWord(top), strings.Join(topKeys, ", "))
		return
	}
	sections := map[string]*yaml.Node{}
	p.mapping(top, "the file", topKeys, func(key string, _, v *yaml.Node) { sections[key] = v })
	if v := sections["parameters"]; v != nil {
		p.parameters(v, overrides)
	} else if len(overrides) > 0 {
		p.unknownOverrides(overrides)
	}
	for key, v := range sections {
		if key != "parameters" {
			p.substitute(v, 0)
		}
	}
	if v := sections["name"]; v != nil {
		p.file.Name = p.str(v, "name")
	}
	if v := sections["description"]; v != nil {
		p.file.Description = p.str(v, "description")
	}
	if v := sections["seed"]; v != nil {
		p.file.Seed = uint64(p.int(v, "seed", 0, math.MaxInt64))
	}
	if v := sections["collections"]; v != nil {
		p.collections(v)
	} else {
		p.errorf(top, "no collections; a workload names at least one collection under collections:")
	}
	p.resolveRefs()
	if v := sections["operations"]; v != nil {
		p.operations(v)
		p.resolveRefs()
	} else {
		p.errorf(top, "no operations; a workload names at least one operation under operations:")
	}
	if v := sections["phases"]; v != nil {
		p.phases(v)
	} else {
		p.errorf(top, "no phases; a workload has at least one of %s under phases:", strings.Join(phaseKinds, ", "))
	}
}

func kindWord(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return fmt.Sprintf("scalar (%q)", strings.TrimPrefix(n.Tag, "!!"))
}

// resolve follows YAML aliases to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// mapping walks a mapping's keys in order; a key outside accepted (nil:
// any key) is an error naming the accepted ones.
func (p *parser) mapping(n *yaml.Node, what string, accepted []string, f func(key string, k, v *yaml.Node)) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s is a %s; expected a mapping", what, kindWord(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		if accepted != nil && !slices.Contains(accepted, k.Value) {
			p.errorf(k, "unknown key %q in %s; accepted: %s", k.Value, what, strings.Join(accepted, ", "))
			continue
		}
		f(k.Value, k, v)
	}
}

func (p *parser) scalar(n *yaml.Node, what, expected string) bool {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s is a %s; expected %s", what, kindWord(n), expected)
		return false
	}
	return true
}

func (p *parser) str(n *yaml.Node, what string) string {
	if !p.scalar(n, what, "a string") {
		return ""
	}
	return n.Value
}

func (p *parser) int(n *yaml.Node, what string, lo, hi int64) int64 {
	accepted := fmt.Sprintf("an integer from %d to %d", lo, hi)
	if !p.scalar(n, what, accepted) {
		return lo
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	if err != nil || n.Tag != "!!int" {
		p.errorf(n, "%s is %q; expected %s", what, n.Value, accepted)
		return lo
	}
	if v < lo || v > hi {
		p.errorf(n, "%s is %d; expected %s", what, v, accepted)
		return lo
	}
	return v
}

func (p *parser) float(n *yaml.Node, what string, lo, hi float64) float64 {
	accepted := fmt.Sprintf("a number from %g to %g", lo, hi)
	if !p.scalar(n, what, accepted) {
		return lo
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || (n.Tag != "!!int" && n.Tag != "!!float") || math.IsNaN(v) {
		p.errorf(n, "%s is %q; expected %s", what, n.Value, accepted)
		return lo
	}
	if v < lo || v > hi {
		p.errorf(n, "%s is %g; expected %s", what, v, accepted)
		return lo
	}
	return v
}

func (p *parser) bool(n *yaml.Node, what string) bool {
	if !p.scalar(n, what, "true or false") {
		return false
	}
	if n.Tag != "!!bool" {
		p.errorf(n, "%s is %q; expected true or false", what, n.Value)
		return false
	}
	return n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
}

func (p *parser) oneOf(n *yaml.Node, what string, accepted []string) string {
	if !p.scalar(n, what, "one of "+strings.Join(accepted, ", ")) {
		return ""
	}
	if !slices.Contains(accepted, n.Value) {
		p.errorf(n, "%s is %q; accepted: %s", what, n.Value, strings.Join(accepted, ", "))
		return ""
	}
	return n.Value
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

func (p *parser) name(n *yaml.Node, what string) string {
	s := p.str(n, what)
	if s != "" && !nameRE.MatchString(s) {
		p.errorf(n, "%s %q is not a name; accepted: letters, digits, _ and -, starting with a letter or _", what, s)
		return ""
	}
	return s
}

// parameters reads the parameters and applies the overrides over them.
func (p *parser) parameters(n *yaml.Node, overrides []Parameter) {
	p.mapping(n, "parameters", nil, func(key string, k, v *yaml.Node) {
		if !nameRE.MatchString(key) {
			p.errorf(k, "parameter %q is not a name; accepted: letters, digits, _ and -, starting with a letter or _", key)
			return
		}
		if v.Kind != yaml.ScalarNode {
			p.errorf(v, "parameter %s is a %s; expected a number, string or boolean", key, kindWord(v))
			return
		}
		p.params[key] = v
		p.file.Parameters = append(p.file.Parameters, Parameter{Name: key, Value: v.Value})
	})
	p.unknownOverrides(overrides)
	for _, o := range overrides {
		v, ok := p.params[o.Name]
		if !ok {
			continue
		}
		var parsed yaml.Node
		if yaml.Unmarshal([]byte(o.Value), &parsed) != nil || len(parsed.Content) == 0 || parsed.Content[0].Kind != yaml.ScalarNode {
			// Not a YAML scalar: take it as the string it is.
			v.Value, v.Tag = o.Value, "!!str"
		} else {
			v.Value, v.Tag = parsed.Content[0].Value, parsed.Content[0].Tag
		}
		for i := range p.file.Parameters {
			if p.file.Parameters[i].Name == o.Name {
				p.file.Parameters[i].Value = o.Value
			}
		}
	}
}

func (p *parser) unknownOverrides(overrides []Parameter) {
	names := make([]string, 0, len(p.file.Parameters))
	for _, x := range p.file.Parameters {
		names = append(names, x.Name)
	}
	for _, o := range overrides {
		if _, ok := p.params[o.Name]; ok {
			continue
		}
		accepted := "the file has no parameters"
		if len(names) > 0 {
			accepted = "its parameters are " + strings.Join(names, ", ")
		}
		p.errs = append(p.errs, Error{Msg: printable.String(fmt.Sprintf("-p %s: not a parameter of the workload; %s", o.Name, accepted))})
	}
}

var paramRef = regexp.MustCompile(`\$\{([^}]*)\}`)

// substitute replaces ${name} in every scalar under n. A scalar that is
// only "${name}" takes the parameter's type too, so "count: ${docs}" is a
// number; within a longer string the value is spliced in as text.
func (p *parser) substitute(n *yaml.Node, depth int) {
	if n == nil || depth > 200 {
		return
	}
	if n.Kind != yaml.ScalarNode {
		for _, c := range n.Content {
			p.substitute(c, depth+1)
		}
		return
	}
	if !strings.Contains(n.Value, "${") {
		return
	}
	if m := paramRef.FindStringSubmatch(n.Value); m != nil && m[0] == n.Value && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		if v, ok := p.lookupParam(n, m[1]); ok {
			n.Value, n.Tag = v.Value, v.Tag
		}
		return
	}
	n.Value = paramRef.ReplaceAllStringFunc(n.Value, func(s string) string {
		if v, ok := p.lookupParam(n, s[2:len(s)-1]); ok {
			return v.Value
		}
		return s
	})
}

func (p *parser) lookupParam(n *yaml.Node, name string) (*yaml.Node, bool) {
	v, ok := p.params[name]
	if !ok {
		names := make([]string, 0, len(p.file.Parameters))
		for _, x := range p.file.Parameters {
			names = append(names, x.Name)
		}
		accepted := "the file declares no parameters"
		if len(names) > 0 {
			accepted = "declared: " + strings.Join(names, ", ")
		}
		p.errorf(n, "${%s} names no parameter; %s", name, accepted)
	}
	return v, ok
}

func (p *parser) collections(n *yaml.Node) {
	p.colls = map[string]*Collection{}
	p.mapping(n, "collections", nil, func(key string, k, v *yaml.Node) {
		if !nameRE.MatchString(key) {
			p.errorf(k, "collection %q is not a name; accepted: letters, digits, _ and -, starting with a letter or _", key)
			return
		}
		c := &Collection{Name: key}
		p.colls[key] = c
		p.file.Collections = append(p.file.Collections, c)
		what := "collection " + key
		var doc *yaml.Node
		p.mapping(v, what, collectionKeys, func(field string, _, fv *yaml.Node) {
			switch field {
			case "documents":
				c.Documents = p.int(fv, what+": documents", 0, math.MaxInt64)
			case "indexes":
				c.Indexes = p.indexes(fv, what, key)
			case "shardKey":
				c.ShardKey = p.template(fv, what+": shardKey", scope{name: key}, wantDocument)
			case "validator":
				c.Validator = p.template(fv, what+": validator", scope{name: key}, wantDocument)
			case "document":
				doc = fv
			}
		})
		if doc == nil {
			p.errorf(k, "%s has no document template; give one under document:", what)
			return
		}
		c.Document = p.template(doc, what+": document", scope{name: key, collection: c}, wantDocument)
	})
	if len(p.file.Collections) == 0 && n.Kind == yaml.MappingNode {
		p.errorf(n, "collections is empty; a workload names at least one collection")
	}
}

func (p *parser) indexes(n *yaml.Node, what, coll string) []Index {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s: indexes is a %s; expected a list of indexes, each with keys:", what, kindWord(n))
		return nil
	}
	var out []Index
	for i, in := range n.Content {
		in = resolve(in)
		iw := fmt.Sprintf("%s: index %d", what, i+1)
		var ix Index
		p.mapping(in, iw, indexKeys, func(key string, _, v *yaml.Node) {
			switch key {
			case "keys":
				ix.Keys = p.template(v, iw+": keys", scope{name: coll}, wantDocument)
			case "name":
				ix.Name = p.str(v, iw+": name")
			case "unique":
				ix.Unique = p.bool(v, iw+": unique")
			case "sparse":
				ix.Sparse = p.bool(v, iw+": sparse")
			case "expireAfterSeconds":
				ix.ExpireAfterSeconds = int32(p.int(v, iw+": expireAfterSeconds", 1, math.MaxInt32))
			}
		})
		if in.Kind == yaml.MappingNode && ix.Keys == nil {
			p.errorf(in, "%s has no keys; give them as keys: {field: 1}", iw)
		}
		out = append(out, ix)
	}
	return out
}

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

// operation reads one operation, or one step of parent.
func (p *parser) operation(n *yaml.Node, what string, parent *Operation) *Operation {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s is a %s; expected a mapping with name and kind", what, kindWord(n))
		return nil
	}
	op := &Operation{Weight: 1, line: n.Line, col: n.Column}
	fields := map[string]*yaml.Node{}
	keys := map[string]*yaml.Node{}
	p.mapping(n, what, nil, func(key string, k, v *yaml.Node) { fields[key], keys[key] = v, k })
	if v := fields["name"]; v != nil {
		op.Name = p.name(v, what+": name")
		if op.Name != "" {
			what = "operation " + op.Name
		}
	} else if parent == nil {
		p.errorf(n, "%s has no name; give it one with name:", what)
	}
	kv := fields["kind"]
	if kv == nil {
		p.errorf(n, "%s has no kind; accepted: %s", what, strings.Join(kindNames(), ", "))
		return op
	}
	info, ok := kindOf(kv.Value)
	if !ok || kv.Kind != yaml.ScalarNode {
		p.errorf(kv, "%s: kind %q is not an operation kind; accepted: %s", what, kv.Value, strings.Join(kindNames(), ", "))
		return op
	}
	op.Kind = info.kind
	if parent != nil {
		switch {
		case parent.Kind == BulkWrite && !info.write:
			p.errorf(kv, "%s: a bulkWrite step cannot be %s; accepted: %s", what, info.kind, strings.Join(writeKindNames(), ", "))
		case parent.Kind == Transaction && (info.kind == Transaction || info.kind == CreateIndex):
			p.errorf(kv, "%s: a transaction step cannot be %s; accepted: any other kind", what, info.kind)
		}
		if op.Name == "" {
			op.Name = parent.Name + "." + string(info.kind)
		}
	}
	accepted := append(slices.Clone(commonOperationKeys), info.options...)
	if parent != nil {
		// Steps share their operation's weight and let.
		accepted = slices.DeleteFunc(accepted, func(s string) bool { return s == "weight" || s == "let" })
	}
	for key, k := range keys {
		if !slices.Contains(accepted, key) {
			p.errorf(k, "%s: key %q is not an option of %s; accepted: %s", what, key, info.kind, strings.Join(accepted, ", "))
		}
	}
	for _, req := range info.required {
		if fields[req] == nil {
			p.errorf(n, "%s: %s needs %s", what, info.kind, req)
		}
	}
	if v := fields["weight"]; v != nil && parent == nil {
		op.Weight = p.float(v, what+": weight", 0, 1e9)
	}
	if v := fields["collection"]; v != nil {
		name := p.str(v, what+": collection")
		if c, ok := p.colls[name]; ok {
			op.Collection = c
		} else if name != "" {
			p.errorf(v, "%s: collection %q is not among the workload's collections; accepted: %s", what, name, strings.Join(p.collectionNames(), ", "))
		}
	} else if parent != nil {
		op.Collection = parent.Collection
	}
	if op.Collection == nil && fields["collection"] == nil && info.kind != Transaction {
		p.errorf(n, "%s has no collection; accepted: %s", what, strings.Join(p.collectionNames(), ", "))
	}
	sc := scope{name: "op:" + op.Name, collection: op.Collection}
	if parent != nil {
		sc.lets = parent.Let
		sc.name = "op:" + parent.Name + "/" + op.Name
	}
	if v := fields["let"]; v != nil && parent == nil {
		p.mapping(v, what+": let", nil, func(key string, k, lv *yaml.Node) {
			if !nameRE.MatchString(key) {
				p.errorf(k, "%s: let %q is not a name; accepted: letters, digits, _ and -", what, key)
				return
			}
			t := p.template(lv, what+": let "+key, scope{name: "op:" + op.Name + "/let", lets: op.Let}, wantAny)
			op.Let = append(op.Let, Let{Name: key, Value: t})
		})
		sc.lets = op.Let
	}
	for _, key := range info.options {
		v := fields[key]
		if v == nil {
			continue
		}
		ow := what + ": " + key
		switch key {
		case "document":
			op.Document = p.template(v, ow, sc, wantDocument)
		case "filter":
			op.Filter = p.template(v, ow, sc, wantDocument)
		case "update":
			op.Update = p.template(v, ow, sc, wantDocumentOrList)
		case "projection":
			op.Projection = p.template(v, ow, sc, wantDocument)
		case "sort":
			op.Sort = p.template(v, ow, sc, wantDocument)
		case "hint":
			op.Hint = p.template(v, ow, sc, wantAny)
		case "pipeline":
			op.Pipeline = p.template(v, ow, sc, wantList)
		case "keys":
			op.Keys = p.template(v, ow, sc, wantDocument)
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
		case "steps":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				p.errorf(v, "%s: steps is a %s; expected a list of one or more operations", what, kindWord(v))
				continue
			}
			for i, s := range v.Content {
				if st := p.operation(resolve(s), fmt.Sprintf("%s: step %d", what, i+1), op); st != nil {
					op.Steps = append(op.Steps, st)
				}
			}
		}
	}
	switch info.kind {
	case InsertOne, InsertMany, ReplaceOne:
		if op.Document == nil && op.Collection != nil {
			op.Document = op.Collection.Document
		}
	}
	if info.kind == InsertMany && op.Batch == 0 {
		op.Batch = 100
	}
	if info.kind == InsertMany && fields["ordered"] == nil {
		op.Ordered = true
	}
	if info.kind == BulkWrite && fields["ordered"] == nil {
		op.Ordered = true
	}
	if info.kind == Transaction && fields["retries"] == nil {
		op.Retries = 3
	}
	return op
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

func (p *parser) collectionNames() []string {
	names := make([]string, 0, len(p.file.Collections))
	for _, c := range p.file.Collections {
		names = append(names, c.Name)
	}
	if len(names) == 0 {
		return []string{"(none declared)"}
	}
	return names
}

func (p *parser) operationNames() []string {
	names := make([]string, 0, len(p.file.Operations))
	for _, o := range p.file.Operations {
		names = append(names, o.Name)
	}
	return names
}

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

// ParameterNames lists the parameters a file declares, so that a command
// line can tell which of its -p settings are the file's; nil when the
// file does not parse that far.
func ParameterNames(data []byte) []string {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "parameters" || top.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		var names []string
		p := top.Content[i+1]
		for j := 0; j+1 < len(p.Content); j += 2 {
			names = append(names, p.Content[j].Value)
		}
		return names
	}
	return nil
}
