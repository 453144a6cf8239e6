package store

import (
	"context"
	"database/sql"
	"errors"
)

// The full-text index keeps its postings in segments on levels, newest
// lowest. FTS5 merges the segments of a level once it holds four of them
// (automerge, a few pages per write, and all of them at once when a level
// holds sixteen), and a merge's output goes one level up. A full rebuild
// leaves one large segment on level 0 or 1 (mergeLoadedFTS), where the
// small segments later writes make reach it within a few dozen writes: from
// then on one write in a few hundred rewrote the whole index inside whichever
// process wrote, a hook's included, at a cost that grows with the store
// (docs/performance.md). So the large segment is kept on liftLevel, above
// the levels writes fill: small segments reach it only after about
// 4^liftLevel writes.
const liftLevel = 8

// structureRowid is the row of memories_fts_data holding FTS5's structure
// record.
const structureRowid = 10

// structure is FTS5's structure record (fts5_index.c, fts5StructureWrite):
// a 4-byte configuration cookie, then varints nLevel, nSegment and the
// write counter, and per level the number of its segments being merged,
// the number of segments, and each segment's id, first and last page,
// oldest first.
type structure struct {
	cookie [4]byte
	writes uint64
	levels []segLevel
}

type segLevel struct {
	merging uint64
	segs    []segment
}

type segment struct{ id, first, last uint64 }

func (g segment) pages() uint64 { return g.last - g.first + 1 }

var errStructure = errors.New("not a structure record this code reads")

// parseStructure reads a structure record. The second version of the
// record (tombstones, contentless deletes) is refused: this index never
// writes one.
func parseStructure(b []byte) (structure, error) {
	var s structure
	if len(b) < 5 || b[4] == 0xff {
		return s, errStructure
	}
	copy(s.cookie[:], b)
	b = b[4:]
	bad := false
	next := func() uint64 {
		v, n := getVarint(b)
		if n == 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	nLevel, nSeg := next(), next()
	s.writes = next()
	if bad || nLevel > 64 || nSeg > 2000 {
		return s, errStructure
	}
	total := uint64(0)
	for range nLevel {
		l := segLevel{merging: next()}
		n := next()
		if bad || n > nSeg || l.merging > n {
			return s, errStructure
		}
		for range n {
			l.segs = append(l.segs, segment{id: next(), first: next(), last: next()})
		}
		total += n
		s.levels = append(s.levels, l)
	}
	if bad || len(b) != 0 || total != nSeg {
		return s, errStructure
	}
	return s, nil
}

func (s structure) encode() []byte {
	b := append([]byte(nil), s.cookie[:]...)
	n := 0
	for _, l := range s.levels {
		n += len(l.segs)
	}
	b = putVarint(b, uint64(len(s.levels)))
	b = putVarint(b, uint64(n))
	b = putVarint(b, s.writes)
	for _, l := range s.levels {
		b = putVarint(b, l.merging)
		b = putVarint(b, uint64(len(l.segs)))
		for _, g := range l.segs {
			b = putVarint(b, g.id)
			b = putVarint(b, g.first)
			b = putVarint(b, g.last)
		}
	}
	return b
}

// lifted is s with its large segment moved up to liftLevel, and whether
// that was done. Only a segment that holds four times the pages of all the
// others together moves, and only the oldest segment of the top level,
// with no merge under way anywhere: a level's segments are older than
// those of every level below it, and moving that one up keeps that order.
func (s structure) lifted() (structure, bool) {
	top := len(s.levels) - 1
	for top >= 0 && len(s.levels[top].segs) == 0 {
		top--
	}
	if top < 0 || top >= liftLevel {
		return s, false
	}
	big := s.levels[top].segs[0]
	var rest uint64
	for _, l := range s.levels {
		if l.merging > 0 {
			return s, false
		}
		for _, g := range l.segs {
			rest += g.pages()
		}
	}
	rest -= big.pages()
	if big.pages() < 4*rest {
		return s, false
	}
	out := s
	out.levels = make([]segLevel, liftLevel+1)
	copy(out.levels, s.levels)
	out.levels[top].segs = s.levels[top].segs[1:]
	out.levels[liftLevel] = segLevel{segs: []segment{big}}
	return out, true
}

// lift moves the index's large segment up to liftLevel when it is below
// (lifted says when), in a transaction of its own on a connection of its
// own: FTS5 keeps the structure it last read on each connection and reads
// it again only once another connection has committed (PRAGMA
// data_version), so a connection that changed the record itself would go
// on from its old copy. Only the record changes, never a segment, and a
// record FTS5 later writes from an old copy still names the same segments:
// the move is then undone, never the index damaged, and the next writer's
// Open makes it again.
func (s *Store) lift(ctx context.Context) error {
	db, err := sql.Open("sqlite", dsn(s.DBPath(), false))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := beginOn(ctx, db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rec []byte
	if err := tx.QueryRowContext(ctx, "SELECT block FROM memories_fts_data WHERE id = ?", structureRowid).Scan(&rec); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil // no write has reached the full-text index yet
		}
		return err
	}
	st, err := parseStructure(rec)
	if err != nil {
		return nil // left to FTS5's own merging
	}
	up, ok := st.lifted()
	if !ok {
		return nil // another writer lifted it, or wrote since
	}
	if _, err := tx.ExecContext(ctx, "UPDATE memories_fts_data SET block = ? WHERE id = ?", up.encode(), structureRowid); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// Commands exit without Close: leave no WAL for the next process to
	// read back (a rebuild's own is copied before this runs).
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// needsLift reports whether the structure record rec has a segment to lift.
func needsLift(rec []byte) bool {
	s, err := parseStructure(rec)
	if err != nil {
		return false
	}
	_, ok := s.lifted()
	return ok
}

// getVarint reads SQLite's big-endian varint of up to eight bytes (seven
// bits each); n is 0 when b ends first or the value needs the ninth byte,
// which no count or page number of this index reaches.
func getVarint(b []byte) (v uint64, n int) {
	for i := range min(len(b), 8) {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// putVarint appends v (below 1<<56, as getVarint reads) as SQLite's varint.
func putVarint(b []byte, v uint64) []byte {
	var tmp [8]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v > 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// tidyPages bounds the merging one Tidy does: 64 pages, 1 MiB at 16 KiB.
const tidyPages = 64

// Tidy merges the full-text index's small segments as FTS5's automerge
// would, without waiting for it. Automerge works once per 64 leaf pages
// written, so the one-page segments of single writes pile up on level 0
// in between (up to crisismerge's 16), and every term of every search
// seeks each of them. Tidy does at most tidyPages pages of merging and,
// like automerge, merges only a level holding four segments or more, so
// the large segment on liftLevel stays where it is. Then it copies the
// write-ahead log into the database (a passive checkpoint, which waits for
// no reader): else the writer whose commit takes the log past SQLite's
// limit copies it, and that may be the next capture, on the user's
// terminal. It also screens again the notes indexed under older rules of
// the screen (rescreenAll), a few seconds' worth a call. It is for the
// background work that follows writes (capture's detached child, a sync),
// never a hook's foreground.
func (s *Store) Tidy(ctx context.Context) error {
	if err := s.rescreenAll(ctx); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, ftsConfig("merge", tidyPages)); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	return err
}
