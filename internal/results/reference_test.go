package results

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/metrics"
)

// fieldDocs reads the doc comment of every struct field in the Go files of
// dirs, keyed "package.Type.Field".
func fieldDocs(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	docs := map[string]string{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(fset, f, src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				for _, fld := range st.Fields.List {
					text := fld.Doc.Text()
					if text == "" {
						text = fld.Comment.Text()
					}
					for _, name := range fld.Names {
						docs[file.Name.Name+"."+ts.Name.Name+"."+name.Name] = strings.Join(strings.Fields(text), " ")
					}
				}
				return true
			})
		}
	}
	return docs
}

// TestReferenceResults keeps docs/reference/results.md the results file's
// fields as the code defines them: every JSON name, its type and its doc
// comment, each object type once, in the order the file first holds it
// (go test ./internal/results -run TestReferenceResults -update rewrites
// it).
func TestReferenceResults(t *testing.T) {
	t.Parallel()
	docs := fieldDocs(t, ".", "../metrics")
	var b strings.Builder
	b.WriteString("# The results file\n\n")
	b.WriteString("Generated from the code (`go test ./internal/results -run TestReferenceResults -update`): every\n")
	fmt.Fprintf(&b, "field of the JSON results file (`--out`, `format_version` %d), its type and what it holds. A field\n", FormatVersion)
	b.WriteString("marked *optional* is left out when the run has nothing for it: absent is never zero. Each object\n")
	b.WriteString("type is described once, in the order the file first holds it.\n")
	queue := []reflect.Type{reflect.TypeOf(Results{})}
	queued := map[reflect.Type]bool{queue[0]: true}
	for len(queue) > 0 {
		typ := queue[0]
		queue = queue[1:]
		fmt.Fprintf(&b, "\n## %s\n\n| field | type | meaning |\n|---|---|---|\n", typeTitle(typ))
		prevDoc := ""
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			kind, elem := describe(f.Type)
			if elem != nil {
				title := typeTitle(elem)
				kind = strings.Replace(kind, "object", "["+title+"](#"+anchor(title)+")", 1)
				if !queued[elem] {
					queued[elem] = true
					queue = append(queue, elem)
				}
			}
			if strings.Contains(opts, "omit") {
				kind += ", optional"
			}
			doc := docs[pkgName(typ)+"."+typ.Name()+"."+f.Name]
			switch {
			case doc != "":
				prevDoc = doc
			case prevDoc != "" && mentions(prevDoc, f.Name):
				// One comment for several fields: "Start and End are …".
				doc = "as above"
			default:
				doc = "—"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", name, kind, strings.ReplaceAll(doc, "|", `\|`))
		}
	}
	golden.CheckFile(t, "../../docs/reference/results.md", b.String())
}

// typeTitle names a struct type in the reference: "metrics.ServerInterval"
// for another package's.
func typeTitle(t reflect.Type) string {
	if pkgName(t) == "results" {
		return t.Name()
	}
	return pkgName(t) + "." + t.Name()
}

// anchor is the link target GitHub gives a heading.
func anchor(title string) string {
	return strings.ToLower(strings.ReplaceAll(title, ".", ""))
}

// mentions reports whether doc names the Go field name as a word.
func mentions(doc, name string) bool {
	for _, w := range strings.FieldsFunc(doc, func(r rune) bool { return strings.ContainsRune(" ,;:.()", r) }) {
		if w == name {
			return true
		}
	}
	return false
}

func pkgName(t reflect.Type) string {
	p := t.PkgPath()
	return p[strings.LastIndexByte(p, '/')+1:]
}

// describe names a field's JSON type, and the struct it holds, if any.
func describe(t reflect.Type) (string, reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeOf(time.Time{}):
		return "time (RFC 3339)", nil
	case reflect.TypeOf(metrics.Value{}):
		// Its own MarshalJSON: a number, absent when the server did not
		// report it.
		return "number", nil
	}
	switch t.Kind() {
	case reflect.Struct:
		return "object", t
	case reflect.Slice:
		s, elem := describe(t.Elem())
		return "array of " + s, elem
	case reflect.Map:
		s, elem := describe(t.Elem())
		return "map of " + s, elem
	case reflect.String:
		return "string", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer", nil
	}
	return t.String(), nil
}
