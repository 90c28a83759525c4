package mongo

import (
	"strings"
	"testing"
	"time"
)

// TestClientOptions: the pool holds a connection per thread unless the URL
// (or the deprecated mongodb.maxconnections, rewritten into it) says
// otherwise, and the URL's own settings win over mongobench's defaults.
func TestClientOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		url            string
		maxConnections string // mongodb.maxconnections, "" when unset
		threads        int
		pool           uint64
		appName        string
		selection      time.Duration
	}{
		{"few threads: the driver's default pool", "mongodb://h/ycsb", "", 16, 100, "mongobench", 10 * time.Second},
		{"a pool per thread", "mongodb://h/ycsb", "", 500, 500, "mongobench", 10 * time.Second},
		{"the URL's pool wins", "mongodb://h/ycsb?maxPoolSize=7", "", 500, 7, "mongobench", 10 * time.Second},
		{"mongodb.maxconnections", "mongodb://h/ycsb", "40", 500, 40, "mongobench", 10 * time.Second},
		{"the URL's names and timeouts win", "mongodb://h/ycsb?appName=mine&serverSelectionTimeoutMS=2500", "", 1, 100, "mine", 2500 * time.Millisecond},
	}
	for _, tc := range tests {
		url, _, err := ApplyDeprecated(tc.url, "", "", tc.maxConnections)
		if err != nil {
			t.Fatal(err)
		}
		opts, err := clientOptions(Config{URL: url, Threads: tc.threads, ConnectTimeout: 10 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if opts.MaxPoolSize == nil || *opts.MaxPoolSize != tc.pool {
			t.Errorf("%s: maxPoolSize %v, want %d", tc.name, opts.MaxPoolSize, tc.pool)
		}
		if opts.AppName == nil || *opts.AppName != tc.appName {
			t.Errorf("%s: appName %v, want %s", tc.name, opts.AppName, tc.appName)
		}
		if opts.ServerSelectionTimeout == nil || *opts.ServerSelectionTimeout != tc.selection {
			t.Errorf("%s: serverSelectionTimeout %v, want %s", tc.name, opts.ServerSelectionTimeout, tc.selection)
		}
	}
	_, err := clientOptions(Config{URL: "mongodb://u:sentinel-pw@h/?maxPoolSize=x"})
	if err == nil || strings.Contains(err.Error(), "sentinel-pw") || !strings.Contains(err.Error(), "maxPoolSize") {
		t.Errorf("an invalid maxPoolSize: error %v, want one naming it without the password", err)
	}
}
