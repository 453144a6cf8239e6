// Package lazy holds package-level values built on first use. A hook links
// the screen's and the redactor's hundreds of rules and word tables and
// most of its runs use none of them: built at init, every process would
// pay for them at its start. A package-level var made by RE (inlined) or
// as a &Value{Build: ...} literal is laid out by the compiler: nothing runs
// at init.
package lazy

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on its first use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// RE returns expr, to be compiled on first use (it panics then if expr
// does not compile, as regexp.MustCompile does).
func RE(expr string) *Regexp { return &Regexp{expr: expr} }

// Get returns the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// Value is a value, a table of words most often, that Build makes on its
// first use.
type Value[T any] struct {
	Build func() T
	once  sync.Once
	v     T
}

// Get returns the value.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.Build() })
	return l.v
}
