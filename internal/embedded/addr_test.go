package embedded

import (
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"127.0.0.1:27017", ":0", "localhost:65535", "[::1]:1"} {
		if err := CheckAddr(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"127.0.0.1", "h:65536", "h:-1", "h:+1", "h:port", "mongodb://h:1", "u:p@h:1", ""} {
		if err := CheckAddr(bad); err == nil || !strings.HasSuffix(err.Error(), "is invalid: expected HOST:PORT, such as 127.0.0.1:27017, the port from 0 to 65535 (0 picks a free one)") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if err := CheckAddr("mongodb://u:secret@h:1"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("a password in the message: %v", err)
	}
}
