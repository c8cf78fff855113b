// The installed @newssearch/newsmock, from ESM, with NEWSMOCK_BINARY (tools/dist/check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, binaryPath } from '@newssearch/newsmock';

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
