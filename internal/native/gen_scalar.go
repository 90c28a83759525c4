package native

import (
	"encoding/binary"
	"math"
	"slices"
)

// intGen is ^int32 or ^int64 drawn from its distribution, or ^number.
type intGen struct {
	d      *intDist
	is32   bool
	number bool // ^number: the document or operation number itself
}

func (g *intGen) maxSize() int64 {
	if g.is32 {
		return 4
	}
	return 8
}

func (g *intGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	var v int64
	if g.number {
		v = c.n
	} else {
		c.seed(k)
		v = g.d.next(c)
	}
	if g.is32 {
		return binary.LittleEndian.AppendUint32(dst, uint32(int32(v))), tInt32
	}
	return binary.LittleEndian.AppendUint64(dst, uint64(v)), tInt64
}

type doubleGen struct {
	kind     distKind
	min, max float64
	mean, sd float64
}

func (g *doubleGen) maxSize() int64 { return 8 }

func (g *doubleGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	var v float64
	if g.kind == distNormal {
		v = math.Min(g.max, math.Max(g.min, g.mean+g.sd*c.r.NormFloat64()))
	} else {
		v = g.min + (g.max-g.min)*c.r.Float64()
	}
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v)), tDouble
}

// decimalGen draws an integer coefficient and writes it as a decimal128
// with scale digits after the point (prices: 1999 with scale 2 is 19.99).
type decimalGen struct {
	d     *intDist
	scale int
}

func (g *decimalGen) maxSize() int64 { return 16 }

func (g *decimalGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	h, l := decimal128(g.d.next(c), g.scale)
	dst = binary.LittleEndian.AppendUint64(dst, l)
	return binary.LittleEndian.AppendUint64(dst, h), tDecimal
}

// decimal128 encodes coef×10^-scale in IEEE 754-2008's binary integer
// decimal form, as BSON stores it: sign, biased exponent, then the
// coefficient, which an int64 always fits in the low word.
func decimal128(coef int64, scale int) (high, low uint64) {
	const bias = 6176
	if coef < 0 {
		high = 1 << 63
		low = uint64(-coef)
	} else {
		low = uint64(coef)
	}
	high |= uint64(bias-scale) << 49
	return high, low
}

const defaultAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

type stringGen struct {
	length   *intDist
	alphabet string     // 1 to 256 bytes
	table    *[256]byte // alphabetTable(alphabet)
}

func (g *stringGen) maxSize() int64 { return addSize(5, g.length.max) }

func (g *stringGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	n := int(g.length.next(c))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n+1))
	at := len(dst)
	dst = slices.Grow(dst, n+1)[:at+n]
	out := dst[at : at+n]
	lut, m := g.table, uint64(len(g.alphabet))
	// Four characters from each 64-bit draw, each by a 16-bit
	// multiply-shift (bias under len(alphabet)/65536), looked up in a
	// 256-byte table that a byte index cannot overrun: generation is the
	// client's cost, and genny found it could dominate.
	i := 0
	for ; i+4 <= n; i += 4 {
		w := c.r.Uint64()
		o := out[i : i+4 : i+4]
		o[0] = lut[uint8(((w&0xffff)*m)>>16)]
		o[1] = lut[uint8((((w>>16)&0xffff)*m)>>16)]
		o[2] = lut[uint8((((w>>32)&0xffff)*m)>>16)]
		o[3] = lut[uint8(((w>>48)*m)>>16)]
	}
	if i < n {
		w := c.r.Uint64()
		for ; i < n; i++ {
			out[i] = lut[uint8(((w&0xffff)*m)>>16)]
			w >>= 16
		}
	}
	return append(dst, 0), tString
}

// alphabetTable is the alphabet as a table indexed by a byte, made when
// the template is compiled: workers share the generator.
func alphabetTable(alphabet string) *[256]byte {
	var t [256]byte
	copy(t[:], alphabet)
	return &t
}

type boolGen struct{ p float64 }

func (g *boolGen) maxSize() int64 { return 1 }

func (g *boolGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	if c.r.Float64() < g.p {
		return append(dst, 1), tBool
	}
	return append(dst, 0), tBool
}

// dateGen draws milliseconds since the epoch in [from, to].
type dateGen struct {
	d   *intDist
	now bool
}

func (g *dateGen) maxSize() int64 { return 8 }

func (g *dateGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	var ms int64
	if g.now {
		ms = c.now().UnixMilli()
	} else {
		c.seed(k)
		ms = g.d.next(c)
	}
	return binary.LittleEndian.AppendUint64(dst, uint64(ms)), tDate
}

// objectIDGen makes the ObjectId of a number: like the server's, it grows
// with each insert (a timestamp, then a counter), so an index on it takes
// inserts at its right-hand edge as real ObjectIds do; the five middle
// bytes come from the field's key, where a real one has its process's
// random value.
type objectIDGen struct {
	epoch uint32 // seconds: the first number's timestamp
}

func (g *objectIDGen) maxSize() int64 { return 12 }

func (g *objectIDGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	n := uint64(c.n)
	ts := g.epoch + uint32(n>>24)
	dst = binary.BigEndian.AppendUint32(dst, ts)
	dst = append(dst, byte(k>>32), byte(k>>24), byte(k>>16), byte(k>>8), byte(k))
	return append(dst, byte(n>>16), byte(n>>8), byte(n)), tObjectID
}

// uuidGen makes a version 4 UUID (binary subtype 4).
type uuidGen struct{}

func (uuidGen) maxSize() int64 { return 21 }

func (uuidGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	hi, lo := c.r.Uint64(), c.r.Uint64()
	hi = hi&^0xf000 | 0x4000         // version 4
	lo = lo&^(0xc<<60) | (0x8 << 60) // the RFC 4122 variant
	dst = binary.LittleEndian.AppendUint32(dst, 16)
	dst = append(dst, 4)
	dst = binary.BigEndian.AppendUint64(dst, hi)
	return binary.BigEndian.AppendUint64(dst, lo), tBinary
}

type binaryGen struct{ length *intDist }

func (g *binaryGen) maxSize() int64 { return addSize(5, g.length.max) }

func (g *binaryGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	n := int(g.length.next(c))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = append(dst, 0)
	for i := 0; i < n; i += 8 {
		w := c.r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			dst = append(dst, byte(w))
			w >>= 8
		}
	}
	return dst, tBinary
}
