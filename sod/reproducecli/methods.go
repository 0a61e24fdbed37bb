package reproducecli

import (
	"context"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
)

// methodsKey is the context key of the methods given to Run (Main).
type methodsKey struct{}

// withMethods returns ctx carrying the user's methods to the bench
// subcommand (the subcommands share one signature).
func withMethods(ctx context.Context, ms []escapebench.Method) context.Context {
	if len(ms) == 0 {
		return ctx
	}
	return context.WithValue(ctx, methodsKey{}, slices.Clone(ms))
}

// methodsFrom returns the methods given to Run.
func methodsFrom(ctx context.Context) []escapebench.Method {
	ms, _ := ctx.Value(methodsKey{}).([]escapebench.Method)
	return ms
}

// addUserMethods appends the names of the user's methods to spec's (a
// profile's) methods, each once: a method given to Main runs in every
// profile without being named again.
func addUserMethods(spec *escapebench.Spec, ms []escapebench.Method) {
	for _, m := range ms {
		if !slices.Contains(spec.Methods, m.Name) {
			spec.Methods = append(spec.Methods, m.Name)
		}
	}
}

// checkMethodIn is checkMethod that also knows the user's methods (a
// name whose base, before any '+', is one of theirs).
func checkMethodIn(ms []escapebench.Method) func(string) (string, error) {
	return func(s string) (string, error) {
		base, _, _ := strings.Cut(s, "+")
		for _, m := range ms {
			if m.Name == base {
				r, err := escapebench.ResolveMethod(s, ms...)
				return r.Name, err
			}
		}
		return checkMethod(s)
	}
}
