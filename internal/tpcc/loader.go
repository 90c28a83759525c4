package tpcc

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/partition"
)

// LoadDate is the date every loaded row carries (C_SINCE, O_ENTRY_D,
// H_DATE, OL_DELIVERY_D): a constant rather than the load's clock, so that
// the data is a function of the seed alone and two loads compare equal.
var LoadDate = time.Date(2019, time.January, 1, 0, 0, 0, 0, time.UTC)

// DefaultBatchSize is the number of documents per insert.
const DefaultBatchSize = 500

// LoadConfig says what a load writes.
type LoadConfig struct {
	Scale Scale
	Seed  uint64
	// Normalized keeps order lines in ORDER_LINE instead of inside their
	// order (py-tpcc's denormalize=False).
	Normalized bool
	// Range is the warehouses this process loads; the zero value is all.
	Range WarehouseRange
	// Items makes this process load ITEM, which all warehouses share: in a
	// partitioned load, the first part's job.
	Items bool
	// Parallel is the number of warehouses loaded at once (at least 1).
	Parallel  int
	BatchSize int
}

// PartRange is the warehouses part p of a partitioned load or run takes:
// a contiguous share of 1..warehouses, as partition shares keys. The
// error says when there are fewer warehouses than parts.
func PartRange(p partition.Part, warehouses int) (WarehouseRange, error) {
	off, n := p.Share(int64(warehouses))
	if n == 0 {
		return WarehouseRange{}, fmt.Errorf("warehouses=%d cannot be split over %d parts: expected at least one warehouse per part", warehouses, p.Count)
	}
	return WarehouseRange{First: int(off) + 1, Last: int(off + n)}, nil
}

// LoadStats counts the documents a load inserted, by collection.
type LoadStats struct {
	mu   sync.Mutex
	Docs map[string]int64
}

func (s *LoadStats) add(coll string, n int) {
	s.mu.Lock()
	if s.Docs == nil {
		s.Docs = map[string]int64{}
	}
	s.Docs[coll] += int64(n)
	s.mu.Unlock()
}

// Load writes the data of cfg.Range (and ITEM when cfg.Items) into db,
// cfg.Parallel warehouses at a time, in batches. It does not create the
// indexes: CreateSchema does, once, before.
func Load(ctx context.Context, db *mongo.Database, cfg LoadConfig) (*LoadStats, error) {
	if err := cfg.Scale.Validate(); err != nil {
		return nil, err
	}
	if cfg.Range == (WarehouseRange{}) {
		cfg.Range = WarehouseRange{First: 1, Last: cfg.Scale.Warehouses}
	}
	if cfg.Range.First < 1 || cfg.Range.Last > cfg.Scale.Warehouses || cfg.Range.Len() < 1 {
		return nil, fmt.Errorf("tpcc: warehouses %s are outside 1-%d", cfg.Range, cfg.Scale.Warehouses)
	}
	cfg.Parallel = max(1, cfg.Parallel)
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	g := newGenerator(cfg.Scale, cfg.Seed)
	stats := &LoadStats{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	tasks := make(chan func() error)
	var (
		wg       sync.WaitGroup
		firstErr atomic.Pointer[error]
	)
	for range cfg.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for task := range tasks {
				if err := task(); err != nil {
					if firstErr.CompareAndSwap(nil, &err) {
						cancel()
					}
				}
			}
		}()
	}
	send := func(task func() error) bool {
		select {
		case tasks <- task:
			return true
		case <-ctx.Done():
			return false
		}
	}
	ok := true
	if cfg.Items {
		// Items in slices of their own, so that a load of one warehouse
		// does not wait behind ITEM on one goroutine.
		const slice = 10000
		original := g.itemOriginals()
		for lo := 1; lo <= cfg.Scale.Items && ok; lo += slice {
			hi := min(cfg.Scale.Items, lo+slice-1)
			ok = send(func() error {
				b := newBatcher(ctx, db, CollItem, cfg.BatchSize, stats)
				for i := lo; i <= hi; i++ {
					if err := b.add(g.item(i, original[i])); err != nil {
						return err
					}
				}
				return b.flush()
			})
		}
	}
	for w := cfg.Range.First; w <= cfg.Range.Last && ok; w++ {
		ok = send(func() error { return loadWarehouse(ctx, db, g, cfg, w, stats) })
	}
	close(tasks)
	wg.Wait()
	if p := firstErr.Load(); p != nil {
		return stats, *p
	}
	if err := ctx.Err(); err != nil {
		return stats, err
	}
	return stats, nil
}

func loadWarehouse(ctx context.Context, db *mongo.Database, g *generator, cfg LoadConfig, w int, stats *LoadStats) error {
	batch := func(coll string) *batcher { return newBatcher(ctx, db, coll, cfg.BatchSize, stats) }
	wb, db2, cb, hb, ob, olb, nob, sb := batch(CollWarehouse), batch(CollDistrict), batch(CollCustomer), batch(CollHistory), batch(CollOrders), batch(CollOrderLine), batch(CollNewOrder), batch(CollStock)
	if err := wb.add(g.warehouse(w)); err != nil {
		return err
	}
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		if err := db2.add(g.district(w, d)); err != nil {
			return err
		}
		bad := g.badCredit(w, d)
		for c := 1; c <= g.scale.Customers; c++ {
			if err := cb.add(g.customer(w, d, c, bad[c])); err != nil {
				return err
			}
			if err := hb.add(g.history(w, d, c)); err != nil {
				return err
			}
		}
		placedBy := g.orderCustomers(w, d)
		for o := 1; o <= g.scale.Customers; o++ {
			order, lines := g.order(w, d, o, placedBy[o-1], cfg.Normalized)
			for _, l := range lines {
				if err := olb.add(l); err != nil {
					return err
				}
			}
			if err := ob.add(order); err != nil {
				return err
			}
			if g.isNewOrder(o) {
				if err := nob.add(newOrderDoc(w, d, o)); err != nil {
					return err
				}
			}
		}
	}
	original := g.originals(w)
	for i := 1; i <= g.scale.Items; i++ {
		if err := sb.add(g.stock(w, i, original[i])); err != nil {
			return err
		}
	}
	for _, b := range []*batcher{wb, db2, cb, hb, ob, olb, nob, sb} {
		if err := b.flush(); err != nil {
			return err
		}
	}
	return nil
}

// batcher inserts a collection's documents BatchSize at a time.
type batcher struct {
	ctx   context.Context
	coll  *mongo.Collection
	size  int
	docs  []any
	stats *LoadStats
}

func newBatcher(ctx context.Context, db *mongo.Database, coll string, size int, stats *LoadStats) *batcher {
	return &batcher{ctx: ctx, coll: db.Collection(coll), size: size, stats: stats}
}

func (b *batcher) add(doc bson.D) error {
	b.docs = append(b.docs, doc)
	if len(b.docs) >= b.size {
		return b.flush()
	}
	return nil
}

func (b *batcher) flush() error {
	if len(b.docs) == 0 {
		return nil
	}
	if _, err := b.coll.InsertMany(b.ctx, b.docs); err != nil {
		return fmt.Errorf("tpcc: insert into %s: %w", b.coll.Name(), err)
	}
	b.stats.add(b.coll.Name(), len(b.docs))
	b.docs = b.docs[:0]
	return nil
}

// generator makes the rows of the initial database (clause 4.3.3.1), each
// from its own source seeded by the seed and the row's keys.
type generator struct {
	scale Scale
	seed  uint64
	c     NURandC
}

func newGenerator(s Scale, seed uint64) *generator {
	return &generator{scale: s, seed: seed, c: LoadConstants(seed)}
}

func (g *generator) rand(keys ...uint64) *Rand { return NewRand(g.c, g.seed, keys...) }

func (g *generator) item(i int, original bool) bson.D {
	r := g.rand(tagItem, uint64(i))
	data := r.AString(26, 50)
	if original {
		data = r.withOriginal(data)
	}
	return bson.D{
		{Key: "I_ID", Value: i},
		{Key: "I_IM_ID", Value: r.Number(1, 10000)},
		{Key: "I_NAME", Value: r.AString(14, 24)},
		{Key: "I_PRICE", Value: r.FixedPoint(2, 1, 100)},
		{Key: "I_DATA", Value: data},
		// py-tpcc's ITEM carries I_W_ID, 0 unless sharded, in its key.
		{Key: "I_W_ID", Value: 0},
	}
}

// itemOriginals marks the 10% of items whose I_DATA holds "ORIGINAL".
func (g *generator) itemOriginals() []bool {
	return firstTenth(permutation(g.seed, g.scale.Items, tagItem))
}

// firstTenth marks the ids in the first tenth of a permutation of 1..n,
// indexed by id.
func firstTenth(p []int) []bool {
	marked := make([]bool, len(p)+1)
	for _, id := range p[:len(p)/10] {
		marked[id] = true
	}
	return marked
}

func (g *generator) address(r *Rand) bson.D {
	return bson.D{
		{Key: "STREET_1", Value: r.AString(10, 20)},
		{Key: "STREET_2", Value: r.AString(10, 20)},
		{Key: "CITY", Value: r.AString(10, 20)},
		{Key: "STATE", Value: r.AString(2, 2)},
		{Key: "ZIP", Value: r.zip()},
	}
}

// prefixed names an address's fields for a table: W_STREET_1, ...
func prefixed(p string, d bson.D) bson.D {
	out := make(bson.D, len(d))
	for i, e := range d {
		out[i] = bson.E{Key: p + e.Key, Value: e.Value}
	}
	return out
}

func (g *generator) warehouse(w int) bson.D {
	r := g.rand(tagWarehouse, uint64(w))
	doc := bson.D{{Key: "W_ID", Value: w}, {Key: "W_NAME", Value: r.AString(6, 10)}}
	doc = append(doc, prefixed("W_", g.address(r))...)
	return append(doc, bson.E{Key: "W_TAX", Value: r.FixedPoint(4, 0, 0.2)}, bson.E{Key: "W_YTD", Value: initialWarehouseYTD})
}

func (g *generator) district(w, d int) bson.D {
	r := g.rand(tagDistrict, uint64(w), uint64(d))
	doc := bson.D{{Key: "D_ID", Value: d}, {Key: "D_W_ID", Value: w}, {Key: "D_NAME", Value: r.AString(6, 10)}}
	doc = append(doc, prefixed("D_", g.address(r))...)
	return append(doc,
		bson.E{Key: "D_TAX", Value: r.FixedPoint(4, 0, 0.2)},
		bson.E{Key: "D_YTD", Value: initialDistrictYTD},
		bson.E{Key: "D_NEXT_O_ID", Value: g.scale.Customers + initialNextOrderOffset})
}

// badCredit marks the 10% of a district's customers with bad credit.
func (g *generator) badCredit(w, d int) []bool {
	return firstTenth(permutation(g.seed, g.scale.Customers, tagCustomer, uint64(w), uint64(d)))
}

func (g *generator) customer(w, d, c int, bad bool) bson.D {
	r := g.rand(tagCustomer, uint64(w), uint64(d), uint64(c))
	last := ""
	if c <= 1000 {
		last = LastName(c - 1)
	} else {
		last = r.RandomLastName(g.scale.Customers)
	}
	credit := goodCredit
	if bad {
		credit = badCredit
	}
	doc := bson.D{
		{Key: "C_ID", Value: c}, {Key: "C_D_ID", Value: d}, {Key: "C_W_ID", Value: w},
		{Key: "C_FIRST", Value: r.AString(8, 16)}, {Key: "C_MIDDLE", Value: "OE"}, {Key: "C_LAST", Value: last},
	}
	doc = append(doc, prefixed("C_", g.address(r))...)
	return append(doc,
		bson.E{Key: "C_PHONE", Value: r.NString(16, 16)},
		bson.E{Key: "C_SINCE", Value: LoadDate},
		bson.E{Key: "C_CREDIT", Value: credit},
		bson.E{Key: "C_CREDIT_LIM", Value: initialCreditLimit},
		bson.E{Key: "C_DISCOUNT", Value: r.FixedPoint(4, 0, 0.5)},
		bson.E{Key: "C_BALANCE", Value: initialBalance},
		bson.E{Key: "C_YTD_PAYMENT", Value: initialYTDPayment},
		bson.E{Key: "C_PAYMENT_CNT", Value: initialPaymentCount},
		bson.E{Key: "C_DELIVERY_CNT", Value: 0},
		bson.E{Key: "C_DATA", Value: r.AString(300, 500)})
}

func (g *generator) history(w, d, c int) bson.D {
	r := g.rand(tagHistory, uint64(w), uint64(d), uint64(c))
	return bson.D{
		{Key: "H_C_ID", Value: c}, {Key: "H_C_D_ID", Value: d}, {Key: "H_C_W_ID", Value: w},
		{Key: "H_D_ID", Value: d}, {Key: "H_W_ID", Value: w},
		{Key: "H_DATE", Value: LoadDate}, {Key: "H_AMOUNT", Value: initialAmount},
		{Key: "H_DATA", Value: r.AString(12, 24)},
	}
}

// orderCustomers is the customer who placed each initial order of a
// district: a permutation of the customers (clause 4.3.3.1).
func (g *generator) orderCustomers(w, d int) []int {
	return permutation(g.seed, g.scale.Customers, tagOrder, uint64(w), uint64(d))
}

// isNewOrder: the last 900 of 3,000 initial orders are undelivered.
func (g *generator) isNewOrder(o int) bool {
	return o > g.scale.Customers-g.scale.NewOrdersPerDistrict()
}

// order is an initial order and, normalized, its lines as documents of
// their own; otherwise the lines are inside the order and lines is nil.
func (g *generator) order(w, d, o, c int, normalized bool) (order bson.D, lines []bson.D) {
	r := g.rand(tagOrder, uint64(w), uint64(d), uint64(o))
	isNew := g.isNewOrder(o)
	n := r.Number(minOrderLines, maxOrderLines)
	carrier := 0 // py-tpcc's NULL_CARRIER_ID
	if !isNew {
		carrier = r.Number(minCarrier, maxCarrier)
	}
	embedded := make(bson.A, 0, n)
	for l := 1; l <= n; l++ {
		var delivery any = LoadDate
		amount := 0.0
		if isNew {
			delivery, amount = nil, r.FixedPoint(2, 0.01, 9999.99)
		}
		line := bson.D{
			{Key: "OL_NUMBER", Value: l},
			{Key: "OL_I_ID", Value: r.Number(1, g.scale.Items)},
			{Key: "OL_SUPPLY_W_ID", Value: w},
			{Key: "OL_DELIVERY_D", Value: delivery},
			{Key: "OL_QUANTITY", Value: initialQuantity},
			{Key: "OL_AMOUNT", Value: amount},
			{Key: "OL_DIST_INFO", Value: r.AString(24, 24)},
		}
		if normalized {
			lines = append(lines, append(bson.D{{Key: "OL_O_ID", Value: o}, {Key: "OL_D_ID", Value: d}, {Key: "OL_W_ID", Value: w}}, line...))
		} else {
			embedded = append(embedded, line)
		}
	}
	order = bson.D{
		{Key: "O_ID", Value: o}, {Key: "O_C_ID", Value: c}, {Key: "O_D_ID", Value: d}, {Key: "O_W_ID", Value: w},
		{Key: "O_ENTRY_D", Value: LoadDate}, {Key: "O_CARRIER_ID", Value: carrier},
		{Key: "O_OL_CNT", Value: n}, {Key: "O_ALL_LOCAL", Value: 1},
	}
	if !normalized {
		order = append(order, bson.E{Key: CollOrderLine, Value: embedded})
	}
	return order, lines
}

func newOrderDoc(w, d, o int) bson.D {
	return bson.D{{Key: "NO_O_ID", Value: o}, {Key: "NO_D_ID", Value: d}, {Key: "NO_W_ID", Value: w}}
}

// originals marks the 10% of a warehouse's stock whose S_DATA holds
// "ORIGINAL".
func (g *generator) originals(w int) []bool {
	return firstTenth(permutation(g.seed, g.scale.Items, tagStock, uint64(w)))
}

func (g *generator) stock(w, i int, original bool) bson.D {
	r := g.rand(tagStock, uint64(w), uint64(i))
	doc := bson.D{{Key: "S_I_ID", Value: i}, {Key: "S_W_ID", Value: w}, {Key: "S_QUANTITY", Value: r.Number(10, 100)}}
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		doc = append(doc, bson.E{Key: stockDistColumn(d), Value: r.AString(24, 24)})
	}
	data := r.AString(26, 50)
	if original {
		// py-tpcc computes this and throws it away; the specification
		// wants it.
		data = r.withOriginal(data)
	}
	return append(doc,
		bson.E{Key: "S_YTD", Value: 0}, bson.E{Key: "S_ORDER_CNT", Value: 0}, bson.E{Key: "S_REMOTE_CNT", Value: 0},
		bson.E{Key: "S_DATA", Value: data})
}
