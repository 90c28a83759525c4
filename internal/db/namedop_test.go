package db

import (
	"fmt"
	"sync"
	"testing"
)

// The registry is the process's, so these checks run in one test, in
// order: filling the table comes last.
func TestNamedOp(t *testing.T) {
	a, err := NamedOp("checkout-test")
	if err != nil {
		t.Fatal(err)
	}
	if int(a) < NumOps || a.String() != "checkout-test" {
		t.Fatalf("NamedOp gave %d (%s)", a, a)
	}
	again, _ := NamedOp("checkout-test")
	if again != a {
		t.Errorf("the same name got codes %d and %d", a, again)
	}
	if op, ok := ParseOp("checkout-test"); !ok || op != a {
		t.Errorf("ParseOp = %d, %v", op, ok)
	}
	// A YCSB name is YCSB's operation, not a new one.
	if op, _ := NamedOp("INSERT"); op != Insert {
		t.Errorf("NamedOp(INSERT) = %d, want YCSB's INSERT", op)
	}
	for _, bad := range []string{"", "a,b", "a b", "[x]", "x\n", string(make([]byte, MaxOpName+1))} {
		if _, err := NamedOp(bad); err == nil {
			t.Errorf("NamedOp(%q) accepted", bad)
		}
	}
	concurrent(t)
}

// concurrent: workers of several phases registering at once agree on
// every code, and the table stops at MaxOps.
func concurrent(t *testing.T) {
	var wg sync.WaitGroup
	codes := make([][]Op, 4)
	for g := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				op, err := NamedOp(fmt.Sprintf("concurrent-%d", i))
				if err != nil {
					t.Error(err)
					return
				}
				codes[g] = append(codes[g], op)
			}
		}()
	}
	wg.Wait()
	for g := 1; g < len(codes); g++ {
		for i := range codes[g] {
			if codes[g][i] != codes[0][i] {
				t.Fatalf("goroutines disagree on concurrent-%d: %d and %d", i, codes[0][i], codes[g][i])
			}
		}
	}
	var err error
	for i := 0; err == nil && i < MaxOps; i++ {
		_, err = NamedOp(fmt.Sprintf("filler-%d", i))
	}
	if err == nil {
		t.Fatal("more than MaxOps codes handed out")
	}
	if op, _ := ParseOp("concurrent-3"); op != codes[0][3] {
		t.Error("a full table lost a name")
	}
}
