package lazy

import "testing"

// A value is built once, on first use, and a regexp compiled the same way.
func TestBuiltOnFirstUse(t *testing.T) {
	built := 0
	v := &Value[int]{Build: func() int { built++; return 42 }}
	if built != 0 {
		t.Fatal("built before use")
	}
	if v.Get() != 42 || v.Get() != 42 || built != 1 {
		t.Fatalf("built %d times", built)
	}
	r := RE(`^a+b$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	if !r.Get().MatchString("aab") || r.Get() != r.Get() {
		t.Fatal("regexp")
	}
}
