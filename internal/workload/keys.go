package workload

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/mongobench/mongobench/internal/generator"
)

// YCSB's keys: their names, the numbers a worker draws, and where a run's
// inserts begin.

// addSaturating is a+b for b >= 0, or the largest int64 where that
// would overflow.
func addSaturating(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// AppendKey appends YCSB's key for keynum ("user" + zero-padded number,
// FNV-hashed unless insertorder=ordered) to dst.
func AppendKey(dst []byte, keynum int64, ordered bool, zeroPadding int) []byte {
	if !ordered {
		keynum = generator.FNVHash64(keynum)
	}
	dst = append(dst, "user"...)
	var num [20]byte
	digits := strconv.AppendInt(num[:0], keynum, 10)
	for i := len(digits); i < zeroPadding; i++ {
		dst = append(dst, '0')
	}
	return append(dst, digits...)
}

// KeyName returns YCSB's key for keynum under spec's key settings.
func (s *Spec) KeyName(keynum int64) string {
	return string(AppendKey(nil, keynum, s.OrderedInserts, s.ZeroPadding))
}

// insertProbeWindow is how many consecutive keys one probe of
// NextInsertKey looks at: a hole of fewer keys, left by deletes, does not
// end the inserted range.
const insertProbeWindow = 16

// maxInsertedKeys bounds the keys NextInsertKey believes earlier runs
// inserted after the load: 2^40, a trillion, far more than any run does.
const maxInsertedKeys = int64(1) << 40

// NextInsertKey finds where run-phase inserts should start so that they do
// not collide with keys that earlier runs inserted after the load: the
// end of the range of key numbers from recordcount on that are present.
// exists reports whether a key is present. It gallops then bisects, and a
// probe at n counts as present when any key of n … n+insertProbeWindow-1
// is, so holes that deletes left inside the range (workloads with a
// deleteproportion) do not make it stop early and hand out keys that are
// still there. Only a hole of insertProbeWindow deleted keys in a row
// could, and then the later inserts of those keys fail as duplicates,
// counted, never silently.
func NextInsertKey(ctx context.Context, spec *Spec, exists func(ctx context.Context, key string) (bool, error)) (int64, error) {
	probe := func(n int64) (bool, error) {
		// From the top: inside the inserted range, one look is enough.
		for k := n + insertProbeWindow - 1; k >= n; k-- {
			if ok, err := exists(ctx, spec.KeyName(k)); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	lo := spec.RecordCount
	ok, err := probe(lo)
	if err != nil || !ok {
		return lo, err
	}
	// lo is present; gallop to an absent hi. A server that says every key
	// exists (one that answers any lookup) would have it gallop until the
	// step overflowed and then forever: past maxInsertedKeys no run can
	// have inserted, so the search stops there and says so.
	step := int64(insertProbeWindow)
	hi := lo + step
	for {
		ok, err := probe(hi)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		if hi-spec.RecordCount >= maxInsertedKeys {
			return 0, fmt.Errorf("every key probed from number %d to %d is present, more than any run inserts: the server answers that keys exist which were never inserted", spec.RecordCount, hi)
		}
		lo = hi
		step *= 2
		hi = lo + step
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := probe(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	// hi's window is empty and lo's is not, so lo = hi-1 is present.
	return hi, nil
}

// keyString returns a string for the key in w.key. The bytes are reused
// by the next operation; db.DB implementations do not keep keys.
func (w *Worker) keyString(keynum int64) string {
	keynum = w.core.storedKey(keynum)
	w.key = AppendKey(w.key[:0], keynum, w.spec.OrderedInserts, w.spec.ZeroPadding)
	// A view, not a copy: the key is the one allocation per operation a
	// profile would otherwise show, and it lives only until the next one.
	return unsafe.String(unsafe.SliceData(w.key), len(w.key))
}

// storedKey is the number under which key number keynum is stored: itself,
// except for the inserts of one part of several (Spec.Part), which go to
// the part's own residue class.
func (c *Core) storedKey(keynum int64) int64 {
	if !c.partKeys || keynum < c.firstInsert {
		return keynum
	}
	return c.partBase + (keynum-c.firstInsert)*c.parts + c.part
}

// nextKeynum is YCSB's CoreWorkload.nextKeynum: a key that exists, i.e.
// not beyond the last acknowledged insert.
func (w *Worker) nextKeynum() int64 {
	c := w.core
	if c.expKeys != nil {
		// YCSB draws again until the key is not negative; NextUpTo gives
		// the same keys in bounded time.
		last := c.insertKeys.Last()
		return last - c.expKeys.NextUpTo(w.r, last)
	}
	for range maxRedraws {
		k := c.keyChooser.Next(w.r)
		if k <= c.insertKeys.Last() {
			return k
		}
	}
	// Only a zipfian gets here: YCSB spreads its keys over room for twice
	// the inserts the run may make, and with many more of those than
	// records nearly every draw lands on a key not inserted yet (one in a
	// million for recordcount=1000 and operationcount=10^9 with half
	// inserts); redrawing would make each operation cost milliseconds of
	// client CPU, or seconds. The same popularity over the keys that exist
	// bounds it.
	if z, ok := c.keyChooser.(*generator.ScrambledZipfian); ok {
		return z.NextUpTo(w.r, c.insertKeys.Last())
	}
	for {
		if k := c.keyChooser.Next(w.r); k <= c.insertKeys.Last() {
			return k
		}
	}
}

// maxRedraws bounds how often nextKeynum draws again for a key that
// exists: enough that a run whose keys mostly exist keeps YCSB's
// distribution exactly (at half its keys existing, 1024 misses in a row
// happen once in 2^1024 draws), few enough to cost microseconds.
const maxRedraws = 1024
