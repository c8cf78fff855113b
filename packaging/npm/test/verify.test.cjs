// Expectations, verify, the journal's body filters and wait, settings, and setup() under node:test, Jest and
// Vitest (tools/dist/check runs it with node --test; RUNNER_MODULES names a node_modules with jest and vitest).
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { start, NewsmockError, VerifyError } = require('@newssearch/newsmock');
const { version } = require('@newssearch/newsmock/package.json');

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
  assert.equal(await world.journalCount({ path: 'query', wait: 0.2, min: 4 }), 3); // seconds: the wait ran out, what there is
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
  assert.equal(await mock.world('wait-key').journalCount({ path: 'query', wait: 50, min: 4 }), 4);
});

const runners = process.env.RUNNER_MODULES; // a node_modules with jest and vitest (tools/dist/runner-examples)

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

/** Runs a test runner on a file holding source, in a scratch folder beside this file: its exit code and output. */
function runFile(t, name, source, args, moreEnv = {}) {
  const dir = fs.mkdtempSync(path.join(__dirname, 'nested-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, name), source);
  const env = { ...process.env, NO_COLOR: '1', ...moreEnv };
  delete env.NODE_TEST_CONTEXT; // set in a test file's process; node --test would then run nothing
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const run = spawnSync(process.execPath, [...args(dir), name], { cwd: dir, env, encoding: 'utf8', timeout: 120000 });
  return { dir, status: run.status, out: run.stdout + run.stderr };
}

/** runFile for NESTED: 2 tests fail with newsmock's message, the stack at the line of the unmet expect(). */
function runNested(t, name, source, args, moreEnv) {
  const { dir, status, out } = runFile(t, name, source, args, moreEnv);
  assert.equal(status, 1, out);
  for (const want of WANT) assert.ok(out.includes(want), `no ${JSON.stringify(want)} in:\n${out}`);
  const line = source.split('\n').indexOf("test('unmet', async () => {") + 2;
  assert.match(out, new RegExp(`nested\\.test\\.[cm]?js:${line}:`), `the VerifyError's stack has no ${name}:${line}:\n${out}`);
  return { dir, out };
}

// The runners, each with the arguments to run a file of a scratch folder.
const RUNNERS = {
  'node:test': { file: 'nested.test.cjs', head: "const { test } = require('node:test');", args: () => ['--test', '--test-reporter=tap'] },
  Jest: { file: 'nested.test.js', head: '', args: (dir) => [path.join(runners, 'jest/bin/jest.js'), '--ci', '--config', '{}', '--rootDir', dir] },
  Vitest: {
    file: 'nested.test.mjs', head: "import { test } from 'vitest';", esm: true,
    args: (dir) => {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(path.join(runners, 'vitest'), path.join(dir, 'node_modules', 'vitest'));
      return [path.join(runners, 'vitest/vitest.mjs'), 'run', '--root', dir];
    },
  },
};

test('setup() under node:test: an unmet expectation fails the test, a met one passes', (t) => {
  const source = NESTED("const { test } = require('node:test');\nconst { setup } = require('@newssearch/newsmock');");
  const { out } = runNested(t, 'nested.test.cjs', source, () => ['--test', '--test-reporter=tap']);
  assert.match(out, /# pass 3\n# fail 2\n/);
  assert.match(out, /^not ok 2 - unmet$/m);
  assert.match(out, /^not ok 3 - fault never fired$/m);
});

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

test('setup() under Vitest without globals and without hooks given: Vitest\'s own hooks', { skip: noRunners }, (t) => {
  // A wrapper binary counts the newsmocks started: one for the file, none from node:test's hooks.
  const dir = fs.mkdtempSync(path.join(__dirname, 'count-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wrapper = path.join(dir, 'newsmock');
  fs.writeFileSync(wrapper, `#!/bin/sh\necho started >> "${dir}/starts"\nexec "${require('@newssearch/newsmock').binaryPath()}" "$@"\n`);
  fs.chmodSync(wrapper, 0o755);
  const head = "import { test } from 'vitest';\nimport { setup } from '@newssearch/newsmock';";
  const { out } = runNested(t, 'nested.test.mjs', NESTED(head), RUNNERS.Vitest.args, { NEWSMOCK_BINARY: wrapper });
  assert.match(out, /Tests +2 failed \| 3 passed \(5\)/);
  assert.doesNotMatch(out, /TAP version/);
  assert.equal(fs.readFileSync(path.join(dir, 'starts'), 'utf8'), 'started\n');
});

// The same suite against a newsmock already running: options.url or NEWSMOCK_URL; nothing is started.
for (const [runner, how] of [['node:test', 'NEWSMOCK_URL'], ['node:test', 'url'], ['Jest', 'NEWSMOCK_URL'], ['Vitest', 'url']]) {
  test(`setup() under ${runner} with a newsmock already running (${how})`, { skip: runner !== 'node:test' && noRunners }, async (t) => {
    const external = await start({ args: ['-world-per-key', '-log-level', 'warn'] });
    t.after(() => external.stop());
    const r = RUNNERS[runner];
    const head = `${r.head}\n${r.esm ? "import { setup } from '@newssearch/newsmock';" : "const { setup } = require('@newssearch/newsmock');"}`;
    const options = how === 'url' ? `{ url: '${external.url}' }` : '';
    const env = { NEWSMOCK_BINARY: '/nonexistent/newsmock', NEWSMOCK_URL: how === 'url' ? undefined : external.url };
    const { out } = runNested(t, r.file, NESTED(head, options), r.args, env);
    assert.match(out, /# pass 3\n# fail 2\n|Tests: +2 failed, 3 passed, 5 total|Tests +2 failed \| 3 passed \(5\)/);
    const worlds = (await external.worlds()).filter((w) => !w.default);
    assert.deepEqual(worlds, []); // each test's world dropped after it
    assert.ok((await external.defaultWorld().journalCount()) === 0);
  });
}

test('setup() with a newsmock already running without -world-per-key says so', async (t) => {
  const external = await start({ args: ['-log-level', 'warn'] });
  t.after(() => external.stop());
  const source = `const { test } = require('node:test');\nconst { setup } = require('@newssearch/newsmock');\n` +
    "const mock = setup();\ntest('one', () => {});\n";
  const { status, out } = runFile(t, 'nested.test.cjs', source, RUNNERS['node:test'].args, { NEWSMOCK_URL: external.url });
  assert.equal(status, 1, out);
  assert.ok(out.includes(`the newsmock at ${external.url} runs without -world-per-key, and setup() gives each test a ` +
    'world of its own key: start it with -world-per-key (in a container: -e NEWSMOCK_WORLD_PER_KEY=true)'), out);
});

// Concurrent tests: never one world shared in silence. Each test adds a fault rule to its world, waits for the
// others to have added theirs, and lists the rules: with one world, each would see all 4.
const CONCURRENT_TESTS = (head, open, close) => `${head}
const mock = setup();
const ready = [];
let release;
const all = new Promise((resolve) => { release = resolve; });
${open}
for (const n of [1, 2, 3, 4]) {
  TEST('concurrent ' + n, async () => {
    await mock.addFault({ endpoint: 'headlines', fault: { status: 500 + n } });
    ready.push(n);
    if (ready.length === 4) release();
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 3000))]);
    console.log('SEEN ' + n + ' ' + (await mock.faults()).length);
  });
}
${close}
`;

for (const [runner, head, open, close] of [
  ['node:test', "const { test, describe } = require('node:test');\nconst { setup } = require('@newssearch/newsmock');\nconst TEST = test;",
    "describe('d', { concurrency: true }, () => {", '});'],
  ['Jest', "const { setup } = require('@newssearch/newsmock');\nconst TEST = test.concurrent;", '', ''],
  ['Vitest', "import { describe, test } from 'vitest';\nimport { setup } from '@newssearch/newsmock';\nconst TEST = test;",
    'describe.concurrent("d", () => {', '});'],
]) {
  test(`concurrent tests under ${runner} fail loudly, never sharing a world`, { skip: runner !== 'node:test' && noRunners }, (t) => {
    const r = RUNNERS[runner];
    const { status, out } = runFile(t, r.file, CONCURRENT_TESTS(head, open, close), r.args);
    assert.equal(status, 1, out);
    assert.doesNotMatch(out, /SEEN \d 4/, out); // no test saw the others' rules
    assert.match(out, /tests of this file ran at the same time|no test is running: setup\(\)'s mock is the running test's world \(Jest runs test.concurrent/, out);
    assert.doesNotMatch(out, /\b[1-4] passed|# pass [1-9]/, out); // every one of them failed
  });
}

test('durations: numbers are seconds, strings Go durations', async (t) => {
  const mock = await start({ args: ['-world-per-key', '-log-level', 'warn', '-clock', 'manual=2026-01-15T12:00:00Z'], timeout: 15 });
  t.after(() => mock.stop({ timeout: '15s' }));
  const world = mock.world('duration-key');
  assert.equal((await world.advanceClock(90)).now, '2026-01-15T12:01:30Z');
  assert.equal((await world.advanceClock('1h')).now, '2026-01-15T13:01:30Z');
  assert.equal((await world.updateSettings({ pending: 2.5, job_ttl: '90s' })).pending, '2.5s');
  await assert.rejects(start({ timeout: '15 seconds' }), /start\(\{ timeout \}\): "15 seconds" is not a duration: give seconds \(15\) or a Go duration \('15s'\)/);
});

test('a clock per test, body-matched fault rules, strictness asked for, the 409 naming useManualClock()', async (t) => {
  const mock = await start({ args: ['-world-per-key', '-log-level', 'warn'] });
  t.after(() => mock.stop());
  const world = mock.world('clock-key');
  const other = mock.world('other-key');
  await assert.rejects(world.advanceClock(1), (err) => err.status === 409 && /useManualClock\(\)/.test(err.message));
  assert.equal((await world.useManualClock('2026-01-15T12:00:00Z')).now, '2026-01-15T12:00:00Z');
  assert.equal((await world.advanceClock(90)).now, '2026-01-15T12:01:30Z');
  assert.equal((await other.clock()).manual, false);
  assert.equal((await world.useRealClock()).manual, false);

  await world.addFault({ endpoint: 'query', body: { query: 'storm' }, fault: { status: 503 } });
  const query = (q) => fetch(`${mock.url}/api/v2/query`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: 'clock-key', query: q }) }).then((res) => res.status);
  assert.deepEqual([await query('harbour'), await query('storm')], [200, 503]);

  await world.clearFaults();
  await world.expect({ endpoint: 'query', body: { query: 'harbour' } });
  await query('harbour');
  await query('storm');
  const verdict = await world.verify();
  assert.deepEqual([verdict.met, verdict.unexpected_count], [true, 1]);
  assert.equal((await world.updateSettings({ strict: true })).strict, true);
  await assert.rejects(world.verify({ check: true }), /unexpected request #\d+ \/api\/v2\/query/);
});

test('the helpers send User-Agent newsmock-node/<version>, and NEWSMOCK_URL does not stop start()', async (t) => {
  const http = require('node:http');
  let agent;
  const server = http.createServer((req, res) => { agent = req.headers['user-agent']; res.end('{"state":"SUCCESS"}'); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  await new (require('@newssearch/newsmock').Control)(`http://127.0.0.1:${server.address().port}`).health();
  assert.equal(agent, `newsmock-node/${version}`);
  process.env.NEWSMOCK_URL = 'http://127.0.0.1:9';
  t.after(() => { delete process.env.NEWSMOCK_URL; });
  const mock = await start({ args: ['-log-level', 'warn'] });
  t.after(() => mock.stop());
  assert.equal((await mock.health()).state, 'SUCCESS');
});
