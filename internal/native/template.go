package native

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mongobench/mongobench/internal/generator"
)

// Template is a compiled value template: a document, list or single value
// whose generated parts are drawn afresh for each number.
type Template struct {
	g gen
	// key is the root's key: a hash of the seed, the scope (collection or
	// operation) and nothing else; fields mix their path into it.
	key       uint64
	line, col int
	// fixed: nothing in it is generated, so every number gives the same
	// bytes.
	fixed bool
}

// Append appends the template's value for number n (a document number in
// a collection, an operation number in an operation) and returns its BSON
// type. The value depends on nothing else: not on c's history, not on
// what was generated before.
func (t *Template) Append(dst []byte, c *Ctx, n int64) ([]byte, byte) {
	c.n = n
	return t.g.appendValue(dst, c, t.key)
}

// Fixed reports whether the template generates nothing, so one encoding
// serves every operation.
func (t *Template) Fixed() bool { return t.fixed }

// Position is where the template starts in the file.
func (t *Template) Position() (line, col int) { return t.line, t.col }

// BeginOperation generates op's let values for operation number n; its
// templates' ^let then reuse them.
func (c *Ctx) BeginOperation(op *Operation, n int64) {
	if cap(c.lets) < len(op.Let) {
		c.lets = make([]letValue, len(op.Let))
	}
	c.lets = c.lets[:len(op.Let)]
	for i, l := range op.Let {
		// A let may use the lets before it, so each is stored as soon as
		// it is made.
		b, t := l.Value.Append(c.lets[i].b[:0], c, n)
		c.lets[i] = letValue{t: t, b: b}
	}
}

// want says which shapes a template may have at its root.
type want uint8

const (
	wantAny want = iota
	wantDocument
	wantList
	wantDocumentOrList
)

// scope is what a template may refer to: its name keys its values, lets
// are the ^let names visible, collection is the one it belongs to.
type scope struct {
	name       string
	collection *Collection
	lets       []Let
}

// pendingRef is a ^ref waiting for every collection to be compiled.
type pendingRef struct {
	g     *refGen
	node  *yaml.Node
	coll  string
	path  string
	dist  distKind
	where string
}

// compiler compiles one template.
type compiler struct {
	p     *parser
	sc    scope
	base  uint64
	fixed bool
}

// template compiles n; what names it in errors.
func (p *parser) template(n *yaml.Node, what string, sc scope, w want) *Template {
	n = resolve(n)
	switch {
	case w == wantDocument && n.Kind != yaml.MappingNode,
		w == wantList && n.Kind != yaml.SequenceNode,
		w == wantDocumentOrList && n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode:
		expected := map[want]string{wantDocument: "a document (a mapping)", wantList: "a list", wantDocumentOrList: "a document or a list"}[w]
		p.errorf(n, "%s is a %s; expected %s", what, kindWord(n), expected)
		return nil
	}
	if w == wantDocument && isGenerator(n) {
		p.errorf(n, "%s is a generator; expected a document (a mapping of fields)", what)
		return nil
	}
	base := hashString(0, sc.name)
	c := &compiler{p: p, sc: sc, base: base, fixed: true}
	g := c.value(n, what, "", 0)
	if g == nil {
		return nil
	}
	if size := g.maxSize(); size > maxDocument {
		p.errorf(n, "%s can reach %d bytes; accepted: at most %d (BSON's 16 MiB document limit)", what, size, maxDocument)
		return nil
	}
	t := &Template{g: g, key: mix64(p.file.Seed, base), line: n.Line, col: n.Column, fixed: c.fixed}
	if t.fixed {
		// Encoded once: a fixed filter or sort costs nothing per operation.
		b, ty := g.appendValue(nil, nil, 0)
		t.g = &constGen{t: ty, b: b}
	}
	return t
}

// fieldKey is the key of the value at path: the seed, the scope and the
// path, so that the same path in another collection or operation draws
// other values.
func (c *compiler) fieldKey(path string) uint64 {
	return mix64(c.p.file.Seed, hashString(c.base, "\x00"+path))
}

func isGenerator(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && len(n.Content) == 2 && strings.HasPrefix(n.Content[0].Value, "^")
}

const maxDepth = 100

// maxDocument is BSON's limit on a document's size.
const maxDocument = 16 << 20

func (c *compiler) value(n *yaml.Node, what, path string, depth int) gen {
	n = resolve(n)
	if depth > maxDepth {
		c.p.errorf(n, "%s nests deeper than %d levels; accepted: at most %d", what, maxDepth, maxDepth)
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		if isGenerator(n) {
			return c.generator(n.Content[0], resolve(n.Content[1]), what, path, depth)
		}
		d := &docGen{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if strings.HasPrefix(k.Value, "^") {
				c.p.errorf(k, "%s: %s stands beside other keys; a generator is the only key of its mapping", what, k.Value)
				continue
			}
			if strings.IndexByte(k.Value, 0) >= 0 {
				c.p.errorf(k, "%s: a field name holds a NUL byte; accepted: names without NUL", what)
				continue
			}
			fp := joinPath(path, k.Value)
			g := c.value(n.Content[i+1], what, fp, depth+1)
			if g != nil {
				d.fields = append(d.fields, docField{name: k.Value, key: c.fieldKey(fp), g: g})
			}
		}
		return d
	case yaml.SequenceNode:
		l := &listGen{}
		for i, e := range n.Content {
			ep := joinPath(path, strconv.Itoa(i))
			g := c.value(e, what, ep, depth+1)
			if g != nil {
				l.elems = append(l.elems, g)
				l.keys = append(l.keys, c.fieldKey(ep))
			}
		}
		return l
	case yaml.ScalarNode:
		return c.scalar(n, what)
	}
	c.p.errorf(n, "%s: unexpected %s", what, kindWord(n))
	return nil
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// scalar is a constant. Integers that fit 32 bits are int32 and larger
// ones int64, as MongoDB's relaxed Extended JSON reads them.
func (c *compiler) scalar(n *yaml.Node, what string) gen {
	switch n.Tag {
	case "!!null":
		return &constGen{t: tNull}
	case "!!bool":
		b := byte(0)
		if strings.EqualFold(n.Value, "true") {
			b = 1
		}
		return &constGen{t: tBool, b: []byte{b}}
	case "!!int":
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			c.p.errorf(n, "%s: %s does not fit a 64-bit integer; accepted: -9223372036854775808 to 9223372036854775807", what, n.Value)
			return nil
		}
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return &constGen{t: tInt32, b: binary.LittleEndian.AppendUint32(nil, uint32(int32(v)))}
		}
		return &constGen{t: tInt64, b: binary.LittleEndian.AppendUint64(nil, uint64(v))}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			c.p.errorf(n, "%s: %q is not a number", what, n.Value)
			return nil
		}
		return &constGen{t: tDouble, b: binary.LittleEndian.AppendUint64(nil, math.Float64bits(f))}
	case "!!timestamp":
		var t time.Time
		if err := n.Decode(&t); err != nil {
			c.p.errorf(n, "%s: %q is not a date; accepted: 2006-01-02 or RFC 3339", what, n.Value)
			return nil
		}
		return &constGen{t: tDate, b: binary.LittleEndian.AppendUint64(nil, uint64(t.UnixMilli()))}
	}
	return &constGen{t: tString, b: appendString(nil, n.Value)}
}

// generatorNames are the ^ generators, for messages and the schema.
var generatorNames = []string{
	"^int32", "^int64", "^double", "^decimal", "^string", "^bool", "^date", "^now",
	"^objectId", "^uuid", "^binary", "^array", "^choice", "^fake", "^ref", "^let", "^number",
}

// objectIDEpoch is the timestamp of the first generated ObjectId
// (2024-01-01T00:00:00Z): fixed, so ObjectIds are reproducible.
const objectIDEpoch = 1704067200

func (c *compiler) generator(k, opt *yaml.Node, what, path string, depth int) gen {
	name := k.Value
	gw := what + ": " + name
	c.fixed = false
	switch name {
	case "^int32", "^int64":
		hi := int64(math.MaxInt64)
		lo := int64(math.MinInt64)
		if name == "^int32" {
			hi, lo = math.MaxInt32, math.MinInt32
		}
		d := c.intDist(opt, gw, lo, hi, 0, hi, true)
		if d == nil {
			return nil
		}
		return &intGen{d: d, is32: name == "^int32"}
	case "^number":
		c.noOptions(opt, gw)
		return &intGen{number: true}
	case "^double":
		return c.double(opt, gw)
	case "^decimal":
		return c.decimal(opt, gw)
	case "^string":
		return c.stringGen(opt, gw)
	case "^bool":
		g := &boolGen{p: 0.5}
		if opt.Kind == yaml.ScalarNode && opt.Tag != "!!null" {
			g.p = c.p.float(opt, gw+" (the share of true)", 0, 1)
		} else if opt.Kind == yaml.MappingNode {
			c.p.mapping(opt, gw, []string{"p"}, func(_ string, _, v *yaml.Node) { g.p = c.p.float(v, gw+": p", 0, 1) })
		}
		return g
	case "^date":
		return c.date(opt, gw)
	case "^now":
		c.noOptions(opt, gw)
		return &dateGen{now: true}
	case "^objectId":
		c.noOptions(opt, gw)
		return &objectIDGen{epoch: objectIDEpoch}
	case "^uuid":
		c.noOptions(opt, gw)
		return uuidGen{}
	case "^binary":
		l := c.length(opt, gw, 16)
		if l == nil {
			return nil
		}
		return &binaryGen{length: l}
	case "^array":
		return c.array(opt, gw, path, depth)
	case "^choice":
		return c.choice(opt, gw, path, depth)
	case "^fake":
		names := make([]string, len(fakers))
		for i, f := range fakers {
			names[i] = f.name
		}
		s := c.p.oneOf(opt, gw, names)
		for _, f := range fakers {
			if f.name == s {
				return &fakeGen{f: f.f}
			}
		}
		return nil
	case "^ref":
		return c.ref(opt, gw)
	case "^let":
		s := c.p.str(opt, gw)
		for i, l := range c.sc.lets {
			if l.Name == s {
				size := int64(0)
				if l.Value != nil {
					size = l.Value.g.maxSize()
				}
				return &letGen{i: i, size: size}
			}
		}
		if s != "" {
			names := make([]string, len(c.sc.lets))
			for i, l := range c.sc.lets {
				names[i] = l.Name
			}
			accepted := "the operation has no let"
			if len(names) > 0 {
				accepted = "its let defines " + strings.Join(names, ", ")
			}
			c.p.errorf(opt, "%s: %q is not a let of this operation; %s", gw, s, accepted)
		}
		return nil
	}
	c.p.errorf(k, "%s: unknown generator %s; accepted: %s", what, name, strings.Join(generatorNames, ", "))
	return nil
}

func (c *compiler) noOptions(opt *yaml.Node, what string) {
	if opt.Kind == yaml.ScalarNode && (opt.Tag == "!!null" || opt.Value == "") {
		return
	}
	if opt.Kind == yaml.MappingNode && len(opt.Content) == 0 {
		return
	}
	c.p.errorf(opt, "%s takes no options; write it as {%s: {}}", what, strings.SplitN(what, ": ", 2)[len(strings.SplitN(what, ": ", 2))-1])
}

// options reads a generator's option mapping; nil or {} gives defaults.
func (c *compiler) options(opt *yaml.Node, what string, accepted []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if opt.Kind == yaml.ScalarNode && opt.Tag == "!!null" {
		return out
	}
	c.p.mapping(opt, what, accepted, func(key string, _, v *yaml.Node) { out[key] = v })
	return out
}

func (c *compiler) dist(n *yaml.Node, what string, allowed []string) distKind {
	s := c.p.oneOf(n, what, allowed)
	return distKind(max(0, slices.Index(distNames, s)))
}

// intDist reads {min, max, dist, mean, stddev} for integers within [lo,
// hi]; defMin and defMax are the range when not given.
func (c *compiler) intDist(opt *yaml.Node, what string, lo, hi, defMin, defMax int64, seq bool) *intDist {
	o := c.options(opt, what, []string{"min", "max", "dist", "mean", "stddev"})
	min, max := defMin, defMax
	if v := o["min"]; v != nil {
		min = c.p.int(v, what+": min", lo, hi)
	}
	if v := o["max"]; v != nil {
		max = c.p.int(v, what+": max", lo, hi)
	}
	if min > max {
		c.p.errorf(opt, "%s: min %d is above max %d; accepted: min ≤ max", what, min, max)
		return nil
	}
	kind := distUniform
	allowed := distNames
	if !seq {
		allowed = distNames[:3]
	}
	if v := o["dist"]; v != nil {
		kind = c.dist(v, what+": dist", allowed)
	}
	mean := float64(min)/2 + float64(max)/2
	sd := (float64(max) - float64(min)) / 6
	if v := o["mean"]; v != nil {
		mean = c.p.float(v, what+": mean", -math.MaxFloat64, math.MaxFloat64)
	}
	if v := o["stddev"]; v != nil {
		sd = c.p.float(v, what+": stddev", 0, math.MaxFloat64)
	}
	if kind != distNormal && (o["mean"] != nil || o["stddev"] != nil) {
		c.p.errorf(opt, "%s: mean and stddev are for dist: normal; accepted with %s: min, max", what, distNames[kind])
	}
	return newIntDist(kind, min, max, mean, sd)
}

// length reads a length: a number, or a distribution of them.
func (c *compiler) length(opt *yaml.Node, what string, def int64) *intDist {
	const maxLen = 16 << 20 // BSON's document limit
	if opt.Kind == yaml.ScalarNode && opt.Tag != "!!null" {
		n := c.p.int(opt, what+" (a length)", 0, maxLen)
		return newIntDist(distUniform, n, n, 0, 0)
	}
	if opt.Kind == yaml.MappingNode {
		o := c.options(opt, what, nil)
		if v := o["length"]; v != nil {
			if v.Kind == yaml.ScalarNode {
				n := c.p.int(v, what+": length", 0, maxLen)
				return newIntDist(distUniform, n, n, 0, 0)
			}
			return c.intDist(v, what+": length", 0, maxLen, 0, def, false)
		}
	}
	return newIntDist(distUniform, def, def, 0, 0)
}

func (c *compiler) double(opt *yaml.Node, what string) gen {
	o := c.options(opt, what, []string{"min", "max", "dist", "mean", "stddev"})
	g := &doubleGen{min: 0, max: 1}
	if v := o["min"]; v != nil {
		g.min = c.p.float(v, what+": min", -math.MaxFloat64, math.MaxFloat64)
	}
	if v := o["max"]; v != nil {
		g.max = c.p.float(v, what+": max", -math.MaxFloat64, math.MaxFloat64)
	}
	if g.min > g.max {
		c.p.errorf(opt, "%s: min %g is above max %g; accepted: min ≤ max", what, g.min, g.max)
	}
	if v := o["dist"]; v != nil {
		g.kind = c.dist(v, what+": dist", []string{"uniform", "normal"})
	}
	g.mean, g.sd = (g.min+g.max)/2, (g.max-g.min)/6
	if v := o["mean"]; v != nil {
		g.mean = c.p.float(v, what+": mean", -math.MaxFloat64, math.MaxFloat64)
	}
	if v := o["stddev"]; v != nil {
		g.sd = c.p.float(v, what+": stddev", 0, math.MaxFloat64)
	}
	return g
}

func (c *compiler) decimal(opt *yaml.Node, what string) gen {
	o := c.options(opt, what, []string{"min", "max", "scale", "dist"})
	scale := int64(2)
	if v := o["scale"]; v != nil {
		scale = c.p.int(v, what+": scale", 0, 18)
	}
	pow := math.Pow10(int(scale))
	lim := float64(math.MaxInt64) / pow / 2
	min, max := 0.0, 1000.0
	if v := o["min"]; v != nil {
		min = c.p.float(v, what+": min", -lim, lim)
	}
	if v := o["max"]; v != nil {
		max = c.p.float(v, what+": max", -lim, lim)
	}
	if min > max {
		c.p.errorf(opt, "%s: min %g is above max %g; accepted: min ≤ max", what, min, max)
		return nil
	}
	kind := distUniform
	if v := o["dist"]; v != nil {
		kind = c.dist(v, what+": dist", []string{"uniform", "zipfian"})
	}
	lo, hi := int64(math.Round(min*pow)), int64(math.Round(max*pow))
	return &decimalGen{d: newIntDist(kind, lo, hi, 0, 0), scale: int(scale)}
}

func (c *compiler) stringGen(opt *yaml.Node, what string) gen {
	g := &stringGen{alphabet: defaultAlphabet}
	if opt.Kind == yaml.MappingNode {
		o := c.options(opt, what, []string{"length", "alphabet"})
		if v := o["alphabet"]; v != nil {
			g.alphabet = c.p.str(v, what+": alphabet")
			if len(g.alphabet) == 0 || len(g.alphabet) > 256 {
				c.p.errorf(v, "%s: alphabet has %d bytes; accepted: 1 to 256", what, len(g.alphabet))
				g.alphabet = defaultAlphabet
			}
		}
	}
	g.length = c.length(opt, what, 10)
	g.table = alphabetTable(g.alphabet)
	return g
}

// dateLayouts are the forms a date bound may take.
var dateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"}

func (c *compiler) dateBound(n *yaml.Node, what string) int64 {
	s := n.Value
	if n.Kind == yaml.ScalarNode {
		for _, l := range dateLayouts {
			if t, err := time.Parse(l, s); err == nil {
				return t.UnixMilli()
			}
		}
	}
	c.p.errorf(n, "%s is %q; accepted: a date as 2006-01-02 or RFC 3339 (2006-01-02T15:04:05Z)", what, s)
	return 0
}

func (c *compiler) date(opt *yaml.Node, what string) gen {
	o := c.options(opt, what, []string{"from", "to", "dist"})
	from := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	if v := o["from"]; v != nil {
		from = c.dateBound(v, what+": from")
	}
	if v := o["to"]; v != nil {
		to = c.dateBound(v, what+": to")
	}
	if from > to {
		c.p.errorf(opt, "%s: from is after to; accepted: from ≤ to", what)
		return nil
	}
	kind := distUniform
	if v := o["dist"]; v != nil {
		kind = c.dist(v, what+": dist", []string{"uniform", "zipfian", "normal", "sequence"})
	}
	return &dateGen{d: newIntDist(kind, from, to, float64(from)/2+float64(to)/2, float64(to-from)/6)}
}

func (c *compiler) array(opt *yaml.Node, what, path string, depth int) gen {
	if opt.Kind != yaml.MappingNode {
		c.p.errorf(opt, "%s is a %s; expected {of: TEMPLATE, length: N or {min, max}}", what, kindWord(opt))
		return nil
	}
	o := c.options(opt, what, []string{"of", "length"})
	of := o["of"]
	if of == nil {
		c.p.errorf(opt, "%s has no of; give the elements' template as of:", what)
		return nil
	}
	g := c.value(of, what, joinPath(path, "$"), depth+1)
	l := c.length(opt, what, 3)
	if g == nil || l == nil {
		return nil
	}
	return &arrayGen{length: l, of: g}
}

func (c *compiler) choice(opt *yaml.Node, what, path string, depth int) gen {
	from, weights := opt, (*yaml.Node)(nil)
	if opt.Kind == yaml.MappingNode {
		o := c.options(opt, what, []string{"from", "weights"})
		from, weights = o["from"], o["weights"]
		if from == nil {
			c.p.errorf(opt, "%s has no from; give the values to choose from as from: [...]", what)
			return nil
		}
	}
	if from.Kind != yaml.SequenceNode || len(from.Content) == 0 {
		c.p.errorf(from, "%s: from is a %s; expected a list of one or more values", what, kindWord(from))
		return nil
	}
	g := &choiceGen{}
	w := make([]float64, len(from.Content))
	for i, e := range from.Content {
		v := c.value(e, what, joinPath(path, strconv.Itoa(i)), depth+1)
		if v == nil {
			return nil
		}
		g.from = append(g.from, v)
		w[i] = 1
	}
	if weights != nil {
		if weights.Kind != yaml.SequenceNode || len(weights.Content) != len(from.Content) {
			c.p.errorf(weights, "%s: weights must be a list of %d numbers, one per value", what, len(from.Content))
			return nil
		}
		sum := 0.0
		for i, e := range weights.Content {
			w[i] = c.p.float(resolve(e), what+": weight", 0, 1e12)
			sum += w[i]
		}
		if sum == 0 {
			c.p.errorf(weights, "%s: every weight is 0; give at least one a positive weight", what)
			return nil
		}
	}
	g.pick = generator.NewDiscrete(w)
	return g
}

func (c *compiler) ref(opt *yaml.Node, what string) gen {
	var field *yaml.Node
	kind := distUniform
	switch opt.Kind {
	case yaml.ScalarNode:
		field = opt
	case yaml.MappingNode:
		o := c.options(opt, what, []string{"field", "dist"})
		field = o["field"]
		if v := o["dist"]; v != nil {
			kind = c.dist(v, what+": dist", []string{"uniform", "zipfian", "normal"})
		}
	}
	if field == nil || field.Kind != yaml.ScalarNode {
		c.p.errorf(opt, "%s: expected collection.field (orders._id) or {field: collection.field, dist: zipfian}", what)
		return nil
	}
	coll, path, ok := strings.Cut(field.Value, ".")
	if !ok || coll == "" || path == "" {
		c.p.errorf(field, "%s: %q is not collection.field; accepted: a collection's name, a dot, and a field of its document template (orders._id)", what, field.Value)
		return nil
	}
	g := &refGen{}
	c.p.refs = append(c.p.refs, pendingRef{g: g, node: field, coll: coll, path: path, dist: kind, where: what})
	return g
}

// resolveRefs points each ^ref at the field it names, once every
// collection's template is compiled.
func (p *parser) resolveRefs() {
	for _, r := range p.refs {
		c, ok := p.colls[r.coll]
		if !ok {
			p.errorf(r.node, "%s: %q is not a collection of the workload; accepted: %s", r.where, r.coll, strings.Join(p.collectionNames(), ", "))
			continue
		}
		if c.Document == nil {
			continue // its own error is said already
		}
		f := findField(c.Document, r.path)
		if f == nil {
			p.errorf(r.node, "%s: collection %s's document has no field %s; accepted: %s", r.where, c.Name, r.path, strings.Join(fieldPaths(c.Document), ", "))
			continue
		}
		if _, isRef := f.g.(*refGen); isRef {
			p.errorf(r.node, "%s: %s.%s is itself a ^ref; refer to the field it refers to", r.where, c.Name, r.path)
			continue
		}
		if c.Documents == 0 {
			p.errorf(r.node, "%s: collection %s has no documents to refer to; set its documents: N", r.where, c.Name)
			continue
		}
		r.g.field, r.g.key = f.g, f.key
		r.g.pick = newIntDist(r.dist, 0, c.Documents-1, float64(c.Documents-1)/2, float64(c.Documents)/6)
	}
	p.refs = nil
}

// findField finds the generator of a dotted path in a document template.
func findField(t *Template, path string) *docField {
	d, ok := t.g.(*docGen)
	if !ok {
		return nil
	}
	for {
		head, rest, more := strings.Cut(path, ".")
		var f *docField
		for i := range d.fields {
			if d.fields[i].name == head {
				f = &d.fields[i]
			}
		}
		if f == nil {
			return nil
		}
		if !more {
			return f
		}
		if d, ok = f.g.(*docGen); !ok {
			return nil
		}
		path = rest
	}
}

func fieldPaths(t *Template) []string {
	d, ok := t.g.(*docGen)
	if !ok {
		return []string{"(none: the template is fixed)"}
	}
	var out []string
	var walk func(d *docGen, prefix string)
	walk = func(d *docGen, prefix string) {
		for _, f := range d.fields {
			out = append(out, prefix+f.name)
			if sub, ok := f.g.(*docGen); ok {
				walk(sub, prefix+f.name+".")
			}
		}
	}
	walk(d, "")
	return out
}

// String names the template's position, for messages.
func (t *Template) String() string { return fmt.Sprintf("template at %d:%d", t.line, t.col) }
