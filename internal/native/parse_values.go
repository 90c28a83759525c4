package native

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

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
