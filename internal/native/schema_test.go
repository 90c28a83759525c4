package native

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// TestSchemaPublished: docs/reference/native-schema.json is what Schema
// generates (go test ./internal/native -update rewrites it).
func TestSchemaPublished(t *testing.T) {
	t.Parallel()
	golden.CheckFile(t, "../../docs/reference/native-schema.json", Schema())
}

// TestSchemaMatchesParser: every key the parser accepts, and no other, is
// in the schema, section by section and kind by kind.
func TestSchemaMatchesParser(t *testing.T) {
	t.Parallel()
	var s struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
			AllOf      []struct {
				If struct {
					Properties struct {
						Kind struct {
							Const string `json:"const"`
						} `json:"kind"`
					} `json:"properties"`
				} `json:"if"`
				Then struct {
					Properties map[string]any `json:"properties"`
					Required   []string       `json:"required"`
				} `json:"then"`
			} `json:"allOf"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	sorted := func(l []string) []string { l = slices.Clone(l); sort.Strings(l); return l }
	for _, tt := range []struct {
		what string
		got  []string
		want []string
	}{
		{"the file", keys(s.Properties), topKeys},
		{"a collection", keys(s.Defs["collection"].Properties), collectionKeys},
		{"an index", keys(s.Defs["index"].Properties), indexKeys},
		{"a phase", keys(s.Defs["phase"].Properties), phaseKeys},
	} {
		if !slices.Equal(tt.got, sorted(tt.want)) {
			t.Errorf("%s: schema has %v, parser accepts %v", tt.what, tt.got, sorted(tt.want))
		}
	}
	op := s.Defs["operation"]
	if len(op.AllOf) != len(kinds) {
		t.Fatalf("schema has %d kinds, parser %d", len(op.AllOf), len(kinds))
	}
	for i, k := range kinds {
		c := op.AllOf[i]
		want := sorted(append(slices.Clone(commonOperationKeys), k.options...))
		if c.If.Properties.Kind.Const != string(k.kind) || !slices.Equal(keys(c.Then.Properties), want) {
			t.Errorf("kind %s: schema has %s with %v, parser accepts %v", k.kind, c.If.Properties.Kind.Const, keys(c.Then.Properties), want)
		}
		if !slices.Equal(sorted(c.Then.Required), sorted(k.required)) {
			t.Errorf("kind %s: schema requires %v, parser %v", k.kind, c.Then.Required, k.required)
		}
	}
	gens := keys(s.Defs["generator"].Properties)
	if !slices.Equal(gens, sorted(generatorNames)) {
		t.Errorf("schema's generators %v, parser's %v", gens, sorted(generatorNames))
	}
	for _, g := range generatorNames {
		if generatorDoc[g] == "" {
			t.Errorf("generator %s has no description", g)
		}
	}
}
