package mongo

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TestAuthError checks the message of a refused authentication: it names
// the URL with its password masked, the user (or where the user comes
// from) and the mechanism, and never the password.
func TestAuthError(t *testing.T) {
	t.Parallel()
	const password = "S3NTINELpw"
	const cause = `auth error: sasl conversation error: unable to authenticate using mechanism "SCRAM-SHA-256": (AuthenticationFailed) Authentication failed.`
	tests := []struct {
		name string
		url  string
		want string // the whole message
	}{
		{"SCRAM-SHA-256 with user", "mongodb://bench:" + password + "@db1:27017/ycsb?authMechanism=SCRAM-SHA-256&authSource=admin",
			`authentication failed at mongodb://bench:***@db1:27017/ycsb?authMechanism=SCRAM-SHA-256&authSource=admin for user "bench" with mechanism SCRAM-SHA-256, authSource admin: ` + cause},
		{"SCRAM-SHA-1", "mongodb://old:" + password + "@db1/ycsb?authMechanism=SCRAM-SHA-1",
			`authentication failed at mongodb://old:***@db1/ycsb?authMechanism=SCRAM-SHA-1 for user "old" with mechanism SCRAM-SHA-1, authSource ycsb: ` + cause},
		// X.509 takes the user from the certificate: no `user ""`.
		{"X.509 without user", "mongodb://db1/ycsb?authMechanism=MONGODB-X509&tls=true",
			"authentication failed at mongodb://db1/ycsb?authMechanism=MONGODB-X509&tls=true for the subject of the client certificate (tlsCertificateKeyFile) with mechanism MONGODB-X509, authSource $external: " + cause},
		{"X.509 with user", "mongodb://CN%3Dbench@db1/?authMechanism=MONGODB-X509",
			`authentication failed at mongodb://CN%3Dbench@db1/?authMechanism=MONGODB-X509 for user "CN=bench" with mechanism MONGODB-X509, authSource $external: ` + cause},
		// No authMechanism: the driver negotiates SCRAM.
		{"default mechanism", "mongodb://bench:" + password + "@db1/ycsb",
			`authentication failed at mongodb://bench:***@db1/ycsb for user "bench" with the default mechanism (SCRAM-SHA-256, or SCRAM-SHA-1 when the server offers no other), authSource ycsb: ` + cause},
		{"password with @ and :", "mongodb://bench:p%40ss%3A" + password + "@db1/?authSource=admin",
			`authentication failed at mongodb://bench:***@db1/?authSource=admin for user "bench" with the default mechanism (SCRAM-SHA-256, or SCRAM-SHA-1 when the server offers no other), authSource admin: ` + cause},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := options.Client().ApplyURI(tt.url)
			if err := opts.Validate(); err != nil {
				t.Fatal(err)
			}
			got := authError(tt.url, opts.Auth, cause).Error()
			if got != tt.want {
				t.Errorf("message:\n got %s\nwant %s", got, tt.want)
			}
			if strings.Contains(got, password) || strings.Contains(got, `user ""`) {
				t.Errorf("message shows the password or an empty user: %s", got)
			}
		})
	}
	// A URL without credentials (the driver then has no Auth at all).
	if got, want := authError("mongodb://db1/", nil, cause).Error(), "authentication failed at mongodb://db1/ for no user (the URL names none) with the default mechanism (SCRAM-SHA-256, or SCRAM-SHA-1 when the server offers no other): "+cause; got != want {
		t.Errorf("no credentials:\n got %s\nwant %s", got, want)
	}
}
