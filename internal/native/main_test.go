package native

import (
	"testing"

	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
)

// TestMain runs the operations' tests against a real (embedded) server.
func TestMain(m *testing.M) { embeddedtest.Main(m) }
