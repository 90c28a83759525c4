package native

import (
	"encoding/json"
	"fmt"
	"slices"
)

// keyDoc says what each key of the format means, for the schema; a key
// the parser accepts without a line here panics in Schema, so the
// published schema cannot fall behind the parser.
var keyDoc = map[string]string{
	// the file
	"name":        "a name: the workload's, an index's, or an operation's (as the summary, results and reports show it)",
	"description": "what the workload stands for",
	"seed":        "makes every generated value reproducible (default 1)",
	"parameters":  "named values the file uses as ${name}; -p name=value replaces one",
	"collections": "the collections, by name",
	"operations":  "the operations, each named and weighted",
	"phases":      "load (mongobench load), warmup and measure (mongobench run)",
	// a collection
	"documents": "how many documents the load inserts: the range ^ref draws from, and where the measure phase's inserts start numbering",
	"indexes":   "secondary indexes, created before the load",
	"shardKey":  "the shard key, as an ordered document (checked; not yet set up by load)",
	"validator": "the collection's validator (checked; not yet created by load)",
	"document":  "the document template (insertOne, insertMany, replaceOne: the document inserted or the replacement; default the collection's)",
	// an index
	"keys":               "the index keys as an ordered document: {customer: 1, created: -1}",
	"unique":             "a unique index",
	"sparse":             "a sparse index",
	"expireAfterSeconds": "a TTL index: seconds after the date in its key",
	// a phase
	"threads":  "worker threads (default 1)",
	"rate":     "target operations per second over all threads (default 0: as fast as the server answers)",
	"count":    "operations the phase runs",
	"duration": "how long the phase runs, as 30s, 5m or 1h30m",
	// an operation
	"kind":         "what the operation does",
	"collection":   "the collection it works on (a transaction's steps may each name their own)",
	"weight":       "its share of the phase's operations (default 1)",
	"let":          "values drawn once per operation and reused by ^let in its templates and steps",
	"batch":        "insertMany: documents per call (default 100)",
	"ordered":      "insertMany, bulkWrite: stop at the first error (default true)",
	"filter":       "the query filter",
	"projection":   "the fields returned",
	"sort":         "the sort order",
	"limit":        "at most this many documents",
	"skip":         "documents skipped first",
	"hint":         "the index to use, by name or keys",
	"pipeline":     "the aggregation pipeline",
	"update":       "an update document ($set, $inc, $push …) or an update pipeline",
	"upsert":       "insert when nothing matches",
	"arrayFilters": "updateOne, updateMany, findOneAndUpdate: filters of the array elements an update's $[name] changes",
	"returnNew":    "findOneAndUpdate: return the document after the update",
	"field":        "distinct: the field whose distinct values are returned",
	"indexName":    "createIndex: the index's name",
	"steps":        "bulkWrite: its writes; transaction: its operations, in order",
	"readConcern":  "transaction: its read concern",
	"writeConcern": "transaction: its write concern",
	"retries":      "transaction: how many times it is tried again on TransientTransactionError or UnknownTransactionCommitResult (default 3)",
	"atomic":       "transaction: false runs its steps one after another outside any transaction, for a server without transactions (default true)",
}

// generatorDoc says what each generator draws.
var generatorDoc = map[string]string{
	"^int32":    "an int32: {min, max, dist: uniform|zipfian|normal|sequence, mean, stddev}",
	"^int64":    "an int64: {min, max, dist: uniform|zipfian|normal|sequence, mean, stddev}",
	"^double":   "a double: {min, max, dist: uniform|normal, mean, stddev}",
	"^decimal":  "a decimal128: {min, max, scale (digits after the point, default 2), dist: uniform|zipfian}",
	"^string":   "a string: a length, or {length: N or {min, max, dist}, alphabet}",
	"^bool":     "a boolean: the share of true (default 0.5), or {p}",
	"^date":     "a date: {from, to (2006-01-02 or RFC 3339), dist}",
	"^now":      "the current time (the one value not reproducible from the seed)",
	"^objectId": "an ObjectId that grows with the document number, as a server's do",
	"^uuid":     "a version 4 UUID (binary subtype 4)",
	"^binary":   "binary data: a length, or {length}",
	"^array":    "an array: {of: TEMPLATE, length: N or {min, max, dist}}",
	"^choice":   "one of a list of templates: [a, b] or {from: [a, b], weights: [3, 1]}",
	"^fake":     "a realistic value from gofakeit, by name",
	"^ref":      "the value of a field of an existing document: collection.field, or {field, dist: uniform|zipfian|normal}",
	"^let":      "the operation's let value of this name",
	"^number":   "the document or operation number itself (an int64)",
	"^dataset":  "a value from a file, one a line: FILE or {file, dist: uniform|zipfian|normal|sequence}; .txt lines are strings, .jsonl/.ndjson lines relaxed Extended JSON; the path relative to the workload file",
}

func describe(key string) string {
	d, ok := keyDoc[key]
	if !ok {
		panic(fmt.Sprintf("native: key %q has no description in keyDoc", key))
	}
	return d
}

type obj = map[string]any

// Schema returns the JSON Schema (draft 2020-12) of the format, built
// from the same tables the parser reads.
func Schema() []byte {
	ref := func(name string) obj { return obj{"$ref": "#/$defs/" + name} }
	props := func(keys []string, types map[string]obj) obj {
		out := obj{}
		for _, k := range keys {
			p := obj{}
			for kk, v := range types[k] {
				p[kk] = v
			}
			p["description"] = describe(k)
			out[k] = p
		}
		return out
	}
	strict := func(keys []string, types map[string]obj, required ...string) obj {
		o := obj{"type": "object", "additionalProperties": false, "properties": props(keys, types)}
		if len(required) > 0 {
			o["required"] = required
		}
		return o
	}
	template, document, list := ref("template"), ref("document"), obj{"type": "array", "items": ref("template")}
	operationTypes := map[string]obj{
		"name": {"type": "string", "pattern": nameRE.String()}, "kind": {"enum": kindNames()},
		"collection": {"type": "string"}, "weight": ref("number"),
		"let":      {"type": "object", "additionalProperties": template},
		"document": document, "filter": document, "projection": document, "sort": document,
		"keys": document, "hint": template, "pipeline": list, "arrayFilters": list,
		"update": {"anyOf": []any{document, list}},
		"batch":  ref("integer"), "limit": ref("integer"), "skip": ref("integer"), "retries": ref("integer"),
		"upsert": ref("boolean"), "ordered": ref("boolean"), "returnNew": ref("boolean"), "unique": ref("boolean"),
		"field": {"type": "string"}, "indexName": {"type": "string"},
		"steps":       {"type": "array", "minItems": 1, "items": ref("operation")},
		"readConcern": {"enum": readConcerns}, "writeConcern": {"enum": writeConcerns},
	}
	all := append([]string{}, commonOperationKeys...)
	var perKind []any
	for _, k := range kinds {
		keys := append(append([]string{}, commonOperationKeys...), k.options...)
		for _, o := range k.options {
			if !slices.Contains(all, o) {
				all = append(all, o)
			}
		}
		then := strict(keys, operationTypes, k.required...)
		perKind = append(perKind, obj{
			"if":   obj{"properties": obj{"kind": obj{"const": string(k.kind)}}, "required": []string{"kind"}},
			"then": then,
		})
	}
	operation := obj{
		"type":       "object",
		"required":   []string{"kind"},
		"properties": props(all, operationTypes),
		"allOf":      perKind,
	}
	generators := obj{}
	for _, g := range generatorNames {
		generators[g] = obj{"description": generatorDoc[g]}
	}
	fakeNames := make([]string, len(fakers))
	for i, f := range fakers {
		fakeNames[i] = f.name
	}
	generators["^fake"] = obj{"description": generatorDoc["^fake"], "enum": fakeNames}
	// A file name or dist may be a whole ${parameter}, which the schema
	// cannot check further.
	datasetFile := obj{"anyOf": []any{obj{"type": "string", "pattern": `\.(txt|jsonl|ndjson|TXT|JSONL|NDJSON)$`}, ref("parameterRef")}}
	generators["^dataset"] = obj{"description": generatorDoc["^dataset"], "oneOf": []any{
		datasetFile,
		obj{"type": "object", "additionalProperties": false, "required": []string{"file"},
			"properties": obj{"file": datasetFile, "dist": obj{"anyOf": []any{obj{"enum": distNames}, ref("parameterRef")}}}},
	}}
	phaseProps := obj{}
	for _, k := range phaseKinds {
		phaseProps[k] = obj{"$ref": "#/$defs/phase", "description": "the " + k + " phase"}
	}
	phasesSchema := obj{"type": "object", "additionalProperties": false, "minProperties": 1, "properties": phaseProps}
	paramRef := obj{"type": "string", "pattern": `^\$\{[A-Za-z_][A-Za-z0-9_-]*\}$`}
	s := obj{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"$id":                  "https://github.com/mongobench/mongobench/docs/reference/native-schema.json",
		"title":                "mongobench native workload",
		"description":          "A workload of your own documents, indexes and operations. Generated from the parser's tables; docs/reference/native-workloads.md explains it.",
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"collections", "operations", "phases"},
		"properties": props(topKeys, map[string]obj{
			"name": {"type": "string"}, "description": {"type": "string"}, "seed": ref("integer"),
			"parameters":  {"type": "object", "additionalProperties": obj{"type": []string{"string", "number", "boolean"}}},
			"collections": {"type": "object", "minProperties": 1, "additionalProperties": ref("collection")},
			"operations":  {"type": "array", "minItems": 1, "items": ref("operation")},
			"phases":      phasesSchema,
		}),
		"$defs": obj{
			"parameterRef": paramRef,
			"integer":      obj{"anyOf": []any{obj{"type": "integer"}, ref("parameterRef")}},
			"number":       obj{"anyOf": []any{obj{"type": "number"}, ref("parameterRef")}},
			"boolean":      obj{"anyOf": []any{obj{"type": "boolean"}, ref("parameterRef")}},
			"collection": strict(collectionKeys, map[string]obj{
				"documents": ref("integer"), "indexes": obj{"type": "array", "items": ref("index")},
				"shardKey": document, "validator": document, "document": document,
			}, "document"),
			"index": strict(indexKeys, map[string]obj{
				"keys": document, "name": {"type": "string"}, "unique": ref("boolean"),
				"sparse": ref("boolean"), "expireAfterSeconds": ref("integer"),
			}, "keys"),
			"phase": strict(phaseKeys, map[string]obj{
				"threads": ref("integer"), "rate": ref("number"), "count": ref("integer"),
				"duration": obj{"type": "string"}, "operations": obj{"type": "array", "items": obj{"type": "string"}},
			}),
			"operation": operation,
			"generator": obj{
				"description":   "a generated value: an object whose one key names the generator",
				"type":          "object",
				"minProperties": 1, "maxProperties": 1,
				"properties":    generators,
				"propertyNames": obj{"enum": generatorNames},
			},
			"template": obj{
				"description": "a value: a constant, a generator ({^name: options}), or a document or array of templates",
				"anyOf": []any{
					ref("generator"),
					obj{"type": "object", "propertyNames": obj{"not": obj{"pattern": `^\^`}}, "additionalProperties": ref("template")},
					obj{"type": "array", "items": ref("template")},
					obj{"type": []string{"string", "number", "boolean", "null"}},
				},
			},
			"document": obj{
				"description": "a document template",
				"anyOf": []any{
					obj{"type": "object", "propertyNames": obj{"not": obj{"pattern": `^\^`}}, "additionalProperties": ref("template")},
				},
			},
		},
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
