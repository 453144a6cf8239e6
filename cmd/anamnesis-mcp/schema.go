package main

import "strings"

// Output schemas, written out by hand so they say exactly what the results
// hold (the tests check every result against them). Clients such as the
// TypeScript SDK validate structured content against these.

const noteProps = `"id":{"type":"string"},` +
	`"type":{"type":"string","enum":["procedural","semantic","episodic"]},` +
	`"title":{"type":"string"},` +
	`"project":{"type":"string"},` +
	`"machine_id":{"type":"string","description":"the machine the note was written on"},` +
	`"scope":{"type":"string","enum":["portable","machine-local"]},` +
	`"tags":{"type":"array","items":{"type":"string"}},` +
	`"created_at":{"type":"string"},` +
	`"updated_at":{"type":"string"},` +
	`"prov_source":{"type":"string"},` +
	`"confidence":{"type":"number"},` +
	`"supersedes":{"type":"array","items":{"type":"string"}}`

const noteRequired = `"id","type","title","project","machine_id","scope","tags","created_at","updated_at","prov_source","confidence","supersedes"`

const bodyProp = `"body":{"type":"string"}`

const nextOffset = `"next_offset":{"type":["integer","null"],"description":"where the next page starts; null when there is no more"}`

const pageProps = `"page":{"type":"object","properties":{` +
	`"offset":{"type":"integer"},"chars":{"type":"integer"},"total_chars":{"type":"integer"},` + nextOffset +
	`,"hint":{"type":"string"}},"required":["offset","chars","total_chars","next_offset"]}`

// noteSchema is one note, with body when withBody, plus extra properties.
func noteSchema(withBody bool, extra string) string {
	props, req := noteProps, noteRequired
	if withBody {
		props += "," + bodyProp
		req += `,"body"`
	}
	if extra != "" {
		props += "," + extra
		req += `,"` + extra[1:strings.Index(extra[1:], `"`)+1] + `"`
	}
	return `{"type":"object","properties":{` + props + `},"required":[` + req + `]}`
}

// listSchema is a list of notes under "result"; paged adds the paging fields.
func listSchema(withBody, paged bool) string {
	props := `"result":{"type":"array","items":` + noteSchema(withBody, "") + `},"hint":{"type":"string"}`
	req := `"result"`
	if paged {
		props += `,"offset":{"type":"integer"},"total":{"type":"integer"},` + nextOffset
		req += `,"offset","total","next_offset"`
	}
	return `{"type":"object","properties":{` + props + `},"required":[` + req + `]}`
}

const counts = `{"type":"object","additionalProperties":{"type":"integer"}}`

const syncStateSchema = `{"type":"object","properties":{` +
	`"initialized":{"type":"boolean"},"remote":{"type":["string","null"]},"head":{"type":["string","null"]},` +
	`"dirty":{"type":"boolean"},"detail":{"type":"string"},` +
	`"unpushed":{"type":"integer","description":"local commits the remote lacks (as last fetched)"},` +
	`"last_sync":{"type":"object","description":"what the most recent sync of this home reported"}},` +
	`"required":["initialized","remote","head","dirty","detail","unpushed"]}`

const statusSchema = `{"type":"object","properties":{` +
	`"root":{"type":"string"},"db_path":{"type":"string"},"total":{"type":"integer"},` +
	`"by_type":` + counts + `,"by_project":` + counts + `,"by_scope":` + counts + `,` +
	`"sync":` + syncStateSchema + `,` +
	`"machine_id":{"type":"string","description":"this server's machine id, stamped on every note it writes"},` +
	`"by_machine":` + counts + `,"unreadable":{"type":"integer"},` +
	`"problems":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"reason":{"type":"string"}},"required":["path","reason"]}}},` +
	`"required":["root","db_path","total","by_type","by_project","by_scope","sync","machine_id","by_machine","unreadable","problems"]}`

const syncSchema = `{"type":"object","properties":{` +
	`"pushed":{"type":"boolean"},"pulled":{"type":"integer"},"conflicted":{"type":"boolean"},` +
	`"head":{"type":"string"},"indexed":{"type":"integer","description":"notes in the index after the sync"},` +
	`"detail":{"type":"string"},"committed":{"type":"boolean","description":"local notes were committed"},` +
	`"reindexed":{"type":"integer","description":"note files the index re-read"},` +
	`"skipped":{"type":"boolean","description":"another sync of this home was running; nothing was done"},` +
	`"conflicts":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"copy_id":{"type":"string"},"kind":{"type":"string"}},"required":["id","kind"]}},` +
	`"import":{"type":"string","description":"what the Claude Code native memory import did"}},` +
	`"required":["pushed","pulled","conflicted","head","indexed","detail","committed","reindexed","skipped","conflicts"]}`
