package widgets

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// InjectionPayloads are the markup attacks put into every text field: each
// would, if a widget passed it through unescaped, end a <script> element,
// close an attribute and add an element, open an HTML comment, break out
// of a JSON string through go-echarts' "__f__" function markers, or close a
// single-quoted attribute. Each sets window.__pwned if it ever runs.
var injectionPayloads = []string{
	`</script><script>window.__pwned=1</script>`,
	`"><img src=x onerror="window.__pwned=1">`,
	`<!--`,
	`__f__window.__pwned=1__f__`,
	`' onmouseover='window.__pwned=1' x='`,
	`</SCRIPT ><!--<script>window.__pwned=1//`,
}

// TestInjectionCoversEveryType checks that the gallery's data, which
// GalleryWithText fills with the payloads, holds one value of every type
// of this package that draws a chart (has a Chart method) or a table (has
// an HTML method), so a new chart type cannot escape the injection tests.
func TestInjectionCoversEveryType(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	want := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !(fd.Name.Name == "Chart" || fd.Name.Name == "HTML") {
				continue
			}
			rt := fd.Recv.List[0].Type
			if st, ok := rt.(*ast.StarExpr); ok {
				rt = st.X
			}
			if id, ok := rt.(*ast.Ident); ok && ast.IsExported(id.Name) {
				want[id.Name] = true
			}
		}
	}
	have := map[string]bool{}
	gd := reflect.TypeFor[GalleryData]()
	for i := 0; i < gd.NumField(); i++ {
		have[gd.Field(i).Type.Name()] = true
	}
	for name := range want {
		if !have[name] {
			t.Errorf("type %s draws a chart or table but GalleryData has no %s: add one so that the injection tests cover it", name, name)
		}
	}
	total := 0
	g := NewGalleryData(1)
	v := reflect.ValueOf(&g).Elem()
	for i := 0; i < v.NumField(); i++ {
		n := setStrings(v.Field(i), "x")
		if n == 0 {
			t.Errorf("%s: no text field found", gd.Field(i).Type.Name())
		}
		total += n
		t.Logf("%-16s %3d text values", gd.Field(i).Type.Name(), n)
	}
	t.Logf("%d chart/table types, %d text values, %d payloads", v.NumField(), total, len(injectionPayloads))
}

// TestInjectionStatic renders the gallery (every chart and table type) with
// each payload in every text field and checks the HTML: its elements and
// attributes are exactly those of the same gallery with plain text, no
// comment appears, no script element contains "<!--", "<script" or
// "</script", and every "__pwned" in a script lies inside a string literal.
func TestInjectionStatic(t *testing.T) {
	assetsOrSkipUnit(t)
	base := galleryMarkup(t, "plain text")
	// Control: go-echarts' own snippet lets the first payload through, and
	// the checks see it.
	c, err := Curves{Title: injectionPayloads[0], X: []float64{0, 1}, Series: []Series{{Name: "s", Y: []float64{1, 2}}}}.Chart()
	if err != nil {
		t.Fatal(err)
	}
	raw := c.RenderSnippet()
	if doc := parseMarkup(raw.Element + raw.Script); len(doc.scripts) < 2 || codeOutsideStrings(doc.scripts[1], "__pwned") < 0 {
		t.Errorf("control: go-echarts' raw snippet %q parsed as %q: the checks cannot see an injected script", raw.Script, doc.elements)
	}
	for _, payload := range injectionPayloads {
		t.Run(payload, func(t *testing.T) {
			doc := galleryMarkup(t, payload)
			if !slices.Equal(doc.elements, base.elements) {
				t.Errorf("elements differ from the plain-text gallery:\n%s", firstDiff(base.elements, doc.elements))
			}
			if doc.comments != 0 {
				t.Errorf("%d HTML comment(s) in the output", doc.comments)
			}
			for i, s := range doc.scripts {
				if m := scriptSpecial.FindString(s); m != "" {
					t.Errorf("script %d contains %q", i, m)
				}
				if at := codeOutsideStrings(s, "__pwned"); at >= 0 {
					t.Errorf("script %d: __pwned outside a string literal: ...%s...", i, s[max(0, at-80):min(len(s), at+40)])
				}
			}
		})
	}
}

// TestInjectionPageTitle checks WritePage's title.
func TestInjectionPageTitle(t *testing.T) {
	page := func(title string) markup {
		var b strings.Builder
		if err := WritePage(&b, title); err != nil {
			t.Fatal(err)
		}
		return parseMarkup(b.String())
	}
	base := page("plain")
	for _, payload := range injectionPayloads {
		doc := page(payload)
		if !slices.Equal(doc.elements, base.elements) || doc.comments != 0 {
			t.Errorf("title %q: elements %q, %d comments", payload, doc.elements, doc.comments)
		}
	}
}

// TestEscapeScriptJSON checks the JavaScript escaper on its own: caller
// strings stay strings (also with "__f__" markers), program functions
// become code.
func TestEscapeScriptJSON(t *testing.T) {
	type opt struct {
		Name string `json:"name"`
		Fn   any    `json:"fn,omitempty"`
	}
	for _, c := range []struct {
		in   any
		want string
	}{
		{opt{Name: `</script><!--`}, `{"name":"\u003c/script\u003e\u003c!--"}`},
		{opt{Name: `__f__alert(1)__f__`}, `{"name":"__f__alert(1)__f__"}`},
		{opt{Name: "a&b", Fn: jsFunc(`function (v) { return v < 1 ? '</script>' : "x"; }`)},
			`{"name":"a\u0026b","fn":function (v) { return v < 1 ? '\x3C/script>' : "x"; }}`},
		{map[string]any{"a": []any{jsFunc("f"), "__f__f__f__"}}, `{"a":[f,f]}`}, // a string equal to a program function is that (harmless) function
	} {
		got, err := scriptJSON(c.in)
		if err != nil || got != c.want {
			t.Errorf("scriptJSON(%#v) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
}

func assetsOrSkipUnit(t *testing.T) {
	t.Helper()
	if _, err := AssetsDir(); err != nil {
		t.Skipf("ECharts assets not installed: %v", err)
	}
}

// galleryMarkup renders the gallery with text in every text field as one
// page and parses it.
func galleryMarkup(t *testing.T, text string) markup {
	t.Helper()
	items, err := GalleryWithText(1, text)
	if err != nil {
		t.Fatalf("GalleryWithText(%q): %v", text, err)
	}
	p := &Page{Title: text}
	for _, it := range items {
		if it.Chart != nil {
			p.Add(it.Chart)
		} else {
			p.AddHTML(it.HTML)
		}
	}
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatalf("text %q: %v", text, err)
	}
	// Chart ids are random: make the pages comparable.
	return parseMarkup(regexp.MustCompile(`sodw_[a-z0-9]+`).ReplaceAllString(b.String(), "sodw_ID"))
}

// markup is what parseMarkup finds in an HTML document.
type markup struct {
	elements []string // start tags with their attribute names, in order
	scripts  []string // the text of each script element
	comments int
}

// parseMarkup tokenizes HTML as a browser's tokenizer does for the
// constructs our output uses: comments, doctype, start and end tags with
// quoted or unquoted attributes, raw text of script and style elements
// (ending at the first "</script" or "</style"), and text.
func parseMarkup(s string) markup {
	var m markup
	lower := strings.ToLower(s)
	i := 0
	for i < len(s) {
		if s[i] != '<' {
			i++
			continue
		}
		switch {
		case strings.HasPrefix(s[i:], "<!--"):
			m.comments++
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				return m
			}
			i += 4 + end + 3
		case strings.HasPrefix(s[i:], "<!") || strings.HasPrefix(s[i:], "</") || strings.HasPrefix(s[i:], "<?"):
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return m
			}
			i += end + 1
		case i+1 < len(s) && isASCIILetter(s[i+1]):
			j := i + 1
			for j < len(s) && !strings.ContainsRune(" \t\n\f\r/>", rune(s[j])) {
				j++
			}
			name := strings.ToLower(s[i+1 : j])
			elem := name
			for j < len(s) && s[j] != '>' {
				if strings.ContainsRune(" \t\n\f\r/", rune(s[j])) {
					j++
					continue
				}
				k := j
				for k < len(s) && !strings.ContainsRune(" \t\n\f\r/>=", rune(s[k])) {
					k++
				}
				elem += " " + strings.ToLower(s[j:k])
				j = k
				if j < len(s) && s[j] == '=' {
					j++
					if j < len(s) && (s[j] == '"' || s[j] == '\'') {
						q := s[j]
						end := strings.IndexByte(s[j+1:], q)
						if end < 0 {
							return m
						}
						j += 1 + end + 1
					} else {
						for j < len(s) && !strings.ContainsRune(" \t\n\f\r>", rune(s[j])) {
							j++
						}
					}
				}
			}
			m.elements = append(m.elements, elem)
			i = j + 1
			if name == "script" || name == "style" {
				end := strings.Index(lower[i:], "</"+name)
				if end < 0 {
					end = len(s) - i
				}
				if name == "script" {
					m.scripts = append(m.scripts, s[i:i+end])
				}
				i += end
			}
		default:
			i++
		}
	}
	return m
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// codeOutsideStrings returns the index of the first occurrence of needle in
// js that is not inside a '…' or "…" string literal, or -1. Our scripts
// (the templates, the program's JS functions and the JSON option) use no
// regular-expression or template literals and no comments.
func codeOutsideStrings(js, needle string) int {
	var quote byte
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case strings.HasPrefix(js[i:], needle):
			return i
		}
	}
	return -1
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return "element " + a[i] + " became " + b[i]
		}
	}
	return "different numbers of elements"
}

// TestInjectionExploreLabels checks Explore's control labels: the label
// HTML (which GoNB also embeds in a script string) and the script that
// updates a label's text.
func TestInjectionExploreLabels(t *testing.T) {
	base := parseMarkup(controlLabelHTML("plain", "sodw_label_x", "plain"))
	for _, payload := range injectionPayloads {
		h := controlLabelHTML(payload, "sodw_label_x", payload)
		if doc := parseMarkup(h); !slices.Equal(doc.elements, base.elements) || doc.comments != 0 {
			t.Errorf("label %q: elements %q, %d comments; want %q", payload, doc.elements, doc.comments, base.elements)
		}
		if m := scriptSpecial.FindString(h); m != "" || strings.Contains(h, "<img") {
			t.Errorf("label %q: markup holds %q", payload, h)
		}
		js := setTextJS("sodw_label_x", payload)
		doc := parseMarkup("<script>" + js + "</script>")
		if len(doc.elements) != 1 || len(doc.scripts) != 1 || doc.scripts[0] != js || scriptSpecial.MatchString(js) {
			t.Errorf("label update %q: script %q parsed as %q", payload, js, doc.elements)
		}
		if at := codeOutsideStrings(js, "__pwned"); at >= 0 {
			t.Errorf("label update %q: __pwned outside a string literal in %s", payload, js)
		}
	}
}

// TestInjectionProgressBar checks the progress bar's title and note.
func TestInjectionProgressBar(t *testing.T) {
	markupOf := func(text string) markup {
		p, err := NewProgressBar(text, 10)
		if err != nil {
			t.Fatal(err)
		}
		return parseMarkup(p.html(3, text, 2*time.Second))
	}
	base := markupOf("plain")
	for _, payload := range injectionPayloads {
		if doc := markupOf(payload); !slices.Equal(doc.elements, base.elements) || doc.comments != 0 || len(doc.scripts) != 0 {
			t.Errorf("progress bar %q: elements %q, %d comments", payload, doc.elements, doc.comments)
		}
	}
}
