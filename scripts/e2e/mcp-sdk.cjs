// anamnesis-mcp driven by the official TypeScript MCP client
// (@modelcontextprotocol/sdk, StdioClientTransport). Run by mcp-sdk.sh:
//
//   node mcp-sdk.cjs SDK_DIR ANAMNESIS_MCP WORK_DIR
//
// The SDK validates every structuredContent against the tool's outputSchema,
// so each successful call here also checks the declared result shapes.
'use strict';

const path = require('node:path');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { createRequire } = require('node:module');

const [sdkDir, bin, work] = process.argv.slice(2);
if (!sdkDir || !bin || !work) {
  console.error('usage: node mcp-sdk.cjs SDK_DIR ANAMNESIS_MCP WORK_DIR');
  process.exit(2);
}
const sdk = createRequire(path.join(sdkDir, 'package.json'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = sdk('@modelcontextprotocol/sdk/client/stdio.js');

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail === undefined ? '' : ': ' + detail}`);
  }
}

async function connect(home, machine, remote) {
  const transport = new StdioClientTransport({
    command: bin,
    args: [],
    env: {
      PATH: process.env.PATH || '/usr/bin:/bin',
      HOME: process.env.HOME || work,
      ANAMNESIS_HOME: home,
      ANAMNESIS_MACHINE_ID: machine,
      ANAMNESIS_GIT_REMOTE: remote || '',
      ANAMNESIS_IMPORT_NATIVE: '0',
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (b) => { stderr += b; });
  const client = new Client({ name: 'anamnesis-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args || {} });
  if (res.isError) {
    throw new Error(`${name} returned a tool error: ${res.content.map((c) => c.text).join('')}`);
  }
  const text = JSON.parse(res.content[0].text);
  if (JSON.stringify(text) !== JSON.stringify(res.structuredContent)) {
    throw new Error(`${name}: JSON text and structuredContent differ`);
  }
  if (res.content[0].text.length > 40000) {
    throw new Error(`${name}: result is ${res.content[0].text.length} characters, over 40,000`);
  }
  return res.structuredContent;
}

// The seed's annotations, with all four hints set.
const wantTools = {
  memory_get: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  memory_list: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  memory_search: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  memory_status: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  memory_sync: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  memory_write: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

async function session() {
  const home = path.join(work, 'home');
  const remote = path.join(work, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const { client, stderr } = await connect(home, 'e2e-ts', remote);
  try {
    const server = client.getServerVersion();
    check('server is named anamnesis', server && server.name === 'anamnesis', JSON.stringify(server));
    const instructions = client.getInstructions() || '';
    check('instructions say when to search and when to write',
      instructions.includes('When to search') && instructions.includes('When to write'));

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    check('tools/list has exactly the six tools', JSON.stringify(names) === JSON.stringify(Object.keys(wantTools).sort()), names.join(','));
    for (const t of tools) {
      const want = wantTools[t.name];
      const a = t.annotations || {};
      const got = { readOnlyHint: a.readOnlyHint, destructiveHint: a.destructiveHint, idempotentHint: a.idempotentHint, openWorldHint: a.openWorldHint };
      check(`${t.name} annotations and title`, want && JSON.stringify(got) === JSON.stringify(want) && !!t.title && a.title === t.title,
        JSON.stringify(t.annotations));
      check(`${t.name} declares an output schema`, t.outputSchema && t.outputSchema.type === 'object');
    }

    const w = await call(client, 'memory_write', {
      type: 'procedural', title: 'Rotate the staging keys', body: 'Run make rotate-keys, then restart the quokka service.',
      project: 'e2e', tags: ['ops'],
    });
    check('memory_write binds the machine id and defaults', w.machine_id === 'e2e-ts' && w.scope === 'portable' && w.prov_source === 'human',
      JSON.stringify(w));
    const s = await call(client, 'memory_search', { query: 'quokka restart', k: 5 });
    check('memory_search finds the note with its body', s.result.length === 1 && s.result[0].id === w.id && s.result[0].body.includes('quokka'),
      JSON.stringify(s));
    const g = await call(client, 'memory_get', { id: w.id });
    check('memory_get returns the body', g.body === 'Run make rotate-keys, then restart the quokka service.' && g.page.next_offset === null,
      JSON.stringify(g));
    const l = await call(client, 'memory_list', { project: 'e2e', limit: 10 });
    check('memory_list lists it without a body', l.total === 1 && l.result[0].id === w.id && !('body' in l.result[0]), JSON.stringify(l));
    const st = await call(client, 'memory_status');
    check('memory_status counts it', st.total === 1 && st.by_project.e2e === 1 && st.machine_id === 'e2e-ts', JSON.stringify(st));
    const sy = await call(client, 'memory_sync');
    check('memory_sync pushes to the remote', sy.pushed === true && sy.conflicted === false && sy.indexed === 1, JSON.stringify(sy));
    const pushed = execFileSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', 'main']).toString();
    check('the remote holds the note', pushed.includes(`${w.id}.md`), pushed);
    const st2 = await call(client, 'memory_status');
    check('memory_status shows the sync', st2.sync.initialized === true && st2.sync.remote === remote && st2.sync.dirty === false,
      JSON.stringify(st2.sync));

    const bad = await client.callTool({ name: 'memory_search', arguments: { query: 'x', k: 0 } });
    check('a bad argument is a tool error naming what is allowed', bad.isError === true && /1 to 50/.test(bad.content[0].text),
      JSON.stringify(bad));
    const bad2 = await client.callTool({ name: 'memory_write', arguments: { type: 'fact', title: 'x', body: 'y' } });
    check('an unknown type is a tool error', bad2.isError === true && /procedural, semantic, episodic/.test(bad2.content[0].text),
      JSON.stringify(bad2));
    const missing = await client.callTool({ name: 'memory_get', arguments: { id: '01JZ00000000000000000NOPE0' } });
    check('an unknown note is a tool error naming it', missing.isError === true && missing.content[0].text.includes('01JZ00000000000000000NOPE0'));
    const after = await call(client, 'memory_list', {});
    check('the server keeps serving after errors', after.total === 1);
  } catch (e) {
    check('session', false, `${e.stack || e}\nserver stderr:\n${stderr()}`);
  } finally {
    await client.close();
  }
}

// Ten clients, ten server processes, one home: every note lands.
async function ten() {
  const home = path.join(work, 'shared-home');
  const clients = 10;
  const perClient = 20;
  const conns = await Promise.all(Array.from({ length: clients }, (_, i) => connect(home, `m${i}`, '')));
  const errors = [];
  const started = Date.now();
  await Promise.all(conns.map(async ({ client }, i) => {
    await Promise.all(Array.from({ length: perClient }, async (_, j) => {
      const tok = `c${i}n${j}tok`;
      try {
        await call(client, 'memory_write', { type: 'semantic', title: `note ${tok}`, body: `${tok} from client ${i}` });
        const s = await call(client, 'memory_search', { query: tok });
        if (s.result.length !== 1) errors.push(`${tok}: search found ${s.result.length}`);
      } catch (e) {
        errors.push(String(e));
      }
    }));
  }));
  const ms = Date.now() - started;
  check(`ten clients wrote and searched ${clients * perClient} notes at once without errors (${ms} ms)`, errors.length === 0,
    errors.slice(0, 5).join('\n'));
  const l = await call(conns[0].client, 'memory_list', { limit: 1 });
  check('the index holds every note', l.total === clients * perClient, `total ${l.total}`);
  let files = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.endsWith('.md')) files++;
    }
  };
  walk(path.join(home, 'memory'));
  check('every note is on disk', files === clients * perClient, `${files} files`);
  const locked = conns.filter((c) => /locked/i.test(c.stderr()));
  check('no server logged a locked database', locked.length === 0, locked.map((c) => c.stderr()).join('\n'));
  await Promise.all(conns.map((c) => c.client.close()));
}

(async () => {
  await session();
  await ten();
  console.log(`mcp-e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
})().catch((e) => {
  console.error(e);
  console.log(`mcp-e2e: ${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
