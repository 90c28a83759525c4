package tpcc

import "time"

// Terminal draws the transactions of one worker and their inputs as
// clause 5.2.3 (the mix) and clauses 2.4.1–2.8.1 (the inputs) say, over the
// warehouses of Range in a database of Scale.
type Terminal struct {
	r     *Rand
	scale Scale
	rng   WarehouseRange
	now   func() time.Time
}

// NewTerminal returns worker's terminal: its draws depend on the run's
// seed, the worker and the load's NURand constants only.
func NewTerminal(scale Scale, rng WarehouseRange, loadSeed, runSeed uint64, worker int, now func() time.Time) *Terminal {
	c := RunConstants(LoadConstants(loadSeed), runSeed)
	return &Terminal{r: NewRand(c, runSeed, tagWorker, uint64(worker)), scale: scale, rng: rng, now: now}
}

// Next draws a transaction type from the standard mix: 45% NewOrder, 43%
// Payment, 4% each OrderStatus, Delivery and StockLevel.
func (t *Terminal) Next() Type {
	x := t.r.Number(1, 100)
	switch {
	case x <= 4:
		return StockLevel
	case x <= 8:
		return Delivery
	case x <= 12:
		return OrderStatus
	case x <= 55:
		return Payment
	default:
		return NewOrder
	}
}

func (t *Terminal) warehouse() int { return t.r.Number(t.rng.First, t.rng.Last) }

func (t *Terminal) district() int { return t.r.Number(1, DistrictsPerWarehouse) }

// otherWarehouse is a warehouse other than w, from the whole database:
// remote lines and payments may reach another part's warehouses.
func (t *Terminal) otherWarehouse(w int) int {
	return t.r.NumberExcluding(1, t.scale.Warehouses, w)
}

// NewOrder draws a NewOrder's inputs: 5–15 distinct items, 1% of lines
// from another warehouse, and in 1% of orders an unused item number as
// the last line, which rolls the order back.
func (t *Terminal) NewOrder() NewOrderParams {
	p := NewOrderParams{W: t.warehouse(), D: t.district(), C: t.r.CustomerID(t.scale.Customers), EntryDate: t.now()}
	n := t.r.Number(minOrderLines, maxOrderLines)
	rollback := t.r.Number(1, 100) == 1
	seen := map[int]bool{}
	for i := range n {
		id := 0
		if rollback && i == n-1 {
			id = t.scale.Items + 1
		} else {
			for id == 0 || seen[id] {
				id = t.r.ItemID(t.scale.Items)
			}
			seen[id] = true
		}
		sw := p.W
		if t.scale.Warehouses > 1 && t.r.Number(1, 100) == 1 {
			sw = t.otherWarehouse(p.W)
		}
		p.Items = append(p.Items, id)
		p.SupplyW = append(p.SupplyW, sw)
		p.Quantities = append(p.Quantities, t.r.Number(1, maxOrderLineQuantity))
	}
	return p
}

// Payment draws a Payment's inputs: 85% of customers of the warehouse's
// own district, 60% chosen by last name.
func (t *Terminal) Payment() PaymentParams {
	p := PaymentParams{W: t.warehouse(), D: t.district(), Amount: t.r.FixedPoint(2, 1, 5000), Date: t.now()}
	p.CW, p.CD = p.W, p.D
	if t.scale.Warehouses > 1 && t.r.Number(1, 100) > 85 {
		p.CW, p.CD = t.otherWarehouse(p.W), t.district()
	}
	if t.r.Number(1, 100) <= 60 {
		p.CLast = t.r.RandomLastName(t.scale.Customers)
	} else {
		p.C = t.r.CustomerID(t.scale.Customers)
	}
	return p
}

// OrderStatus draws an OrderStatus's inputs, 60% by last name.
func (t *Terminal) OrderStatus() OrderStatusParams {
	p := OrderStatusParams{W: t.warehouse(), D: t.district()}
	if t.r.Number(1, 100) <= 60 {
		p.CLast = t.r.RandomLastName(t.scale.Customers)
	} else {
		p.C = t.r.CustomerID(t.scale.Customers)
	}
	return p
}

// Delivery draws a Delivery's inputs.
func (t *Terminal) Delivery() DeliveryParams {
	return DeliveryParams{W: t.warehouse(), Carrier: t.r.Number(minCarrier, maxCarrier), Date: t.now()}
}

// StockLevel draws a StockLevel's inputs.
func (t *Terminal) StockLevel() StockLevelParams {
	return StockLevelParams{W: t.warehouse(), D: t.district(), Threshold: t.r.Number(minStockLevelThreshold, maxStockLevelThreshold)}
}
