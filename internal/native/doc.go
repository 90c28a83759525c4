// Package native reads mongobench's native workload files: the user's own
// collections (document templates, indexes, shard key), the operations run
// against them (any of MongoDB's CRUD commands, aggregations, bulk writes and
// transactions, each named and weighted) and the phases that run them.
//
// A file is YAML (JSON is accepted, being YAML). Parse checks it whole and
// returns every error with its line and column, so "mongobench validate"
// can list them all at once. Templates are compiled once, at parse time,
// into generators that append BSON straight into a caller's buffer: every
// generated value is a pure function of (seed, collection or operation,
// field, document or operation number), so any document can be generated
// again, a read can target a key that exists, and the parts of a
// partitioned run stay disjoint.
package native
