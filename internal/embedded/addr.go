package embedded

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/redact"
)

// CheckAddr refuses a listen address that is not HOST:PORT, so that a
// mistyped value (a URL, say) is named once, in plain words, rather than
// by the listener's error.
func CheckAddr(addr string) error {
	if _, port, err := net.SplitHostPort(addr); err != nil || !validPort(port) || strings.ContainsAny(addr, "@/") {
		return fmt.Errorf("--addr %q is invalid: expected HOST:PORT, such as 127.0.0.1:27017, the port from 0 to 65535 (0 picks a free one)", redact.Arg(addr))
	}
	return nil
}

// validPort reports whether port is a port number a listener takes: 0
// (a free one) to 65535, in digits.
func validPort(port string) bool {
	n, err := strconv.ParseUint(port, 10, 16)
	return err == nil && n <= 65535 && strings.TrimLeft(port, "0123456789") == ""
}
