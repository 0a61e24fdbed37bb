package widgets

// What the external tests (static_injection_test.go, which imports
// widgets/plots and so cannot live in package widgets) use of the
// injection tests.
var (
	InjectionPayloads = injectionPayloads
	FirstDiff         = firstDiff
)

// SVGMarkup parses s as the injection tests parse HTML and returns its
// elements (start tags with their attribute names), its number of comments
// and its number of script elements.
func SVGMarkup(s string) (elements []string, comments, scripts int) {
	m := parseMarkup(s)
	return m.elements, m.comments, len(m.scripts)
}
