package native

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/mongobench/mongobench/internal/generator"
)

// BSON type bytes, as the specification numbers them.
const (
	tDouble   byte = 0x01
	tString   byte = 0x02
	tDocument byte = 0x03
	tArray    byte = 0x04
	tBinary   byte = 0x05
	tObjectID byte = 0x07
	tBool     byte = 0x08
	tDate     byte = 0x09
	tNull     byte = 0x0A
	tInt32    byte = 0x10
	tInt64    byte = 0x12
	tDecimal  byte = 0x13
)

// Ctx is one worker's generation state. Values depend only on the keys and
// numbers passed in, never on what the Ctx generated before, so a Ctx can
// be reused for any document in any order.
type Ctx struct {
	pcg   rand.PCG
	r     *rand.Rand
	faker *gofakeit.Faker
	n     int64
	lets  []letValue
	// now is the clock of ^now, the one generator that is not a function
	// of its number; tests replace it.
	now func() time.Time
}

type letValue struct {
	t byte
	b []byte
}

// NewCtx returns a generation state for one worker.
func NewCtx() *Ctx {
	c := &Ctx{now: time.Now}
	c.r = rand.New(&c.pcg)
	// The faker draws from the same source, reseeded for every value, so
	// realistic values are as reproducible as the others.
	c.faker = gofakeit.NewFaker(&c.pcg, false)
	return c
}

// seed starts the random stream of the value with key k for the current
// number. Both halves of the PCG state are mixed so that neighbouring
// numbers do not start from neighbouring states.
func (c *Ctx) seed(k uint64) {
	n := uint64(c.n)
	c.pcg.Seed(mix64(k, n), mix64(n^0x9e3779b97f4a7c15, k))
}

// mix64 combines two words into one well-mixed word (SplitMix64's
// finaliser over their sum of products).
func mix64(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// hashString is FNV-1a, to turn names into keys at compile time.
func hashString(h uint64, s string) uint64 {
	if h == 0 {
		h = 0xcbf29ce484222325
	}
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

// gen appends one value: its bytes to dst, and returns its BSON type for
// the element header the caller reserved. k identifies the field (seed,
// collection or operation, path); the number is the Ctx's.
type gen interface {
	appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte)
	// maxSize bounds the bytes appendValue can append, so a template
	// that could outgrow BSON's 16 MiB document is refused before a run.
	maxSize() int64
}

// sat caps sizes so that bounds of nested arrays cannot overflow.
const sat = int64(1) << 40

func addSize(a, b int64) int64 { return min(sat, a+b) }

func mulSize(n, each int64) int64 {
	if n != 0 && each > sat/n {
		return sat
	}
	return min(sat, n*each)
}

// decimalDigits is the length of i's decimal form.
func decimalDigits(i int64) int64 {
	d := int64(1)
	for i >= 10 {
		i /= 10
		d++
	}
	return d
}

// constGen is a value fixed by the file, encoded once at compile time.
type constGen struct {
	t byte
	b []byte
}

func (g *constGen) maxSize() int64 { return int64(len(g.b)) }

func (g *constGen) appendValue(dst []byte, _ *Ctx, _ uint64) ([]byte, byte) {
	return append(dst, g.b...), g.t
}

// docField is one element of a document template.
type docField struct {
	name string
	key  uint64
	g    gen
}

type docGen struct {
	fields []docField
}

func (g *docGen) maxSize() int64 {
	n := int64(5)
	for _, f := range g.fields {
		n = addSize(n, addSize(int64(len(f.name)+2), f.g.maxSize()))
	}
	return n
}

func (g *docGen) appendValue(dst []byte, c *Ctx, _ uint64) ([]byte, byte) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	for i := range g.fields {
		f := &g.fields[i]
		at := len(dst)
		dst = append(dst, 0)
		dst = append(dst, f.name...)
		dst = append(dst, 0)
		var t byte
		dst, t = f.g.appendValue(dst, c, f.key)
		dst[at] = t
	}
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst, tDocument
}

// listGen is an array written out in the file, element by element.
type listGen struct {
	elems []gen
	keys  []uint64
}

func (g *listGen) maxSize() int64 {
	n := int64(5)
	for i, e := range g.elems {
		n = addSize(n, addSize(decimalDigits(int64(i))+2, e.maxSize()))
	}
	return n
}

func (g *listGen) appendValue(dst []byte, c *Ctx, _ uint64) ([]byte, byte) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	for i, e := range g.elems {
		at := len(dst)
		dst = append(dst, 0)
		dst = appendIndexKey(dst, i)
		var t byte
		dst, t = e.appendValue(dst, c, g.keys[i])
		dst[at] = t
	}
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst, tArray
}

// appendIndexKey appends an array element's key, its index in decimal,
// and the key's terminating zero.
func appendIndexKey(dst []byte, i int) []byte {
	if i < 10 {
		return append(dst, byte('0'+i), 0)
	}
	var buf [20]byte
	p := len(buf)
	for i > 0 {
		p--
		buf[p] = byte('0' + i%10)
		i /= 10
	}
	dst = append(dst, buf[p:]...)
	return append(dst, 0)
}

// distKind is how a number is drawn.
type distKind uint8

const (
	distUniform distKind = iota
	distZipfian
	distNormal
	distSequence
)

var distNames = []string{"uniform", "zipfian", "normal", "sequence"}

// intDist draws integers in [min, max].
type intDist struct {
	kind     distKind
	min, max int64
	u        *generator.Uniform
	z        *generator.Zipfian
	mean, sd float64
}

func newIntDist(kind distKind, min, max int64, mean, sd float64) *intDist {
	d := &intDist{kind: kind, min: min, max: max, mean: mean, sd: sd}
	switch kind {
	case distUniform:
		d.u = generator.NewUniform(min, max)
	case distZipfian:
		d.z = generator.NewZipfian(min, max)
	}
	return d
}

// next draws from the stream c was seeded with; sequence counts with the
// number itself, wrapping within [min, max].
func (d *intDist) next(c *Ctx) int64 {
	switch d.kind {
	case distZipfian:
		return d.z.Next(c.r)
	case distNormal:
		v := math.Round(d.mean + d.sd*c.r.NormFloat64())
		return clampInt(v, d.min, d.max)
	case distSequence:
		span := uint64(d.max - d.min + 1)
		if span == 0 { // the whole int64 range
			return d.min + c.n
		}
		return d.min + int64(uint64(c.n)%span)
	default:
		return d.u.Next(c.r)
	}
}

func clampInt(v float64, min, max int64) int64 {
	switch {
	case v <= float64(min):
		return min
	case v >= float64(max):
		return max
	}
	return int64(v)
}

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

// fakeGen is a realistic value from gofakeit, drawn from the value's own
// seeded stream. gofakeit builds its strings itself, so unlike the other
// generators this one allocates.
type fakeGen struct {
	f func(*gofakeit.Faker) string
}

// fakeMax bounds a realistic value: gofakeit's longest, a paragraph, is
// a few hundred bytes.
const fakeMax = 8 << 10

func (g *fakeGen) maxSize() int64 { return fakeMax }

func (g *fakeGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	return appendString(dst, g.f(c.faker)), tString
}

func appendString(dst []byte, s string) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)+1))
	dst = append(dst, s...)
	return append(dst, 0)
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

// fakers are the realistic values ^fake offers, by name.
var fakers = []struct {
	name string
	f    func(*gofakeit.Faker) string
}{
	{"name", (*gofakeit.Faker).Name},
	{"firstName", (*gofakeit.Faker).FirstName},
	{"lastName", (*gofakeit.Faker).LastName},
	{"email", (*gofakeit.Faker).Email},
	{"phone", (*gofakeit.Faker).Phone},
	{"username", (*gofakeit.Faker).Username},
	{"street", (*gofakeit.Faker).Street},
	{"city", (*gofakeit.Faker).City},
	{"state", (*gofakeit.Faker).State},
	{"zip", (*gofakeit.Faker).Zip},
	{"country", (*gofakeit.Faker).Country},
	{"company", (*gofakeit.Faker).Company},
	{"jobTitle", (*gofakeit.Faker).JobTitle},
	{"productName", (*gofakeit.Faker).ProductName},
	{"color", (*gofakeit.Faker).Color},
	{"word", (*gofakeit.Faker).Word},
	{"noun", (*gofakeit.Faker).Noun},
	{"sentence", func(f *gofakeit.Faker) string { return f.Sentence() }},
	{"paragraph", func(f *gofakeit.Faker) string { return f.Paragraph() }},
	{"url", (*gofakeit.Faker).URL},
	{"ipv4", (*gofakeit.Faker).IPv4Address},
	{"userAgent", (*gofakeit.Faker).UserAgent},
}
