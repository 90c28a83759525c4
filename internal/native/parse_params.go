package native

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mongobench/mongobench/internal/printable"
)

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
