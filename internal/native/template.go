package native

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
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
	// decimal: it may generate a decimal128 (^decimal, a dataset's value,
	// a let that does), which FerretDB cannot store.
	decimal bool
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

// compiler compiles one template.
type compiler struct {
	p       *parser
	sc      scope
	base    uint64
	fixed   bool
	decimal bool
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
	t := &Template{g: g, key: mix64(p.file.Seed, base), line: n.Line, col: n.Column, fixed: c.fixed, decimal: c.decimal}
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

// String names the template's position, for messages.
func (t *Template) String() string { return fmt.Sprintf("template at %d:%d", t.line, t.col) }
