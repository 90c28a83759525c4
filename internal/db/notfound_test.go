package db

import (
	"strings"
	"testing"
)

func TestNotFoundCount(t *testing.T) {
	t.Parallel()
	type add struct {
		op Op
		st Status
		n  int64
	}
	tests := []struct {
		name   string
		adds   []add
		failed bool
		want   string
	}{
		{"no lookups: a load", []add{{Insert, OK, 300}}, false, ""},
		{"all found", []add{{Read, OK, 150}, {Update, OK, 150}}, false, ""},
		{"a short collection: 70% missing is an answer", []add{{Read, OK, 30}, {Read, NotFound, 70}}, false, ""},
		{"all missing", []add{{Read, NotFound, 300}}, true,
			"every one of the 300 key lookups (READ) returned NOT_FOUND"},
		{"99 of 100 missing", []add{{Read, NotFound, 60}, {Delete, NotFound, 39}, {Delete, OK, 1}}, true,
			"99 of the 100 key lookups (READ/DELETE) returned NOT_FOUND"},
		{"one lookup", []add{{Read, NotFound, 1}}, true, "the one key lookup (READ) returned NOT_FOUND"},
		{"98 of 100 missing", []add{{Read, NotFound, 98}, {Read, OK, 2}}, false, ""},
		{"failures and scans are not lookups answered", []add{{Read, NotFound, 10}, {Read, Error, 90}, {Scan, OK, 50}}, true,
			"every one of the 10 key lookups (READ) returned NOT_FOUND"},
		{"inserts beside lookups that all failed to find", []add{{Insert, OK, 500}, {Read, NotFound, 5}}, true,
			"every one of the 5 key lookups (READ) returned NOT_FOUND"},
	}
	for _, tt := range tests {
		var c NotFoundCount
		for _, a := range tt.adds {
			c.Add(a.op, a.st, a.n)
		}
		if c.Failed() != tt.failed {
			t.Errorf("%s: Failed() = %v, want %v (%+v)", tt.name, c.Failed(), tt.failed, c)
		}
		got := c.Sentence()
		if strings.Contains(got, ",") {
			t.Errorf("%s: Sentence() = %q holds a comma: it is a summary value", tt.name, got)
		}
		if tt.want == "" && got != "" || tt.want != "" && (len(got) < len(tt.want) || got[:len(tt.want)] != tt.want) {
			t.Errorf("%s: Sentence() = %q, want it to start %q", tt.name, got, tt.want)
		}
	}
}
