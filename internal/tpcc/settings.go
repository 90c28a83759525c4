package tpcc

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	mongodb "github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// Settings are what the -p properties of tpcc load and tpcc check
// resolve to.
type Settings struct {
	URL, Database string
	Scale         Scale
	// Seed is the data's.
	Seed    uint64
	Threads int
	Options Options
	// LinePathsSet says tpcc.linepaths was given; without it the
	// command chooses by the server.
	LinePathsSet bool
	Part         partition.Part
	Range        WarehouseRange
}

// Known are the properties tpcc load and tpcc check take.
var Known = []string{"mongodb.url", "warehouses", "items", "customers", "seed", "threadcount",
	"tpcc.normalized", "tpcc.linepaths"}

// PhaseProperties are the properties of a TPC-C run phase (workload=tpcc)
// beyond those of any run (the URL, threads, target, length, seed):
// the scale, the data's seed and the transactions' options.
var PhaseProperties = []string{"warehouses", "items", "customers", "tpcc.loadseed", "tpcc.transactions",
	"tpcc.normalized", "tpcc.findandmodify", "tpcc.batchwrites", "tpcc.deliveryperdistrict", "tpcc.causal",
	"tpcc.writeconcern", "tpcc.readconcern", "tpcc.readpreference", "tpcc.maxattempts", "tpcc.linepaths", "tpcc.check"}

// PhaseSettings are a TPC-C run phase's settings.
type PhaseSettings struct {
	Scale Scale
	// LoadSeed is the seed the data was loaded with, which NURand's run
	// constants are drawn against (clause 2.1.6.1).
	LoadSeed uint64
	Options  Options
	// LinePathsSet says tpcc.linepaths was given; without it the phase
	// chooses by the server.
	LinePathsSet bool
	// Check runs the consistency check after the run.
	Check bool
	// Range is the warehouses the terminals draw from; the zero value is
	// all.
	Range WarehouseRange
}

// ResolvePhase reads a TPC-C run phase's properties through get (a
// property's value and whether it was given). Every error names the
// property and what is accepted.
func ResolvePhase(get func(name string) (string, bool)) (*PhaseSettings, error) {
	p := map[string]string{}
	for _, k := range PhaseProperties {
		if v, ok := get(k); ok {
			p[k] = v
		}
	}
	var s Settings
	s.Options = DefaultOptions()
	if err := s.readProps(p); err != nil {
		return nil, err
	}
	r := &propReader{p: p}
	ps := &PhaseSettings{Scale: s.Scale, LoadSeed: uint64(r.num("tpcc.loadseed", 0, 0, 1<<62)), Options: s.Options,
		LinePathsSet: s.LinePathsSet, Check: r.flag("tpcc.check", true)}
	if r.err != nil {
		return nil, r.err
	}
	if err := ps.Scale.Validate(); err != nil {
		return nil, err
	}
	if err := resolveConcerns(p, &ps.Options); err != nil {
		return nil, err
	}
	return ps, nil
}

// ResolveSettings reads the -p NAME=VALUE properties and the --part of a
// tpcc command. Every error is in what was given, and names it and what
// is accepted.
func ResolveSettings(props []string, part string, getenv func(string) string) (*Settings, error) {
	p, err := knownProps(props)
	if err != nil {
		return nil, err
	}
	s := &Settings{Options: DefaultOptions()}
	if err := s.readProps(p); err != nil {
		return nil, err
	}
	if err := resolveConcerns(p, &s.Options); err != nil {
		return nil, err
	}
	if err := s.resolveTarget(p, getenv); err != nil {
		return nil, err
	}
	if s.Part, err = partition.Resolve(part, 0, getenv); err != nil {
		return nil, err
	}
	if s.Range, err = PartRange(s.Part, s.Scale.Warehouses); err != nil {
		return nil, err
	}
	return s, nil
}

// knownProps are the -p NAME=VALUE properties by name, each one known.
func knownProps(props []string) (map[string]string, error) {
	p := map[string]string{}
	for _, kv := range props {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("-p %q is invalid: expected NAME=VALUE", redact.Arg(kv))
		}
		if !slices.Contains(Known, k) {
			return nil, fmt.Errorf("unknown property %q: accepted properties are %s", redact.Arg(k), strings.Join(Known, ", "))
		}
		p[k] = v
	}
	return p, nil
}

// propReader reads numbers and flags from properties, keeping the first
// error so that a run of reads is checked once, and reports the first
// invalid property in the order they are read.
type propReader struct {
	p   map[string]string
	err error
}

func (r *propReader) num(name string, def, lo, hi int64) int64 {
	v, ok := r.p[name]
	if !ok || r.err != nil {
		return def
	}
	n, e := workload.ParseInt(v, lo, hi)
	if e != nil {
		r.err = fmt.Errorf("%s=%q is invalid: expected %s", name, v, workload.IntRange(lo, hi))
	}
	return n
}

func (r *propReader) flag(name string, def bool) bool {
	v, ok := r.p[name]
	if !ok || r.err != nil {
		return def
	}
	b, e := strconv.ParseBool(strings.TrimSpace(v))
	if e != nil {
		r.err = fmt.Errorf("%s=%q is invalid: expected true or false", name, v)
	}
	return b
}

// readProps sets the scale, the run's bounds and the transactions'
// switches from their properties.
func (s *Settings) readProps(p map[string]string) error {
	r := &propReader{p: p}
	s.Scale = Scale{
		Warehouses: int(r.num("warehouses", 1, 1, 100000)),
		Items:      int(r.num("items", DefaultItems, 100, DefaultItems)),
		Customers:  int(r.num("customers", DefaultCustomers, 10, DefaultCustomers)),
	}
	s.Seed = uint64(r.num("seed", 0, 0, 1<<62))
	s.Threads = int(r.num("threadcount", 1, 1, 10000))
	s.Options.NoTransactions = !r.flag("tpcc.transactions", true)
	s.Options.Normalized = r.flag("tpcc.normalized", false)
	s.Options.FindAndModify = r.flag("tpcc.findandmodify", true)
	s.Options.BatchWrites = r.flag("tpcc.batchwrites", true)
	s.Options.DeliveryPerDistrict = r.flag("tpcc.deliveryperdistrict", false)
	s.Options.Causal = r.flag("tpcc.causal", false)
	s.Options.Retry.MaxAttempts = int(r.num("tpcc.maxattempts", 10, 1, 1000))
	_, s.LinePathsSet = p["tpcc.linepaths"]
	s.Options.LinePaths = r.flag("tpcc.linepaths", false)
	return r.err
}

// resolveConcerns sets the write concern, read concern and read
// preference that their properties name; without one, the server's.
func resolveConcerns(p map[string]string, opts *Options) error {
	if v, ok := p["tpcc.writeconcern"]; ok {
		switch {
		case v == "majority":
			opts.WriteConcern = writeconcern.Majority()
		default:
			n, e := strconv.Atoi(v)
			if e != nil || n < 0 || n > 50 {
				return fmt.Errorf("tpcc.writeconcern=%q is invalid: expected majority or a number of members from 0 to 50", v)
			}
			opts.WriteConcern = &writeconcern.WriteConcern{W: n}
		}
	}
	if v, ok := p["tpcc.readconcern"]; ok {
		switch v {
		case "local", "majority", "snapshot", "linearizable", "available":
			opts.ReadConcern = &readconcern.ReadConcern{Level: v}
		default:
			return fmt.Errorf("tpcc.readconcern=%q is invalid: expected local, majority, snapshot, linearizable or available", v)
		}
	}
	if v, ok := p["tpcc.readpreference"]; ok {
		mode, e := readpref.ModeFromString(v)
		if e != nil {
			return fmt.Errorf("tpcc.readpreference=%q is invalid: expected primary, primaryPreferred, secondary, secondaryPreferred or nearest", v)
		}
		rp, e := readpref.New(mode)
		if e != nil {
			return fmt.Errorf("tpcc.readpreference=%q: %v", v, e)
		}
		opts.ReadPreference = rp
	}
	return nil
}

// resolveTarget sets the server's URL, from mongodb.url or else
// MONGOBENCH_URL, and the database: tpcc unless the URL names one.
func (s *Settings) resolveTarget(p map[string]string, getenv func(string) string) error {
	s.URL = p["mongodb.url"]
	if s.URL == "" {
		s.URL = getenv("MONGOBENCH_URL")
	}
	if s.URL != "" {
		if e := mongodb.ValidateURL(s.URL); e != nil {
			return fmt.Errorf("%v", e)
		}
	}
	s.Database = DatabaseOf(s.URL)
	return nil
}

// DatabaseOf is the database TPC-C's collections live in at url: tpcc,
// unless the URL names one.
func DatabaseOf(url string) string {
	if url != "" {
		if db := mongodb.DatabaseFromURL(url); db != mongodb.DefaultDatabase || strings.Contains(url, "/"+mongodb.DefaultDatabase) {
			return db
		}
	}
	return "tpcc"
}
