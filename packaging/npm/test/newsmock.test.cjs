// The installed @newssearch/newsmock, from CommonJS (tools/dist/check runs it with node --test).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { start, binaryPath, NewsmockError } = require('@newssearch/newsmock');

async function api(url, endpoint, body) {
  const res = await fetch(`${url}/api/v2/${endpoint}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, answer: await res.json() };
}

test('the platform package brings the binary', () => {
  assert.match(binaryPath(), /node_modules[\\/]@newssearch[\\/]newsmock-(linux|darwin|win32)-(x64|arm64)[\\/]bin[\\/]newsmock/);
});

test('start, set a fault, see it fire, stop', async () => {
  const mock = await start({ args: ['-world-per-key'] });
  try {
    assert.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const world = mock.world('test-a');
    await world.addFault('endpoint=query;times=1;status=503');
    assert.equal((await api(mock.url, 'query', { api_key: 'test-a', query: 'storm' })).status, 503);
    assert.equal((await api(mock.url, 'query', { api_key: 'test-a', query: 'storm' })).status, 200);
    assert.equal((await api(mock.url, 'query', { api_key: 'test-b', query: 'storm' })).status, 200);
    assert.equal(await world.journalCount({ status: 503 }), 1);
    assert.equal((await world.faults())[0].fired, 1);
    assert.deepEqual(await mock.world('test-b').faults(), []);
  } finally {
    assert.equal(await mock.stop(), 0);
  }
});

test('two mocks side by side', async () => {
  const [a, b] = await Promise.all([start(), start({ args: ['-clock', 'manual=2026-01-15T12:00:00Z'] })]);
  try {
    assert.notEqual(a.url, b.url);
    await a.setFaults([{ endpoint: 'headlines', fault: { status: 502 } }]);
    assert.equal((await api(a.url, 'headlines', { api_key: 'k' })).status, 502);
    assert.equal((await api(b.url, 'headlines', { api_key: 'k' })).status, 200);
    assert.equal((await b.advanceClock('2h')).now, '2026-01-15T14:00:00Z');
    assert.equal((await a.clock()).manual, false);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  assert.equal(a.process.exitCode, 0);
  assert.equal(b.process.exitCode, 0);
});

test('a control error is a NewsmockError with the status', async () => {
  const mock = await start();
  try {
    await assert.rejects(mock.advanceClock('2h'), (err) => err instanceof NewsmockError && err.status === 409);
  } finally {
    await mock.stop();
  }
});

test('a bad flag rejects with the exit code and standard error', async () => {
  await assert.rejects(start({ args: ['-no-such-flag'] }), /exited with 2[\s\S]*no-such-flag/);
});
