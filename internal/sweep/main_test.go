package sweep

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/workload"
)

func TestMain(m *testing.M) { embeddedtest.Main(m) }

var dbCounter atomic.Int64

// freshURL is the test server's URL with a database of the test's own.
func freshURL() string {
	return fmt.Sprintf("%ssweep%d", embeddedtest.Server().URI(), dbCounter.Add(1))
}

// props are a sweep's properties from "key=value" lines, as a run's
// command line would set them.
func props(t *testing.T, command string, lines ...string) *workload.Properties {
	t.Helper()
	p, err := workload.Parse(strings.NewReader(strings.Join(lines, "\n")), "test")
	if err != nil {
		t.Fatal(err)
	}
	p.Set("dotransactions", fmt.Sprint(command == "run"), "-p")
	return p
}
