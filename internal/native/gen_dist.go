package native

import (
	"math"

	"github.com/mongobench/mongobench/internal/generator"
)

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
