// Expectations, verify, the journal's body filters and wait, settings, and setup() under node:test, Jest and
// Vitest (tools/dist/check runs it with node --test; RUNNER_MODULES names a node_modules with jest and vitest).
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { start, NewsmockError, VerifyError } = require('@newssearch/newsmock');

let mock;
before(async () => { mock = await start({ args: ['-world-per-key', '-log-level', 'warn'] }); });
after(() => mock && mock.stop());

async function api(endpoint, body) {
  const res = await fetch(`${mock.url}/api/v2/${endpoint}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, answer: await res.json() };
}

test('expect, verify and its check', async () => {
  const world = mock.world('expect-key');
  assert.equal((await world.verify()).met, true);
  assert.deepEqual(await world.expect({ endpoint: 'query', body: { query: 'storm', page: 2 }, min: 1, max: 2 }),
    [{ endpoint: 'query', body: { query: 'storm', page: '2' }, min: 1, max: 2, count: 0 }]);
  assert.equal((await world.expect([{ endpoint: 'headlines', times: 0 }])).length, 2);
  await api('query', { api_key: 'expect-key', query: 'storm', page: 1 });
  const result = await world.verify();
  assert.deepEqual([result.met, result.unmet.length, result.unexpected_count], [false, 1, 1]);
  await assert.rejects(world.verify({ check: true }), (err) => err instanceof VerifyError &&
    /expected query with \{"page":"2","query":"storm"\} 1 to 2 times, got 0; closest:/.test(err.message) &&
    err.result.unmet[0].closest[0].body.page === 1);
  assert.deepEqual(await world.clearExpectations(), []);
  assert.deepEqual(await world.expectations(), []);
  assert.equal((await world.verify({ check: true })).met, true); // the unexpected request went with them
  await assert.rejects(world.expect({ endpoint: 'query', min: 3, max: 1 }),
    (err) => err instanceof NewsmockError && err.status === 400 && /expectation 0: min 3 and max 1/.test(err.message));
});

test('the journal by body members, with count and wait', async () => {
  const world = mock.world('journal-key');
  for (const body of [{ query: 'storm', page: 2 }, { query: 'storm' }, { query: 'harbour', show_reprints: true }]) {
    assert.equal((await api('query', { ...body, api_key: 'journal-key' })).status, 200);
  }
  await api('headlines', { api_key: 'journal-key' });
  const storms = await world.journal({ path: 'query', body: { query: 'storm' } });
  assert.deepEqual(storms.map((e) => e.body), [{ api_key: '[redacted]', query: 'storm', page: 2 },
    { api_key: '[redacted]', query: 'storm' }]);
  assert.equal(await world.journalCount({ body: { query: 'storm', page: 2 } }), 1);
  assert.equal(await world.journalCount({ body: { show_reprints: true } }), 1);
  assert.equal(await world.journalCount({ path: 'headlines', status: 200 }), 1);
  assert.equal(await world.journalCount({ path: 'query', wait: 200, min: 4 }), 3); // the wait ran out: what there is
  assert.equal((await world.journal({ limit: 2 })).length, 2);
});

test('a wait on the journal sees the requests another process makes', async () => {
  const child = spawn(process.execPath, ['-e', `
    (async () => {
      for (const query of ['storm', 'harbour', 'harbour', 'harbour']) {
        const res = await fetch(process.argv[1] + '/api/v2/query', { method: 'POST',
          headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ api_key: 'wait-key', query }) });
        await res.text();
      }
    })();`, mock.url], { stdio: 'inherit' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const entries = await mock.world('wait-key').journal({ path: 'query', body: { query: 'harbour' }, wait: '50s', min: 3 });
  assert.equal(await exited, 0);
  assert.deepEqual(entries.map((e) => e.body.query), ['harbour', 'harbour', 'harbour']);
  assert.equal(await mock.world('wait-key').journalCount({ path: 'query', wait: 50000, min: 4 }), 4);
});

test('the settings of a world', async () => {
  const world = mock.world('settings-key');
  const initial = await world.settings();
  assert.equal(initial.pending_polls, 1);
  assert.deepEqual(await world.updateSettings({ pending_polls: 2, job_ttl: '90s', shape: { results: 'top-level' } }),
    { ...initial, pending_polls: 2, job_ttl: '1m30s', shape: { results: 'top-level' } });
  const { answer } = await api('query', { api_key: 'settings-key', query: 'storm' });
  assert.ok('totalResults' in answer && !('results' in answer), JSON.stringify(answer).slice(0, 200));
  const qid = (await api('query-async', { api_key: 'settings-key', query: 'storm' })).answer.query_id;
  const states = [];
  for (let i = 0; i < 3; i++) states.push((await api('get-results', { api_key: 'settings-key', query_id: qid })).answer.state);
  assert.deepEqual(states, ['PENDING', 'PENDING', 'SUCCESS']);
  assert.deepEqual(await mock.world('another-key').settings(), initial); // other worlds keep theirs
  await assert.rejects(world.updateSettings({ max_jobs: 0 }), /400 .*max_jobs 0: pass 1 or more/);
  assert.deepEqual(await world.resetSettings(), initial);
});

// setup() in a nested run: met, optional and opted-out tests pass; the unmet and the unfired fail with
// newsmock's message. head imports test and setup; options are setup()'s.
const NESTED = (head, options = '') => `${head}
const mock = setup(${options});
const query = (text) => fetch(mock.url + '/api/v2/query', { method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ api_key: mock.apiKey, query: text }) }).then((res) => res.text());
test('met', async () => {
  await mock.expect({ endpoint: 'query', body: { query: 'election' }, times: 1 });
  await query('election');
});
test('unmet', async () => {
  await mock.expect({ endpoint: 'query', body: { query: 'election' }, times: 1 });
  await query('elections');
});
test('fault never fired', async () => { await mock.addFault('endpoint=query;times=1;status=503'); });
test('optional fault', async () => { await mock.addFault('endpoint=query;times=1;status=503;optional'); });
test('opted out', async () => { mock.skipVerify(); await mock.expect({ endpoint: 'headlines' }); });
`;
const WANT = [
  'mockserver: the requests were not as expected:',
  '- expected query with {"query":"election"} exactly once, got 0; closest:',
  '#1 /api/v2/query {"api_key":"[redacted]","query":"elections"}',
  '- unexpected request #1 /api/v2/query {"api_key":"[redacted]","query":"elections"}',
  '- fault rule 0 "endpoint=query;times=1;status=503" never fired (it matched 0 requests); mark it optional',
  'call skipVerify() in the test to skip the check',
];

/** Runs args (a test runner) on a file holding source, in a scratch folder beside this file. */
function runNested(t, name, source, args) {
  const dir = fs.mkdtempSync(path.join(__dirname, 'nested-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, name), source);
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_TEST_CONTEXT; // set in a test file's process; node --test would then run nothing
  const run = spawnSync(process.execPath, [...args(dir), name], { cwd: dir, env, encoding: 'utf8', timeout: 120000 });
  const out = run.stdout + run.stderr;
  assert.equal(run.status, 1, out);
  for (const want of WANT) assert.ok(out.includes(want), `no ${JSON.stringify(want)} in:\n${out}`);
  return { dir, out };
}

test('setup() under node:test: an unmet expectation fails the test, a met one passes', (t) => {
  const source = NESTED("const { test } = require('node:test');\nconst { setup } = require('@newssearch/newsmock');");
  const { out } = runNested(t, 'nested.test.cjs', source, () => ['--test', '--test-reporter=tap']);
  assert.match(out, /# pass 3\n# fail 2\n/);
  assert.match(out, /^not ok 2 - unmet$/m);
  assert.match(out, /^not ok 3 - fault never fired$/m);
});

const runners = process.env.RUNNER_MODULES; // a node_modules with jest and vitest (tools/dist/runner-examples)
const noRunners = !runners && (process.env.CI === 'true' ? false :
  'RUNNER_MODULES is not set: npm ci in tools/dist/runner-examples, then RUNNER_MODULES=<it>/node_modules');

test('setup() under Jest (its globals)', { skip: noRunners }, (t) => {
  assert.ok(runners, 'CI=true: RUNNER_MODULES must name tools/dist/runner-examples/node_modules');
  const { out } = runNested(t, 'nested.test.js', NESTED("const { setup } = require('@newssearch/newsmock');"),
    (dir) => [path.join(runners, 'jest/bin/jest.js'), '--ci', '--config', '{}', '--rootDir', dir]);
  assert.match(out, /Tests: +2 failed, 3 passed, 5 total/);
});

test('setup() under Vitest (its hooks given)', { skip: noRunners }, (t) => {
  assert.ok(runners, 'CI=true: RUNNER_MODULES must name tools/dist/runner-examples/node_modules');
  const head = "import { test, beforeAll, afterAll, beforeEach, afterEach } from 'vitest';\n" +
    "import { setup } from '@newssearch/newsmock';";
  const { out } = runNested(t, 'nested.test.mjs', NESTED(head, '{ hooks: { beforeAll, afterAll, beforeEach, afterEach } }'),
    (dir) => {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(path.join(runners, 'vitest'), path.join(dir, 'node_modules', 'vitest'));
      return [path.join(runners, 'vitest/vitest.mjs'), 'run', '--root', dir];
    });
  assert.match(out, /Tests +2 failed \| 3 passed \(5\)/);
});
