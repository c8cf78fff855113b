// No newsmock outlives the program that started it: node and node --test, ended by SIGINT, SIGTERM or
// SIGKILL, or by their end with stop() forgotten (tools/dist/check runs it with node --test, on Linux).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const WAIT = 60000; // ms: the bound of every wait below; a slow machine never needs it
const pkg = JSON.stringify(require.resolve('@newssearch/newsmock'));

// The inner programs start a mock, never stop it, report its pid and URL on a connection to the test, and
// hold on until the test closes that connection.
const SCRIPT = `
const net = require('node:net');
require(${pkg}).start().then((mock) => {
  const c = net.connect(Number(process.env.READY_PORT), '127.0.0.1');
  c.end(JSON.stringify({ mocks: [[mock.process.pid, mock.url]] }) + '\\n');
  c.resume(); // the connection holds the event loop until the test closes it
});
`;
const INNER_TEST = `
const { test } = require('node:test');
const net = require('node:net');
test('forgets stop()', async () => {
  const mock = await require(${pkg}).start();
  await new Promise((resolve) => {
    const c = net.connect(Number(process.env.READY_PORT), '127.0.0.1');
    c.end(JSON.stringify({ mocks: [[mock.process.pid, mock.url]] }) + '\\n');
    c.on('close', resolve).resume();
  });
});
`;

/** Rejects after ms with message, unless promise settles first. */
function within(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(message())), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * True while pid runs. A zombie has ended once its other threads have: the first thread of a Go program
 * may be a zombie while the others are still exiting and hold its files (its listening socket among them).
 */
function running(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) ||
      fs.readdirSync(`/proc/${pid}/task`).length > 1;
  } catch {
    return false;
  }
}

/**
 * Waits until pid has ended, then checks that url refuses connections. Polled: Node cannot await the end
 * of a process that is not its child.
 */
async function assertGone(pid, url) {
  const deadline = Date.now() + WAIT;
  while (running(pid)) {
    assert.ok(Date.now() < deadline, `newsmock ${pid} still runs ${WAIT} ms after its program ended`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { hostname, port } = new URL(url);
  const err = await new Promise((resolve) => {
    const c = net.connect(Number(port), hostname);
    c.on('connect', () => { c.destroy(); resolve(null); });
    c.on('error', resolve);
  });
  assert.equal(err && err.code, 'ECONNREFUSED', `${url} still accepts connections after newsmock ${pid} ended`);
}

/**
 * Runs node with args in a scratch directory holding file, waits for one report, then sends sig to that
 * node (none: closes the report's connection, so that the program goes on to its end), waits for its
 * end and checks that the mock is gone. With release, the connection is closed after the signal too.
 */
async function runAndEnd(t, file, source, args, sig, release = false) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'newsmock-orphans-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, file), source);
  const conns = [];
  const reports = [];
  let reported;
  const first = new Promise((resolve) => { reported = resolve; });
  const server = net.createServer({ allowHalfOpen: true }, (c) => {
    conns.push(c);
    let buf = '';
    c.setEncoding('utf8').on('data', (d) => { buf += d; }).on('end', () => { reports.push(JSON.parse(buf)); reported(); });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  let output = '';
  const env = { ...process.env, READY_PORT: String(server.address().port) };
  delete env.NODE_TEST_CONTEXT; // set in a test file's process; node --test would then run nothing
  const child = spawn(process.execPath, [...args, file], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    await within(Promise.race([first, exited]), WAIT, () => `node ${args.join(' ')} ${file}: no report within ${WAIT} ms`);
    assert.equal(reports.length, 1, `node ${args.join(' ')} ${file} ended before its report:\n${output}`);
    if (sig) child.kill(sig);
    if (!sig || release) for (const c of conns) c.destroy();
    await within(exited, WAIT, () => `node ${args.join(' ')} ${file} still runs ${WAIT} ms after ${sig || 'the end of its work'}:\n${output}`);
  } finally {
    child.kill('SIGKILL');
    for (const c of conns) c.destroy();
    server.close();
  }
  for (const [pid, url] of reports[0].mocks) await assertGone(pid, url);
}

const linux = process.platform === 'linux' ? false : 'reads /proc: Linux only';

for (const sig of ['SIGINT', 'SIGTERM', 'SIGKILL', null]) {
  test(`node ended by ${sig || 'its end, stop() forgotten'}: no newsmock left`, { skip: linux }, async (t) => {
    await runAndEnd(t, 'script.cjs', SCRIPT, [], sig);
  });
  // node --test ends its test files on SIGINT and SIGTERM; after a SIGKILL the file runs on to its end.
  test(`node --test ended by ${sig || 'its end, stop() forgotten'}: no newsmock left`, { skip: linux }, async (t) => {
    await runAndEnd(t, 'inner.test.cjs', INNER_TEST, ['--test'], sig, sig === 'SIGKILL');
  });
}
