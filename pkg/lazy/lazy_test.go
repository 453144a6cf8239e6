package lazy

import "testing"

// A value is built once, on first use, and a regexp compiled the same way.
func TestBuiltOnFirstUse(t *testing.T) {
	built := 0
	v := &Value[int]{Build: func() int { built++; return 42 }}
	if built != 0 {
		t.Fatal("built before use")
	}
	a, b := v.Get(), v.Get()
	if a != 42 || b != 42 || built != 1 {
		t.Fatalf("built %d times", built)
	}
	r := RE(`^a+b$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	first := r.Get()
	if !first.MatchString("aab") || r.Get() != first {
		t.Fatal("regexp: not compiled once")
	}
}
