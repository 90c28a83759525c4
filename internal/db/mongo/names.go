package mongo

import (
	"fmt"
	"strings"
)

// MongoDB's naming restrictions, from "MongoDB Limits and Thresholds",
// section "Naming Restrictions"
// (https://www.mongodb.com/docs/manual/reference/limits/#naming-restrictions):
//
//   - database names cannot be empty, must be fewer than 64 bytes, and on
//     Linux and Unix cannot hold any of / \ . space " $ nor the null
//     character (Windows forbids * < > : | ? as well);
//   - collection names cannot be empty, cannot hold $ or the null
//     character, cannot begin with "system." (reserved), and the
//     namespace database.collection is at most 255 bytes (MongoDB 4.4+);
//   - field names cannot hold the null character; a name starting with $
//     is an operator to updates and projections, and a '.' is a path into
//     an embedded document, so YCSB's flat fields cannot use either.
//
// A name that breaks them is refused before the run: the server would
// fail every operation with it, and the run would measure only errors.

// maxDatabaseName is the longest database name: fewer than 64 bytes.
const maxDatabaseName = 63

// maxNamespace bounds database + "." + collection.
const maxNamespace = 255

const databaseForbidden = `/\. "$` + "\x00"

// CheckDatabaseName says what is wrong with a database name, or returns
// nil. The errors here give the rule, not the name: the caller names it
// and the property it came from.
func CheckDatabaseName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty: MongoDB database names hold 1 to %d bytes", maxDatabaseName)
	case len(name) > maxDatabaseName:
		return fmt.Errorf("%d bytes long: MongoDB database names are fewer than 64 bytes", len(name))
	}
	if i := strings.IndexAny(name, databaseForbidden); i >= 0 {
		return fmt.Errorf("it holds %s: MongoDB database names cannot hold / \\ . space \" $ or the null character", describe(name[i]))
	}
	return nil
}

// CheckCollectionName says what is wrong with the collection name coll in
// database db, or returns nil.
func CheckCollectionName(db, coll string) error {
	switch {
	case coll == "":
		return fmt.Errorf("empty: expected a collection name such as usertable")
	case strings.HasPrefix(coll, "system."):
		return fmt.Errorf("it begins with \"system.\", which MongoDB reserves for its own collections")
	case len(db)+1+len(coll) > maxNamespace:
		return fmt.Errorf("%d bytes long: MongoDB allows %d bytes for database.collection, so at most %d in database %q", len(coll), maxNamespace, max(0, maxNamespace-len(db)-1), db)
	}
	if i := strings.IndexAny(coll, "$\x00"); i >= 0 {
		return fmt.Errorf("it holds %s: MongoDB collection names cannot hold $ or the null character", describe(coll[i]))
	}
	return nil
}

// CheckFieldPrefix says what is wrong with fieldnameprefix, from which
// the field names are made by appending a number, or returns nil.
func CheckFieldPrefix(prefix string) error {
	if strings.HasPrefix(prefix, "$") {
		return fmt.Errorf("it begins with $: to MongoDB a field name beginning with $ is an operator in updates and projections")
	}
	if i := strings.IndexAny(prefix, ".\x00"); i >= 0 {
		if prefix[i] == '.' {
			return fmt.Errorf("it holds '.': to MongoDB a '.' in a field name is a path into an embedded document")
		}
		return fmt.Errorf("it holds the null character, which MongoDB field names cannot hold")
	}
	return nil
}

func describe(c byte) string {
	switch c {
	case 0:
		return "the null character"
	case ' ':
		return "a space"
	}
	return fmt.Sprintf("'%c'", c)
}
