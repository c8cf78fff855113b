// The installed @newssearch/newsmock, from CommonJS (tools/dist/check runs it with node --test).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
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

/** Resolves once the first fault rule of mock has fired: the request is in its injected latency. */
async function inLatency(mock) {
  const deadline = Date.now() + 30000;
  while ((await mock.faults())[0].fired === 0) {
    assert.ok(Date.now() < deadline, 'the request never reached its fault within 30 s');
  }
}

const query = (mock, signal) => fetch(`${mock.url}/api/v2/query`, {
  method: 'POST', signal, headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ api_key: 'k', query: 'storm' }),
});

test('stop() after a fetch aborted during a latency fault', async () => {
  // Node's fetch leaves a connection open with nothing sent on it after such an abort; newsmock closes it
  // at once when stopped (net/http would wait 5 s for it), so the stop ends well within -drain-timeout 1s.
  const mock = await start({ args: ['-drain-timeout', '1s', '-log-level', 'warn'] });
  await mock.setFaults([{ endpoint: 'query', fault: { latency: '5m' } }]);
  const ac = new AbortController();
  const aborted = query(mock, ac.signal).catch((err) => err);
  await inLatency(mock);
  ac.abort();
  assert.equal((await aborted).name, 'AbortError');
  await mock.health(); // a next call, as the test's teardown would make
  assert.equal(await mock.stop(), 0, `newsmock was cut off by -drain-timeout:\n${mock.log}`);
});

test('stop() ends an injected latency: the request in it is answered', async () => {
  const mock = await start({ args: ['-log-level', 'warn'] }); // -drain-timeout 10s, far less than 5m
  await mock.setFaults([{ endpoint: 'query', fault: { latency: '5m' } }]);
  const answer = query(mock);
  await inLatency(mock);
  assert.equal(await mock.stop(), 0, `newsmock was cut off by -drain-timeout:\n${mock.log}`);
  assert.equal((await answer).status, 200);
});

test('start() rejects, not throws, when the binary is missing', async () => {
  let started;
  assert.doesNotThrow(() => { started = start({ binary: '/nonexistent/newsmock' }); });
  await assert.rejects(started, (err) => err instanceof NewsmockError && /ENOENT/.test(err.message));
  const real = process.env.NEWSMOCK_BINARY;
  process.env.NEWSMOCK_BINARY = '/nonexistent/newsmock';
  try {
    assert.doesNotThrow(() => { started = start(); });
    await assert.rejects(started, /NEWSMOCK_BINARY is \/nonexistent\/newsmock, which does not exist/);
  } finally {
    if (real === undefined) delete process.env.NEWSMOCK_BINARY; else process.env.NEWSMOCK_BINARY = real;
  }
});

test('start({ env }) adds to the environment; newsmock runs with -exit-with-parent', { skip: process.platform === 'win32' }, async (t) => {
  // A stand-in for newsmock that records its arguments and environment, and exits when its input ends.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'newsmock-env-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const fake = path.join(dir, 'newsmock');
  fs.writeFileSync(fake, `#!/bin/sh\necho "$@" > "${dir}/args"\nenv > "${dir}/env"\n` +
    'echo "newsmock listening on http://127.0.0.1:9"\nexec cat > /dev/null\n', { mode: 0o755 });
  const mock = await start({ binary: fake, env: { NEWSMOCK_TEST_EXTRA: 'yes' } });
  const env = fs.readFileSync(path.join(dir, 'env'), 'utf8').split('\n');
  for (const want of [`HOME=${process.env.HOME}`, `PATH=${process.env.PATH}`, 'NEWSMOCK_TEST_EXTRA=yes']) {
    assert.ok(env.includes(want), `the environment lacks ${want}`);
  }
  assert.equal(fs.readFileSync(path.join(dir, 'args'), 'utf8'), '-addr 127.0.0.1:0 -exit-with-parent\n');
  assert.equal(await mock.stop(), 'SIGTERM'); // which ends cat
});

test('under -world-per-key the helpers of the server refuse; those of a key act', async () => {
  const mock = await start({ args: ['-world-per-key', '-log-level', 'warn'] });
  try {
    for (const call of [() => mock.addFault('status=503'), () => mock.journalCount(), () => mock.reset()]) {
      await assert.rejects(call(), (err) => err instanceof NewsmockError &&
        /-world-per-key, which no request with an api_key reaches: use mock\.world\(key\)/.test(err.message));
    }
    await mock.world('k').addFault('endpoint=query;status=503');
    assert.equal((await query(mock)).status, 503);
    assert.equal(await mock.world('k').journalCount({ status: 503 }), 1);
    assert.deepEqual(await mock.defaultWorld().faults(), []);
    assert.equal((await mock.worlds()).length, 2);
    assert.equal((await mock.health()).state, 'SUCCESS');
    assert.throws(() => mock.world(''), /non-empty string/);
  } finally {
    await mock.stop();
  }
});
