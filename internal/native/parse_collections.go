package native

import (
	"fmt"
	"math"

	"go.yaml.in/yaml/v3"
)

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
				if _, err := shardKeyOf(c); c.ShardKey != nil && err != nil {
					p.errorf(fv, "%s: shardKey: %v", what, err)
				}
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
