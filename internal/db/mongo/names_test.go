package mongo

import (
	"strings"
	"testing"
)

func TestCheckNames(t *testing.T) {
	t.Parallel()
	long63, long64 := strings.Repeat("d", 63), strings.Repeat("d", 64)
	tests := []struct {
		kind, db, name string
		want           string // "" when accepted
	}{
		{"database", "", "ycsb", ""},
		{"database", "", "ycsb_2", ""},
		{"database", "", "données", ""}, // UTF-8 is allowed
		{"database", "", long63, ""},
		{"database", "", long64, "64 bytes long: MongoDB database names are fewer than 64 bytes"},
		{"database", "", "", "empty"},
		{"database", "", "a.b", "it holds '.'"},
		{"database", "", "my db", "it holds a space"},
		{"database", "", "a/b", "it holds '/'"},
		{"database", "", `a\b`, `it holds '\'`},
		{"database", "", `a"b`, `it holds '"'`},
		{"database", "", "a$b", "it holds '$'"},
		{"database", "", "a\x00b", "it holds the null character"},
		{"collection", "ycsb", "usertable", ""},
		{"collection", "ycsb", "user.table", ""}, // dots are allowed in collection names
		{"collection", "ycsb", "user table", ""},
		{"collection", "ycsb", "$foo", "it holds '$'"},
		{"collection", "ycsb", "foo$", "it holds '$'"},
		{"collection", "ycsb", "a\x00b", "it holds the null character"},
		{"collection", "ycsb", "system.users", `it begins with "system."`},
		{"collection", "ycsb", "", "empty"},
		{"collection", "ycsb", strings.Repeat("c", 250), ""}, // ycsb.ccc… is 255 bytes
		{"collection", "ycsb", strings.Repeat("c", 251), "251 bytes long: MongoDB allows 255 bytes for database.collection, so at most 250 in database \"ycsb\""},
		{"field prefix", "", "field", ""},
		{"field prefix", "", "f$", ""}, // $ only matters first
		{"field prefix", "", "", ""},   // fields are then named 0, 1, …
		{"field prefix", "", "$x", "it begins with $"},
		{"field prefix", "", "a.b", "it holds '.'"},
		{"field prefix", "", ".", "it holds '.'"},
		{"field prefix", "", "a\x00", "it holds the null character"},
	}
	for _, tt := range tests {
		var err error
		switch tt.kind {
		case "database":
			err = CheckDatabaseName(tt.name)
		case "collection":
			err = CheckCollectionName(tt.db, tt.name)
		default:
			err = CheckFieldPrefix(tt.name)
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %q refused: %v", tt.kind, tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s %q: error %v, want it to start with %q", tt.kind, tt.name, err, tt.want)
		}
	}
}
