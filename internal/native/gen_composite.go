package native

import (
	"encoding/binary"

	"github.com/mongobench/mongobench/internal/generator"
)

// arrayGen is an array of generated length whose elements follow one
// template; element i has its own key, so it is a value of its own.
type arrayGen struct {
	length *intDist
	of     gen
}

func (g *arrayGen) maxSize() int64 {
	each := addSize(decimalDigits(g.length.max)+2, g.of.maxSize())
	return addSize(5, mulSize(g.length.max, each))
}

func (g *arrayGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	n := int(g.length.next(c))
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	for i := range n {
		at := len(dst)
		dst = append(dst, 0)
		dst = appendIndexKey(dst, i)
		var t byte
		dst, t = g.of.appendValue(dst, c, mix64(k, uint64(i)+1))
		dst[at] = t
	}
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst, tArray
}

// choiceGen picks one of several templates with the given weights.
type choiceGen struct {
	from []gen
	pick *generator.Discrete
}

func (g *choiceGen) maxSize() int64 {
	n := int64(0)
	for _, f := range g.from {
		n = max(n, f.maxSize())
	}
	return n
}

func (g *choiceGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	i := g.pick.Next(c.r)
	return g.from[i].appendValue(dst, c, mix64(k, uint64(i)+1))
}

// refGen is the value a field has in an existing document of another (or
// the same) collection: it draws a document number, then generates that
// document's field again, which is why every value must be a pure
// function of its number.
type refGen struct {
	pick *intDist // over [0, documents)
	// field and key are the referenced field's generator and key, set
	// once every collection is compiled.
	field gen
	key   uint64
}

// maxSize is the referenced field's; before the references are resolved
// it is 0, and the templates are checked again after.
func (g *refGen) maxSize() int64 {
	if g.field == nil {
		return 0
	}
	return g.field.maxSize()
}

func (g *refGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	m := g.pick.next(c)
	saved := c.n
	c.n = m
	dst, t := g.field.appendValue(dst, c, g.key)
	c.n = saved
	return dst, t
}

// letGen is a value the operation generated once, before its steps.
type letGen struct {
	i    int
	size int64
}

func (g *letGen) maxSize() int64 { return g.size }

func (g *letGen) appendValue(dst []byte, c *Ctx, _ uint64) ([]byte, byte) {
	v := &c.lets[g.i]
	return append(dst, v.b...), v.t
}
