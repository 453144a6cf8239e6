// Command sqlfloor is the hook bench's SQLite floor: it opens an index as a
// hook's reader does and runs one FTS5 search for a word within a
// project's notes (its rowid range, as recall's search reads them),
// reading the six best notes' titles and bodies. What it costs over the
// hello-world floor, any hook that keeps its index in SQLite through this
// driver pays before doing any work of its own.
//
// usage: sqlfloor INDEX WORD PROJECT
package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sqlfloor:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: sqlfloor INDEX WORD PROJECT")
	}
	// The DSN of pkg/store's readers.
	db, err := sql.Open("sqlite", "file:"+args[0]+"?_pragma=busy_timeout(5000)&_pragma=mmap_size(2147418112)")
	if err != nil {
		return err
	}
	rows, err := db.Query(`SELECT title, body FROM memories_fts WHERE memories_fts MATCH ?1
		AND rowid BETWEEN (SELECT slot << 32 FROM project_slots WHERE project = ?2) AND (SELECT slot << 32 FROM project_slots WHERE project = ?2) + 4294967295
		ORDER BY bm25(memories_fts) LIMIT 6`, `"`+args[1]+`"`, args[2])
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var title, body string
		if err := rows.Scan(&title, &body); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no note of %s holds %q", args[2], args[1])
	}
	fmt.Println(n)
	return nil
}
