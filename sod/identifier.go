package sod

import "fmt"

// MaxIdentifierLen is the longest identifier CheckIdentifier accepts.
const MaxIdentifierLen = 64

// CheckIdentifier is the one rule for the names that may become part of a
// file name or a file's key: exercise ids ("07.1"), result and table names
// of sod/experiments, and the benchmark's family and method names. It
// returns an error wrapping ErrBadParameter, naming what and s, unless s
// has 1 to MaxIdentifierLen characters, all ASCII letters, digits, '.',
// '_', '-' or '+', starts with a letter or a digit and holds no "..": such
// a name is never a path (no '/', '\\', no "." or ".."), never hidden, never an
// option ("-x") and needs no quoting in a shell, CSV or Markdown.
func CheckIdentifier(what, s string) error {
	bad := len(s) == 0 || len(s) > MaxIdentifierLen || !alnum(s[0])
	for i := 0; i < len(s) && !bad; i++ {
		c := s[i]
		bad = !(alnum(c) || c == '.' || c == '_' || c == '-' || c == '+') || (c == '.' && i > 0 && s[i-1] == '.')
	}
	if bad {
		return fmt.Errorf("%w: %s %q: want 1 to %d ASCII letters, digits, '.', '_', '-' or '+', starting with a letter or digit, without \"..\"", ErrBadParameter, what, s, MaxIdentifierLen)
	}
	return nil
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
