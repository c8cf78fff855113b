// The installed @newssearch/newsmock, from ESM, with NEWSMOCK_BINARY (tools/dist/check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, setup, binaryPath, VerifyError } from '@newssearch/newsmock';

// setup(): one mock for this file, a world for each test, verified after it (verify.test.cjs has the failures).
const world = setup({ args: ['-log-level', 'warn'] });
const keys = [];
// Outside a test there is no world to act on (it would be the default world, which no test's request reaches).
await assert.rejects(world.faults(), /GET \/_mock\/faults: no test is running: setup\(\)'s mock is the running test's world/);

test('setup() from ESM: a world of the test, its expectation met', async () => {
  keys.push(world.apiKey);
  await world.expect({ endpoint: 'headlines', times: 1 });
  const res = await fetch(`${world.url}/api/v2/headlines`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ api_key: world.apiKey }),
  });
  assert.equal(res.status, 200);
  assert.equal(typeof VerifyError, 'function');
});

test('setup(): the next test has a world of its own', async () => {
  keys.push(world.apiKey);
  assert.match(keys[1], /^test-/);
  assert.notEqual(keys[1], keys[0]);
  assert.deepEqual(await world.expectations(), []);
  assert.equal((await world.server.worlds()).length, 2); // the default world and this test's: the first was dropped
});

test('ESM import, jobs helpers', async () => {
  const mock = await start({ args: ['-log-level', 'warn'] });
  try {
    const res = await fetch(`${mock.url}/api/v2/query-async`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: 'k', query: 'storm' }),
    });
    const { query_id: id } = await res.json();
    assert.deepEqual((await mock.jobs()).map((j) => j.query_id), [id]);
    assert.equal((await mock.forceJob(id, 'FAILED', 'upstream timeout')).state, 'FAILED');
    await mock.reset();
    assert.deepEqual(await mock.jobs(), []);
  } finally {
    await mock.stop();
  }
});

test('NEWSMOCK_BINARY overrides the platform package', () => {
  const real = binaryPath();
  process.env.NEWSMOCK_BINARY = real + '-not-there';
  try {
    assert.throws(() => binaryPath(), /NEWSMOCK_BINARY/);
    process.env.NEWSMOCK_BINARY = real;
    assert.equal(binaryPath(), real);
  } finally {
    delete process.env.NEWSMOCK_BINARY;
  }
});
