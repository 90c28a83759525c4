package workload

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/generator"
)

// Session is what a worker's operations run against: the binding, wrapped
// by the runner so that every call is timed and recorded. The workload only
// times what spans several calls (READ-MODIFY-WRITE) or none (VERIFY).
type Session interface {
	db.DB
	// InsertBatch inserts many records at once; the session measures the
	// batch and every record it carried.
	InsertBatch(ctx context.Context, table string, keys []string, values [][]db.Field) error
	// Now returns the run clock in nanoseconds.
	Now() int64
	// Measure records an operation the workload timed itself.
	Measure(op db.Op, st db.Status, startNs, endNs int64)
	// Composite(true) marks the calls that follow as parts of one operation
	// (READ-MODIFY-WRITE's read and update): measured, not counted as
	// operations of their own. Composite(false) ends it.
	Composite(on bool)
}

// Core is YCSB's CoreWorkload: the shared, immutable choice of keys, fields
// and operations, plus the shared counters. Workers draw from it with their
// own random source (NewWorker).
type Core struct {
	spec       *Spec
	fieldNames []string

	loadKeys   *generator.Counter             // keysequence: keys the load phase inserts
	insertKeys *generator.AcknowledgedCounter // transactioninsertkeysequence
	// partKeys spreads run-phase inserts over parts (Spec.Part): the
	// key numbers from firstInsert on are this part's own, and are stored
	// under the part's residue modulo Parts from partBase on.
	partKeys              bool
	firstInsert, partBase int64
	part, parts           int64
	keyChooser            generator.Chooser
	// expKeys, when set, replaces keyChooser: exponential keys count back
	// from the newest.
	expKeys *generator.Exponential

	opChooser    *generator.Discrete
	fieldChooser generator.Chooser
	scanLength   generator.Chooser
	fieldLength  generator.Chooser

	// randomValues is the pool random field values are sliced from, made on
	// the first write (a read-only phase never holds its megabyte).
	randomValues     []byte
	randomValuesOnce sync.Once
	seed             uint64
}

// randomPoolSize is the least size of the shared pool of random value
// bytes: large enough that values look random, small enough to stay in
// cache.
const randomPoolSize = 1 << 20

// NewCore builds the workload. nextInsertKey is the first key number that
// run-phase inserts use: recordcount after a fresh load, higher when earlier
// runs already inserted keys (see NextInsertKey).
func NewCore(spec *Spec, nextInsertKey int64, seed uint64) (*Core, error) {
	c := &Core{spec: spec}
	c.fieldNames = make([]string, spec.FieldCount)
	for i := range c.fieldNames {
		c.fieldNames[i] = spec.FieldNamePrefix + strconv.Itoa(i)
	}
	c.loadKeys = generator.NewCounter(spec.InsertStart)
	if nextInsertKey < spec.RecordCount {
		nextInsertKey = spec.RecordCount
	}
	c.insertKeys = generator.NewAcknowledgedCounter(nextInsertKey)
	if spec.Parts > 1 {
		// Every part sees the key space as one client would: the keys
		// before nextInsertKey, then its own inserts, one after another.
		// Only their stored numbers interleave with the other parts'.
		n := int64(spec.Parts)
		c.partKeys, c.part, c.parts = true, int64(spec.Part), n
		c.firstInsert = nextInsertKey
		c.partBase = addSaturating(nextInsertKey, (n-nextInsertKey%n)%n)
	}

	first, last := spec.InsertStart, spec.InsertStart+spec.InsertCount-1
	switch spec.RequestDistribution {
	case "uniform":
		c.keyChooser = generator.NewUniform(first, last)
	case "sequential":
		c.keyChooser = generator.NewSequential(first, last)
	case "zipfian":
		// Leave room for the keys this run inserts, as YCSB does, so new
		// keys can become hot too.
		// Saturating: near the top of the int64 key space the room for new
		// keys would wrap around to negative key numbers.
		expectedNew := int64(math.MaxInt64)
		if f := float64(spec.OperationCount) * spec.Proportions[TxInsert] * 2; f < math.MaxInt64 {
			expectedNew = int64(f)
		}
		end := addSaturating(addSaturating(last+1, expectedNew), nextInsertKey-spec.RecordCount)
		c.keyChooser = generator.NewScrambledZipfian(first, end)
	case "latest":
		c.keyChooser = generator.NewSkewedLatest(c.insertKeys)
	case "hotspot":
		c.keyChooser = generator.NewHotspot(first, last, spec.HotspotDataFraction, spec.HotspotOpnFraction)
	case "exponential":
		c.expKeys = generator.NewExponential(spec.ExponentialPercentile, float64(spec.RecordCount)*spec.ExponentialFrac)
	default:
		return nil, fmt.Errorf("requestdistribution=%s is not implemented", spec.RequestDistribution)
	}

	c.opChooser = generator.NewDiscrete(spec.Proportions[:])
	c.fieldChooser = generator.NewUniform(0, int64(spec.FieldCount-1))
	if spec.ScanLengthDistribution == "zipfian" {
		c.scanLength = generator.NewZipfian(spec.MinScanLength, spec.MaxScanLength)
	} else {
		c.scanLength = generator.NewUniform(spec.MinScanLength, spec.MaxScanLength)
	}
	c.fieldLength = spec.fieldLength
	if c.fieldLength == nil {
		return nil, fmt.Errorf("workload spec was not built by Resolve")
	}
	c.seed = seed
	return c, nil
}

// pool returns the shared pool of random value bytes, making it on the
// first call.
func (c *Core) pool() []byte {
	c.randomValuesOnce.Do(func() {
		// YCSB's RandomByteIterator yields printable ASCII; so does this pool.
		r := rand.New(rand.NewPCG(c.seed, 0x9e3779b97f4a7c15))
		c.randomValues = make([]byte, poolSize(c.spec))
		for i := range c.randomValues {
			c.randomValues[i] = byte(' ' + r.IntN(95))
		}
	})
	return c.randomValues
}

// poolSize is at least the longest field, so that every value has the
// length the workload asks for; Resolve keeps that within a document's 16 MiB.
func poolSize(spec *Spec) int64 {
	return max(randomPoolSize, min(spec.MaxFieldBytes(), MaxDocumentBytes))
}

// DeterministicValue returns YCSB's buildDeterministicValue(key, field) of
// length size: "key:field" extended with ":" + Java String.hashCode of what
// is there so far, cut to size.
func DeterministicValue(dst []byte, key, field string, size int) []byte {
	start := len(dst)
	dst = append(dst, key...)
	dst = append(dst, ':')
	dst = append(dst, field...)
	for len(dst)-start < size {
		var h int32
		for _, b := range dst[start:] {
			h = 31*h + int32(b)
		}
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(h), 10)
	}
	return dst[:start+size]
}

// Worker is one worker's view of the workload: its random source and
// reusable buffers. It is not safe for concurrent use.
type Worker struct {
	core *Core
	spec *Spec
	r    *rand.Rand

	key        []byte
	oneField   []string
	values     []db.Field
	valueBufs  [][]byte // per-field buffers for deterministic values
	batchKeys  []string
	batchVals  [][]db.Field
	batchKeyBs [][]byte
	batchBufs  [][][]byte
	batchSize  int
	verifyOK   bool
	verifySeen int
	verifyFn   db.FieldVisitor
	// pool is the core's pool once this worker has written, so that a
	// field's value costs no sync.Once.
	pool []byte
}

// NewWorker returns worker number id's view. seed and id together fix its
// random sequence, so a seeded run repeats per thread.
func (c *Core) NewWorker(id int, seed uint64, batchSize int) *Worker {
	if batchSize < 1 {
		batchSize = 1
	}
	w := &Worker{
		core:      c,
		spec:      c.spec,
		r:         rand.New(rand.NewPCG(seed, uint64(id)+1)),
		key:       make([]byte, 0, 32),
		oneField:  make([]string, 1),
		batchSize: batchSize,
	}
	w.verifyFn = w.verifyField
	if batchSize > 1 {
		w.batchKeys = make([]string, 0, batchSize)
		w.batchVals = make([][]db.Field, batchSize)
		w.batchKeyBs = make([][]byte, batchSize)
		w.batchBufs = make([][][]byte, batchSize)
		for i := range w.batchVals {
			w.batchVals[i] = make([]db.Field, 0, c.spec.FieldCount)
			w.batchKeyBs[i] = make([]byte, 0, 32)
			w.batchBufs[i] = make([][]byte, c.spec.FieldCount)
		}
	}
	return w
}

// buildValue fills one field's value into values: random bytes sliced from
// the shared pool, or YCSB's deterministic value with dataintegrity.
func (w *Worker) appendValue(values []db.Field, bufs [][]byte, key string, field int) []db.Field {
	size := w.core.fieldLength.Next(w.r)
	name := w.core.fieldNames[field]
	var v []byte
	if w.spec.DataIntegrity {
		bufs[field] = DeterministicValue(bufs[field][:0], key, name, int(size))
		v = bufs[field]
	} else {
		if w.pool == nil {
			w.pool = w.core.pool()
		}
		pool := w.pool
		if size > int64(len(pool)) {
			size = int64(len(pool))
		}
		off := w.r.Int64N(int64(len(pool)) - size + 1)
		v = pool[off : off+size]
	}
	return append(values, db.Field{Name: name, Value: v})
}

func (w *Worker) buildValues(dst []db.Field, bufs [][]byte, key string) []db.Field {
	dst = dst[:0]
	for i := range w.core.fieldNames {
		dst = w.appendValue(dst, bufs, key, i)
	}
	return dst
}

func (w *Worker) buildUpdate(key string) []db.Field {
	w.valueBuffers()
	if w.spec.WriteAllFields {
		return w.buildValues(w.values, w.valueBufs, key)
	}
	return w.appendValue(w.values[:0], w.valueBufs, key, int(w.core.fieldChooser.Next(w.r)))
}

// valueBuffers makes the buffers of a single record's values on the
// worker's first write or verified read: at 1,000 threads of a read-only
// workload they would be 650 KiB held for nothing, and twice that resident
// once the garbage collector's goal is counted.
func (w *Worker) valueBuffers() {
	if w.valueBufs == nil {
		w.values = make([]db.Field, 0, w.spec.FieldCount)
		w.valueBufs = make([][]byte, w.spec.FieldCount)
	}
}

// readFields returns the fields a read or scan asks for: nil for all (the
// whole document), every name with readallfieldsbyname or dataintegrity,
// or one random field.
func (w *Worker) readFields() []string {
	switch {
	case !w.spec.ReadAllFields:
		w.oneField[0] = w.core.fieldNames[w.core.fieldChooser.Next(w.r)]
		return w.oneField
	case w.spec.ReadAllFieldsByName || w.spec.DataIntegrity:
		return w.core.fieldNames
	}
	return nil
}

// DoInsert performs one load-phase insert (YCSB's doInsert), with retries
// up to core_workload_insertion_retry_limit. With batchsize > 1 the record
// is buffered and the batch is sent when full; Flush sends the rest.
func (w *Worker) DoInsert(ctx context.Context, s Session) error {
	keynum := w.core.loadKeys.Next()
	if w.batchSize > 1 {
		i := len(w.batchKeys)
		w.batchKeyBs[i] = AppendKey(w.batchKeyBs[i][:0], keynum, w.spec.OrderedInserts, w.spec.ZeroPadding)
		key := unsafe.String(unsafe.SliceData(w.batchKeyBs[i]), len(w.batchKeyBs[i]))
		w.batchKeys = append(w.batchKeys, key)
		w.batchVals[i] = w.buildValues(w.batchVals[i], w.batchBufs[i], key)
		if len(w.batchKeys) == w.batchSize {
			return w.Flush(ctx, s)
		}
		return nil
	}
	key := w.keyString(keynum)
	w.valueBuffers()
	w.values = w.buildValues(w.values, w.valueBufs, key)
	return w.withRetries(ctx, func() error { return s.Insert(ctx, w.spec.Table, key, w.values) })
}

// Flush sends a partly filled load batch. It must be called when a worker
// stops, or the last records would never be inserted (a YCSB defect).
func (w *Worker) Flush(ctx context.Context, s Session) error {
	if len(w.batchKeys) == 0 {
		return nil
	}
	keys, vals := w.batchKeys, w.batchVals[:len(w.batchKeys)]
	err := w.withRetries(ctx, func() error { return s.InsertBatch(ctx, w.spec.Table, keys, vals) })
	w.batchKeys = w.batchKeys[:0]
	return err
}

// Pending returns how many load records wait in the batch buffer.
func (w *Worker) Pending() int { return len(w.batchKeys) }

func (w *Worker) withRetries(ctx context.Context, insert func() error) error {
	var err error
	for attempt := 0; ; attempt++ {
		err = insert()
		if err == nil || attempt >= w.spec.InsertionRetryLimit || ctx.Err() != nil {
			return err
		}
		// YCSB waits a random 0.8–1.2 of the interval so retries spread out.
		wait := time.Duration(float64(w.spec.InsertionRetryInterval) * (0.8 + 0.4*w.r.Float64()))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// DoTransaction performs one run-phase operation chosen by the proportions.
func (w *Worker) DoTransaction(ctx context.Context, s Session) {
	switch TransactionType(w.core.opChooser.Next(w.r)) {
	case TxRead:
		w.doRead(ctx, s)
	case TxUpdate:
		key := w.keyString(w.nextKeynum())
		_ = s.Update(ctx, w.spec.Table, key, w.buildUpdate(key))
	case TxInsert:
		w.doTransactionInsert(ctx, s)
	case TxScan:
		key := w.keyString(w.nextKeynum())
		n := int(w.core.scanLength.Next(w.r))
		_ = s.Scan(ctx, w.spec.Table, key, n, w.readFields(), nil)
	case TxReadModifyWrite:
		w.doReadModifyWrite(ctx, s)
	case TxDelete:
		_ = s.Delete(ctx, w.spec.Table, w.keyString(w.nextKeynum()))
	}
}

func (w *Worker) doRead(ctx context.Context, s Session) {
	key := w.keyString(w.nextKeynum())
	fields := w.readFields()
	if !w.spec.DataIntegrity {
		_ = s.Read(ctx, w.spec.Table, key, fields, nil)
		return
	}
	w.beginVerify()
	if err := s.Read(ctx, w.spec.Table, key, fields, w.verifyFn); err == nil {
		w.endVerify(s)
	}
}

func (w *Worker) doTransactionInsert(ctx context.Context, s Session) {
	keynum := w.core.insertKeys.Next()
	// Acknowledge even on failure, as YCSB does, so reads are not blocked
	// forever behind a key that will never exist.
	defer w.core.insertKeys.Acknowledge(keynum)
	key := w.keyString(keynum)
	w.valueBuffers()
	w.values = w.buildValues(w.values, w.valueBufs, key)
	_ = s.Insert(ctx, w.spec.Table, key, w.values)
}

func (w *Worker) doReadModifyWrite(ctx context.Context, s Session) {
	key := w.keyString(w.nextKeynum())
	fields := w.readFields()
	start := s.Now()
	var visit db.FieldVisitor
	if w.spec.DataIntegrity {
		w.beginVerify()
		visit = w.verifyFn
	}
	s.Composite(true)
	readErr := s.Read(ctx, w.spec.Table, key, fields, visit)
	// The read's field values are compared before the update overwrites
	// the per-field buffers.
	if w.spec.DataIntegrity && readErr == nil {
		w.endVerify(s)
	}
	updErr := s.Update(ctx, w.spec.Table, key, w.buildUpdate(key))
	s.Composite(false)
	end := s.Now()
	st := db.StatusOf(readErr)
	if st.IsOK() {
		st = db.StatusOf(updErr)
	}
	s.Measure(db.ReadModifyWrite, st, start, end)
}

// verification state: the visitor compares each returned field with the
// value YCSB would have written for it.
func (w *Worker) beginVerify() {
	w.verifyOK = true
	w.verifySeen = 0
}

func (w *Worker) verifyField(name string, value []byte) {
	if name == "_id" {
		return
	}
	w.verifySeen++
	if !w.verifyOK {
		return
	}
	key := unsafe.String(unsafe.SliceData(w.key), len(w.key))
	w.valueBuffers()
	expected := DeterministicValue(w.valueBufs[0][:0], key, name, int(w.spec.FieldLength))
	w.valueBufs[0] = expected
	if string(expected) != string(value) {
		w.verifyOK = false
	}
}

func (w *Worker) endVerify(s Session) {
	start := s.Now()
	st := db.OK
	switch {
	case w.verifySeen == 0:
		st = db.Error
	case !w.verifyOK:
		st = db.UnexpectedState
	}
	s.Measure(db.Verify, st, start, s.Now())
}
