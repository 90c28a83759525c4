package native

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mongobench/mongobench/internal/generator"
)

// generatorNames are the ^ generators, for messages and the schema.
var generatorNames = []string{
	"^int32", "^int64", "^double", "^decimal", "^string", "^bool", "^date", "^now",
	"^objectId", "^uuid", "^binary", "^array", "^choice", "^fake", "^ref", "^let", "^number",
	"^dataset",
}

// objectIDEpoch is the timestamp of the first generated ObjectId
// (2024-01-01T00:00:00Z): fixed, so ObjectIds are reproducible.
const objectIDEpoch = 1704067200

// generator compiles one ^ generator from its options. Whatever it is,
// the template it is in is no longer fixed.
func (c *compiler) generator(k, opt *yaml.Node, what, path string, depth int) gen {
	name := k.Value
	gw := what + ": " + name
	c.fixed = false
	switch name {
	case "^int32", "^int64":
		return c.integer(opt, gw, name == "^int32")
	case "^number":
		c.noOptions(opt, gw)
		return &intGen{number: true}
	case "^double":
		return c.double(opt, gw)
	case "^decimal":
		c.decimal = true
		return c.decimalGen(opt, gw)
	case "^string":
		return c.stringGen(opt, gw)
	case "^bool":
		return c.boolean(opt, gw)
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
		return c.binary(opt, gw)
	case "^array":
		return c.array(opt, gw, path, depth)
	case "^choice":
		return c.choice(opt, gw, path, depth)
	case "^fake":
		return c.fake(opt, gw)
	case "^ref":
		return c.ref(opt, gw)
	case "^let":
		return c.let(opt, gw)
	case "^dataset":
		return c.dataset(opt, gw)
	}
	c.p.errorf(k, "%s: unknown generator %s; accepted: %s", what, name, strings.Join(generatorNames, ", "))
	return nil
}

func (c *compiler) integer(opt *yaml.Node, what string, is32 bool) gen {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if is32 {
		lo, hi = math.MinInt32, math.MaxInt32
	}
	d := c.intDist(opt, what, lo, hi, 0, hi, true)
	if d == nil {
		return nil
	}
	return &intGen{d: d, is32: is32}
}

// boolean takes the share of true either bare (^bool: 0.9) or as {p: 0.9}.
func (c *compiler) boolean(opt *yaml.Node, what string) gen {
	g := &boolGen{p: 0.5}
	if opt.Kind == yaml.ScalarNode && opt.Tag != "!!null" {
		g.p = c.p.float(opt, what+" (the share of true)", 0, 1)
	} else if opt.Kind == yaml.MappingNode {
		c.p.mapping(opt, what, []string{"p"}, func(_ string, _, v *yaml.Node) { g.p = c.p.float(v, what+": p", 0, 1) })
	}
	return g
}

func (c *compiler) binary(opt *yaml.Node, what string) gen {
	l := c.length(opt, what, 16)
	if l == nil {
		return nil
	}
	return &binaryGen{length: l}
}

func (c *compiler) fake(opt *yaml.Node, what string) gen {
	names := make([]string, len(fakers))
	for i, f := range fakers {
		names[i] = f.name
	}
	s := c.p.oneOf(opt, what, names)
	for _, f := range fakers {
		if f.name == s {
			return &fakeGen{f: f.f}
		}
	}
	return nil
}

// let refers to one of the operation's lets, generated once per operation
// by BeginOperation; its size bounds the template's like any other value.
func (c *compiler) let(opt *yaml.Node, what string) gen {
	s := c.p.str(opt, what)
	for i, l := range c.sc.lets {
		if l.Name == s {
			size := int64(0)
			if l.Value != nil {
				size = l.Value.g.maxSize()
				c.decimal = c.decimal || l.Value.decimal
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
		c.p.errorf(opt, "%s: %q is not a let of this operation; %s", what, s, accepted)
	}
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

func (c *compiler) decimalGen(opt *yaml.Node, what string) gen {
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
