package note

import "testing"

// An unknown key may alias an anchor set on a known key. Known keys are
// written back without their anchors, so the alias must not be left dangling:
// a rewritten note that cannot be read again drops out of the index.
func TestRewriteKeepsAliasesReadable(t *testing.T) {
	src := "---\nid: A1\ntype: semantic\ntitle: &t hello\nproject: &p global\ntags: &tg [a, b]\n" +
		"x_list: [*p, *t]\nx_map: {k: *tg}\nx_plain: *t\n---\nbody\n"
	n, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := n.Marshal()
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("rewritten note does not parse: %v\n%s", err, out)
	}
	if back.Title != "hello" || back.Project != "global" || len(back.ExtraKeys()) != 3 {
		t.Fatalf("rewritten note changed: %+v keys %v", back, back.ExtraKeys())
	}
	if _, err := Parse(back.Marshal()); err != nil {
		t.Fatalf("second rewrite does not parse: %v", err)
	}
}

// Many aliases to a big anchored known value are not expanded on rewrite.
func TestRewriteAliasesNotExpanded(t *testing.T) {
	b := []byte("---\nid: A2\ntype: semantic\ntitle: t\ntags: &a [")
	for i := range 4000 {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, 'x')
	}
	b = append(b, "]\nx: ["...)
	for i := range 4000 {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "*a"...)
	}
	b = append(b, "]\n---\nbody\n"...)
	n, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	out := n.Marshal()
	if len(out) > 2*len(b) {
		t.Fatalf("rewrite grew from %d to %d bytes", len(b), len(out))
	}
	if _, err := Parse(out); err != nil {
		t.Fatalf("rewritten note does not parse: %v", err)
	}
}
