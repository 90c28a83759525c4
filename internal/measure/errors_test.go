package measure

import (
	"reflect"
	"testing"
)

func TestErrorWindows(t *testing.T) {
	t.Parallel()
	const slot = int64(errorSlot)
	tests := []struct {
		name  string
		slots map[int64]int64
		want  []ErrorWindow
	}{
		{"none", nil, nil},
		{"one slot", map[int64]int64{5: 3}, []ErrorWindow{{5 * slot, 6 * slot, 3}}},
		// Slots closer than a second merge; a second's silence splits.
		{"outage with a hiccup", map[int64]int64{10: 1, 11: 4, 15: 2, 40: 7},
			[]ErrorWindow{{10 * slot, 16 * slot, 7}, {40 * slot, 41 * slot, 7}}},
		{"exactly a second apart", map[int64]int64{0: 1, 11: 1}, []ErrorWindow{{0, slot, 1}, {11 * slot, 12 * slot, 1}}},
	}
	for _, tt := range tests {
		if got := errorWindows(tt.slots); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
