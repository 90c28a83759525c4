// Package tpcc is TPC-C adapted to MongoDB as py-tpcc's MongoDB driver and
// its paper (Kamsky, PVLDB 12(12), 2019) have it: the collections and their
// indexes, a deterministic loader, the five transactions in the standard
// mix with their options, retries of transient transaction errors, the
// consistency conditions of clause 3.3.2, and a runner whose timings go to
// a Recorder.
//
// It talks to the server through the official driver's *mongo.Database and
// knows nothing of mongobench's YCSB binding, so that a command line, a
// study or the measure collector can drive it as they drive a workload.
package tpcc

import (
	"fmt"
	"strings"
)

// The collections, named as py-tpcc names them, so that its verify script
// and a DBA's habits carry over.
const (
	CollItem      = "ITEM"
	CollWarehouse = "WAREHOUSE"
	CollDistrict  = "DISTRICT"
	CollCustomer  = "CUSTOMER"
	CollStock     = "STOCK"
	CollOrders    = "ORDERS"
	CollNewOrder  = "NEW_ORDER"
	CollOrderLine = "ORDER_LINE"
	CollHistory   = "HISTORY"
)

// Scale and value ranges of the TPC-C specification (clause 4.3.3.1).
const (
	DefaultItems            = 100000
	DistrictsPerWarehouse   = 10
	DefaultCustomers        = 3000
	initialNewOrderShare    = 900 // of 3000: the last 900 orders of a district are new
	initialNextOrderOffset  = 1
	initialWarehouseYTD     = 300000.00
	initialDistrictYTD      = 30000.00
	initialCreditLimit      = 50000.00
	initialBalance          = -10.00
	initialYTDPayment       = 10.00
	initialPaymentCount     = 1
	initialQuantity         = 5
	initialAmount           = 10.00
	minOrderLines           = 5
	maxOrderLines           = 15
	maxOrderLineQuantity    = 10
	minCarrier              = 1
	maxCarrier              = 10
	minStockLevelThreshold  = 10
	maxStockLevelThreshold  = 20
	maxCustomerData         = 500
	originalString          = "ORIGINAL"
	badCredit               = "BC"
	goodCredit              = "GC"
	stockDistColumnTemplate = "S_DIST_%02d"
)

// Type is one of the five transactions.
type Type int

// The five transactions, in the order their shares are drawn.
const (
	NewOrder Type = iota
	Payment
	OrderStatus
	Delivery
	StockLevel
	NumTypes
)

var typeNames = [NumTypes]string{"NEW_ORDER", "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"}

func (t Type) String() string {
	if t < 0 || t >= NumTypes {
		return fmt.Sprintf("Type(%d)", int(t))
	}
	return typeNames[t]
}

// Scale is the size of the data: what the loader writes and what the
// transactions draw their keys from. Items and Customers are smaller than
// the specification's only in tests and quick trials; a result at any
// other value than the defaults is not TPC-C's and is labelled so.
type Scale struct {
	Warehouses int
	// Items is the number of items, and of stock records per warehouse.
	Items int
	// Customers is the number of customers, and of initial orders, per
	// district.
	Customers int
}

// NewOrdersPerDistrict is the number of undelivered orders each district
// starts with: 900 of 3,000 in the specification, the same share at a
// smaller scale.
func (s Scale) NewOrdersPerDistrict() int {
	return s.Customers * initialNewOrderShare / DefaultCustomers
}

// Validate names the first value out of range and the accepted range.
func (s Scale) Validate() error {
	switch {
	case s.Warehouses < 1 || s.Warehouses > 100000:
		return fmt.Errorf("warehouses=%d is invalid: expected a number of warehouses from 1 to 100000", s.Warehouses)
	case s.Items < 100 || s.Items > DefaultItems:
		return fmt.Errorf("items=%d is invalid: expected from 100 to %d (the specification's)", s.Items, DefaultItems)
	case s.Customers < 10 || s.Customers > DefaultCustomers:
		return fmt.Errorf("customers=%d is invalid: expected from 10 to %d (the specification's) customers per district", s.Customers, DefaultCustomers)
	}
	return nil
}

// Standard reports whether s is the specification's scale (any number of
// warehouses).
func (s Scale) Standard() bool { return s.Items == DefaultItems && s.Customers == DefaultCustomers }

// WarehouseRange is a contiguous range of warehouse ids, First to Last
// inclusive.
type WarehouseRange struct{ First, Last int }

// Len is the number of warehouses in r.
func (r WarehouseRange) Len() int { return r.Last - r.First + 1 }

func (r WarehouseRange) String() string {
	if r.First == r.Last {
		return fmt.Sprint(r.First)
	}
	return fmt.Sprintf("%d-%d", r.First, r.Last)
}

// stockDistColumn is the stock field that holds the district's S_DIST_xx.
func stockDistColumn(d int) string { return fmt.Sprintf(stockDistColumnTemplate, d) }

// lastNameSyllables are clause 4.3.2.3's syllables.
var lastNameSyllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// LastName is clause 4.3.2.3's last name of a number from 0 to 999.
func LastName(n int) string {
	var b strings.Builder
	b.WriteString(lastNameSyllables[n/100])
	b.WriteString(lastNameSyllables[(n/10)%10])
	b.WriteString(lastNameSyllables[n%10])
	return b.String()
}
