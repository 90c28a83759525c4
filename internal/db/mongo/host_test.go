package mongo

import "testing"

// TestValidateURLHosts checks the messages for hosts the driver's parser
// explains badly (`invalid host ""`) or lets through to fail only when
// dialled.
func TestValidateURLHosts(t *testing.T) {
	t.Parallel()
	tests := []struct{ url, err string }{
		{"mongodb://h:port/x", `mongodb.url mongodb://h:port/x is invalid: host "h:port": the port "port" is not a number from 1 to 65535`},
		{"mongodb://a:1,b:99999/x", `mongodb.url mongodb://a:1,b:99999/x is invalid: host "b:99999": the port "99999" is not a number from 1 to 65535`},
		{"mongodb://h:/x", `mongodb.url mongodb://h:/x is invalid: host "h:": the port "" is not a number from 1 to 65535`},
		{"mongodb://u:S3NTINEL@[bad/x", `mongodb.url mongodb://u:***@[bad/x is invalid: host "[bad": an IPv6 address goes in brackets, with the port after them, as [::1]:27017`},
		{"mongodb://::1/x", `mongodb.url mongodb://::1/x is invalid: host "::1": an IPv6 address goes in brackets, with the port after them, as [::1]:27017`},
		{"mongodb://[::1]x/x", `mongodb.url mongodb://[::1]x/x is invalid: host "[::1]x": an IPv6 address goes in brackets, with the port after them, as [::1]:27017`},
		{"mongodb://:27017/x", `mongodb.url mongodb://:27017/x is invalid: host ":27017": expected a host name or address, as db1 or db1:27017`},
		{"mongodb://h%20x/db", `mongodb.url mongodb://h%20x/db is invalid: host "h x": a host name holds no spaces or backslashes`},
		// Good hosts pass: names, ports, IPv6, a Unix socket, a password
		// holding an escaped '/' and '@'.
		{"mongodb://db1,db2:27018,[::1]:27019/ycsb", ""},
		{"mongodb://%2Ftmp%2Fmongodb-27017.sock/ycsb", ""},
		{"mongodb://u:p%2Fa%40ss@h:27017/ycsb?w=1", ""},
	}
	for _, tt := range tests {
		err := ValidateURL(tt.url)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("ValidateURL(%q) = %v, want nil", tt.url, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("ValidateURL(%q) = %v,\n                         want %s", tt.url, err, tt.err)
		}
	}
}
