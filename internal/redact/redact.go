// Package redact removes secrets from text before it is shown or written.
// Every output path (terminal, logs, results files, reports, the results
// store) passes connection strings through URL; nothing else prints them.
package redact

import (
	"regexp"
	"strings"
)

// Mask replaces a secret.
const Mask = "***"

// secretOptions are connection-string options whose values are secrets.
var secretOptions = []string{"tlsCertificateKeyFilePassword", "sslPEMKeyPassword", "password"}

// URL returns s with the password of a MongoDB connection string (and any
// secret option value) replaced by ***. It works on strings that net/url
// rejects, such as several hosts ("h1:27017,h2:27017") or an unescaped '@'
// in the password, because those are the ones users actually type.
func URL(s string) string {
	scheme := strings.Index(s, "://")
	if scheme < 0 {
		return s
	}
	rest := s[scheme+3:]
	end := len(rest)
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		end = q
	}
	out := s
	if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
		userinfo := rest[:at]
		if colon := strings.IndexByte(userinfo, ':'); colon >= 0 {
			out = s[:scheme+3] + userinfo[:colon] + ":" + Mask + rest[at:]
		}
	}
	return redactOptions(out)
}

var optionPattern = func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([?&](?:` + strings.Join(secretOptions, "|") + `)=)[^&\s]*|(AWS_SESSION_TOKEN:)[^,&\s]*`)
}()

func redactOptions(s string) string {
	return optionPattern.ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.IndexAny(m, "=:"); i >= 0 {
			return m[:i+1] + Mask
		}
		return Mask
	})
}

// urlPattern finds URLs inside free text (error messages, command lines),
// up to the next white space or quote. Any scheme, or none: a MongoDB URL
// typed where something else was expected may have lost or mangled its
// scheme, and "://user:password@host" still carries a password.
var urlPattern = regexp.MustCompile(`[A-Za-z0-9+.\-_]*://[^\s"'\\]+`)

// Text redacts every URL found in s.
func Text(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlPattern.ReplaceAllStringFunc(s, URL)
}

// Args redacts every argument of a command line.
func Args(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Text(a)
	}
	return out
}
