package widgets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"reflect"
	"regexp"
	"strings"

	"github.com/go-echarts/go-echarts/v2/types"

	"sodworkbench.org/workbench/sod/quote"
)

// Caller text (titles, series and axis names, legend entries, table cells,
// control labels, page titles) reaches the browser in two contexts, and each
// has one escaper here, used by every widget:
//
//   - HTML element content and quoted attribute values: escapeHTML
//     (quote.HTMLText).
//   - JavaScript inside a <script> element: jsString for one string (an
//     Explore label), scriptJSON for a chart's ECharts option. Both encode
//     as JSON with <, > and & written as \u003c, \u003e, \u0026 (so no
//     "</script>" or "<!--" can end or disturb the script element);
//     scriptJSON inserts as code only the option values whose Go type is
//     go-echarts' types.FuncStr (JavaScript written by the program, never
//     text taken from data).
//
// go-echarts' own renderer does neither: it encodes the option with HTML
// escaping switched off and then deletes every "__f__" marker from the
// whole script, so a title containing "</script>" ends the script element
// and a title of the form "__f__code__f__" runs as code. fragment therefore
// replaces the option go-echarts wrote by scriptJSON's.

// escapeHTML escapes s for HTML element content or a quoted attribute value
// (&, <, >, " and '): quote.HTMLText, the workbench's one HTML escaper.
func escapeHTML(s string) string { return quote.HTMLText(s) }

// jsString returns s as a JavaScript string literal that is safe inside a
// <script> element: JSON-quoted, with <, >, &, U+2028 and U+2029 escaped.
func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil { // a string always encodes
		panic(err)
	}
	return string(b)
}

// funcMarker is the marker go-echarts puts around a types.FuncStr.
const funcMarker = "__f__"

// goechartsMarkers is the pattern go-echarts deletes from its rendered
// output (render.pat in go-echarts v2.6.7).
var goechartsMarkers = regexp.MustCompile(`(__f__")|("__f__)|(__f__)`)

// scriptSpecial matches the sequences that change how an HTML parser reads
// the text of a <script> element ("<!--", "<script", "</script", any case).
var scriptSpecial = regexp.MustCompile(`(?i)<(!--|/?script)`)

// scriptSafeCode makes program-written JavaScript safe inside a <script>
// element, as the HTML standard advises: "<!--", "<script" and "</script"
// can only occur in its literals, where "\x3C" reads as "<".
func scriptSafeCode(js string) string {
	return scriptSpecial.ReplaceAllString(js, `\x3C$1`)
}

// scriptJSON encodes v as a JavaScript expression safe inside a <script>
// element: JSON with HTML escaping (strings can never contain a raw <, >
// or &), where every string equal to a types.FuncStr value held in v is
// replaced by that function's code (without go-echarts' markers).
func scriptJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // SetEscapeHTML(true) is the default
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("widgets: the chart's option could not be encoded to JSON: %w", err)
	}
	funcs := map[string]bool{}
	collectFuncs(reflect.ValueOf(v), funcs, map[uintptr]bool{}, 0)
	src := bytes.TrimRight(buf.Bytes(), "\n")
	if len(funcs) == 0 {
		return string(src), nil
	}
	var out strings.Builder
	for i := 0; i < len(src); {
		if src[i] != '"' {
			out.WriteByte(src[i])
			i++
			continue
		}
		j := i + 1
		for j < len(src) && src[j] != '"' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(src) {
			return "", fmt.Errorf("widgets: unterminated string in the chart's JSON option")
		}
		lit := src[i : j+1]
		var s string
		if err := json.Unmarshal(lit, &s); err == nil && funcs[s] {
			out.WriteString(scriptSafeCode(strings.TrimSuffix(strings.TrimPrefix(s, funcMarker), funcMarker)))
		} else {
			out.Write(lit)
		}
		i = j + 1
	}
	return out.String(), nil
}

// collectFuncs records every types.FuncStr reachable from v (maps, slices,
// arrays, pointers, interfaces and exported struct fields).
func collectFuncs(v reflect.Value, funcs map[string]bool, seen map[uintptr]bool, depth int) {
	if !v.IsValid() || depth > 64 {
		return
	}
	funcType := reflect.TypeFor[types.FuncStr]()
	switch v.Kind() {
	case reflect.String:
		if v.Type() == funcType {
			funcs[v.String()] = true
		}
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		collectFuncs(v.Elem(), funcs, seen, depth+1)
	case reflect.Interface:
		collectFuncs(v.Elem(), funcs, seen, depth+1)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return
		}
		if t := v.Type().Elem(); t.Kind() <= reflect.Complex128 { // numbers and bools
			return
		}
		for i := 0; i < v.Len(); i++ {
			collectFuncs(v.Index(i), funcs, seen, depth+1)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			collectFuncs(it.Value(), funcs, seen, depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collectFuncs(v.Field(i), funcs, seen, depth+1)
			}
		}
	}
}

// optionSource is implemented by every go-echarts chart (through its
// embedded BaseConfiguration).
type optionSource interface {
	JSON() map[string]any
	JSONNotEscaped() template.HTML
}

// safeOptionScript replaces, in go-echarts' chart script body, the option
// go-echarts wrote by scriptJSON's encoding of the same option. It fails
// (rather than emit an unsafe script) if the option cannot be found.
func safeOptionScript(src optionSource, body string) (string, error) {
	theirs := strings.TrimRight(goechartsMarkers.ReplaceAllString(string(src.JSONNotEscaped()), ""), "\n")
	if strings.TrimSpace(theirs) == "" || strings.TrimSpace(theirs) == "null" {
		return "", fmt.Errorf("widgets: the chart's option could not be encoded to JSON (NaN or ±Inf in its data?)")
	}
	if n := strings.Count(body, theirs); n != 1 {
		return "", fmt.Errorf("widgets: go-echarts' chart script holds its option %d times, expected once", n)
	}
	ours, err := scriptJSON(src.JSON())
	if err != nil {
		return "", err
	}
	return strings.Replace(body, theirs, ours, 1), nil
}
