package sod

// EscaperParams lists the settings of esc for a results table or file:
// key → value text of every entry of its table (Configurable.Params),
// read back from the escaper itself, so that a listing cannot drift from
// the values that run. A field at zero lists its default (the zero value
// of every built-in escaper is its documented default), so equal
// configurations list equally however they were written; an entry with
// no value (a nil list whose default Doc describes) is left out. Values
// are in the form Configure parses: floats in the shortest exact form
// without the exponent's '+' ("1e6"), integers in decimal, bools as
// "true"/"false", kinds as "beta"/"gamma", lists joined by '_'. An
// escaper without a table (EscapeFunc's, one written in a notebook) gives
// an empty map. The map is never nil.
func EscaperParams(esc Escaper) map[string]string {
	out := map[string]string{}
	c, ok := esc.(Configurable)
	if !ok || esc == nil {
		return out
	}
	for _, s := range c.Params() {
		if v := s.Value(); v != "" {
			out[s.Key] = v
		}
	}
	return out
}
