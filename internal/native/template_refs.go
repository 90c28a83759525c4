package native

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// pendingRef is a ^ref waiting for every collection to be compiled.
type pendingRef struct {
	g     *refGen
	node  *yaml.Node
	coll  string
	path  string
	dist  distKind
	where string
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
			kind = c.dist(v, what+": dist", []string{"uniform", "zipfian", "normal", "sequence"})
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
