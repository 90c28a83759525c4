package redact

import "testing"

func TestURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// No credentials: unchanged.
		{"mongodb://localhost:27017/ycsb?w=1", "mongodb://localhost:27017/ycsb?w=1"},
		// Seed 003's URL: several mongos hosts and a password.
		{"mongodb://admin:password@node1:20000,node2:20000,node3:20000/testdb?authSource=admin",
			"mongodb://admin:***@node1:20000,node2:20000,node3:20000/testdb?authSource=admin"},
		// SRV URLs too.
		{"mongodb+srv://u:p4ss@cluster0.example.net/db", "mongodb+srv://u:***@cluster0.example.net/db"},
		// An unescaped '@' and '/' inside the password.
		{"mongodb://u:p@ss/w0rd@h:1/db", "mongodb://u:***@h:1/db"},
		// A user without a password keeps the user.
		{"mongodb://user@h/db?authMechanism=MONGODB-X509", "mongodb://user@h/db?authMechanism=MONGODB-X509"},
		// Secret options.
		{"mongodb://h/?tls=true&tlsCertificateKeyFilePassword=s3cr3t&w=1", "mongodb://h/?tls=true&tlsCertificateKeyFilePassword=***&w=1"},
		{"mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:tok123", "mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:***"},
		// Not a URL.
		{"plain text", "plain text"},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	in := `connecting to "mongodb://a:secret@h:1/x" failed; also mongodb+srv://b:other@c/d`
	want := `connecting to "mongodb://a:***@h:1/x" failed; also mongodb+srv://b:***@c/d`
	if got := Text(in); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	// A URL that lost its scheme, or whose scheme starts oddly, still
	// carries a password.
	for in, want := range map[string]string{
		`unknown binding "://u:secret@"`:     `unknown binding "://u:***@"`,
		`value 1x_y://u:secret@h is wrong`:   `value 1x_y://u:***@h is wrong`,
		`bad -p mongodb.url=://u:secret@h/x`: `bad -p mongodb.url=://u:***@h/x`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	args := Args([]string{"-p", "mongodb.url=mongodb://a:secret@h/x"})
	if args[1] != "mongodb.url=mongodb://a:***@h/x" {
		t.Errorf("Args = %q", args)
	}
}

func FuzzURL(f *testing.F) {
	f.Add("mongodb://admin:password@node1:20000,node2:20000/testdb?authSource=admin")
	f.Add("mongodb://u:p@ss@h/")
	f.Fuzz(func(t *testing.T, s string) {
		const secret = "S3NTINEL"
		u := "mongodb://user:" + secret + "@" + s
		if got := URL(u); containsSecret(got, secret) && !containsSecret(s, secret) {
			t.Fatalf("URL(%q) = %q still holds the password", u, got)
		}
	})
}

func containsSecret(s, secret string) bool {
	for i := 0; i+len(secret) <= len(s); i++ {
		if s[i:i+len(secret)] == secret {
			return true
		}
	}
	return false
}
