package native

import (
	"os"
	"testing"
)

// BenchmarkDocument1K generates the built-in insert benchmark's document
// (about 1 KB, ten generated fields) into a reused buffer: the cost per
// document that a loading client pays before the driver sends it.
func BenchmarkDocument1K(b *testing.B) {
	src, err := os.ReadFile("../../workloads/insert1k.yaml")
	if err != nil {
		b.Fatal(err)
	}
	f, err := Parse("insert1k.yaml", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	doc := f.Collections[0].Document
	c := NewCtx()
	buf, _ := doc.Append(nil, c, 0)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		buf, _ = doc.Append(buf[:0], c, int64(i))
	}
}

// BenchmarkFake is one realistic value: gofakeit builds its strings, so
// this one allocates, and a template that uses many of them costs more.
func BenchmarkFake(b *testing.B) {
	c := NewCtx()
	g := &fakeGen{f: fakers[0].f}
	var buf []byte
	b.ReportAllocs()
	for i := range b.N {
		c.n = int64(i)
		buf, _ = g.appendValue(buf[:0], c, 1)
	}
}

// BenchmarkCountOperation is what a worker adds to each operation to
// count its documents: nothing allocated.
func BenchmarkCountOperation(b *testing.B) {
	var tl tally
	b.ReportAllocs()
	for range b.N {
		tl.add(Result{Documents: 20}, nil)
	}
}
