package native

import (
	"encoding/binary"
	"math/rand/v2"
	"time"

	"github.com/brianvoe/gofakeit/v7"
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

func appendString(dst []byte, s string) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)+1))
	dst = append(dst, s...)
	return append(dst, 0)
}
