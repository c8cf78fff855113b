'use strict';
// @newssearch/newsmock: start newsmock (the mock news search service) from Node.js tests and drive its
// control API (docs/control-api.md). No dependencies besides the platform package with the binary.
const { spawn } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const crypto = require('node:crypto');

const LISTEN_PREFIX = 'newsmock listening on ';
const KEY_HEADER = 'X-Newsmock-Key';
// Control paths about the whole server, not one world.
const SERVER_PATHS = /^\/_mock\/(worlds|health|record)(\/|\?|$)/;
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

class NewsmockError extends Error {
  constructor(message, { status, body } = {}) {
    super(message);
    this.name = 'NewsmockError';
    this.status = status;
    this.body = body;
  }
}

/** verify({ check: true }) found the world's expectations unmet: newsmock's message, and its whole answer as result. */
class VerifyError extends Error {
  constructor(result) {
    super(result.message || 'newsmock: the requests were not as expected');
    this.name = 'VerifyError';
    this.result = result;
  }
}

/** The query of GET /_mock/journal: body members as body.<name>, wait in milliseconds or a Go duration. */
function journalQuery({ body, wait, ...query } = {}) {
  for (const [name, value] of Object.entries(body || {})) {
    query[`body.${name}`] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  if (wait !== undefined) query.wait = typeof wait === 'number' ? `${Math.round(wait)}ms` : wait;
  return query;
}

/** The newsmock binary: $NEWSMOCK_BINARY, else the one of @newssearch/newsmock-<platform>-<arch>. */
function binaryPath() {
  const env = process.env.NEWSMOCK_BINARY;
  if (env) {
    if (!fs.existsSync(env)) throw new NewsmockError(`NEWSMOCK_BINARY is ${env}, which does not exist`);
    return env;
  }
  const platform = `${process.platform}-${process.arch}`;
  if (!PLATFORMS.includes(platform)) {
    throw new NewsmockError(`@newssearch/newsmock has no binary for ${platform} (it has ${PLATFORMS.join(', ')}): ` +
      'build newsmock (from a clone of the repository: go build -o newsmock ./cmd/newsmock) and set NEWSMOCK_BINARY to it');
  }
  const pkg = `@newssearch/newsmock-${platform}`;
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new NewsmockError(`${pkg}, the package with the newsmock binary for this machine, is not installed: ` +
      `${missingCause(pkg)}; or set NEWSMOCK_BINARY to a newsmock binary`);
  }
  return path.join(dir, 'bin', process.platform === 'win32' ? 'newsmock.exe' : 'newsmock');
}

/**
 * Why npm left out pkg, from the project's lockfile: recorded there but not installed means an omit
 * (--omit=optional); not recorded while this package came from a tarball means that tarball was installed
 * alone.
 */
function missingCause(pkg) {
  let lock = null;
  for (let dir = __dirname; !lock && path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    for (const name of ['npm-shrinkwrap.json', 'package-lock.json']) {
      try { lock = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')); break; } catch { /* next */ }
    }
  }
  const entries = Object.entries((lock && lock.packages) || {});
  if (entries.some(([k]) => k.endsWith(`node_modules/${pkg}`))) {
    return 'npm resolved it but left it out, as --omit=optional (also --no-optional, or omit=optional in .npmrc) ' +
      `makes it skip optional dependencies: install again without it, or add ${pkg} to your devDependencies`;
  }
  const self = entries.find(([k]) => k.endsWith('node_modules/@newssearch/newsmock'));
  if (self && /^file:/.test(self[1].resolved || '')) {
    const tgz = self[1].resolved.slice('file:'.length);
    const mine = path.join(path.dirname(tgz), `${pkg.slice(1).replace('/', '-')}-${self[1].version}.tgz`);
    return `@newssearch/newsmock was installed from ${tgz} alone, and npm found ${pkg} nowhere else: ` +
      `install both tarballs in one command (npm install -D ${tgz} ${mine})`;
  }
  return `npm did not install it (it is an optional dependency of @newssearch/newsmock): installed with ` +
    '--omit=optional, from a lockfile made on another platform (npm/cli#4828), or from a registry without it; ' +
    `add ${pkg} to your devDependencies`;
}

/** The control API of one newsmock, acting on one world: the default one, or that of apiKey. */
class Control {
  constructor(url, apiKey = null) {
    this.url = url.replace(/\/+$/, '');
    this.apiKey = apiKey;
  }

  /** The same control API acting on the world of apiKey (header X-Newsmock-Key). */
  world(apiKey) {
    if (typeof apiKey !== 'string' || apiKey === '') {
      throw new NewsmockError(`world(${JSON.stringify(apiKey)}): give the api_key your requests send, a non-empty string`);
    }
    return new Control(this.url, apiKey);
  }

  /** The control API acting on the default world, even under -world-per-key (where no keyed request reaches it). */
  defaultWorld() {
    return new Control(this.url);
  }

  /** One control call: json is sent as JSON, text as plain text (a -fault rule). */
  async call(method, p, { json, text, query } = {}) {
    if (this._guard && !SERVER_PATHS.test(p)) await this._guard(method, p);
    let url = this.url + p;
    if (query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) q.set(k, String(v));
      if ([...q].length) url += '?' + q;
    }
    const headers = { 'Content-Type': 'application/json' };
    let body;
    if (text !== undefined) {
      headers['Content-Type'] = 'text/plain';
      headers['X-Newsmock-Control'] = '1';
      body = text;
    } else if (json !== undefined) {
      body = JSON.stringify(json);
    }
    if (this.apiKey !== null) headers[KEY_HEADER] = this.apiKey;
    const res = await fetch(url, { method, headers, body });
    const raw = await res.text();
    let answer;
    try { answer = raw ? JSON.parse(raw) : {}; } catch { answer = null; }
    if (!res.ok) {
      const message = answer && answer.message ? answer.message : raw;
      throw new NewsmockError(`${method} ${p}: ${res.status} ${message}`, { status: res.status, body: raw });
    }
    return answer;
  }

  // Faults: a rule is an object (docs/control-api.md "Faults") or a string in -fault syntax.
  async faults() { return (await this.call('GET', '/_mock/faults')).rules; }
  async setFaults(rules) { return (await this.call('PUT', '/_mock/faults', { json: { rules } })).rules; }
  async addFault(rule) {
    const opts = typeof rule === 'string' ? { text: rule } : { json: rule };
    return (await this.call('POST', '/_mock/faults', opts)).rules;
  }
  async removeFault(index) { return (await this.call('DELETE', `/_mock/faults/${index}`)).rules; }
  async clearFaults() { return (await this.call('DELETE', '/_mock/faults')).rules; }

  // Clock (a manual one: newsmock -clock manual).
  clock() { return this.call('GET', '/_mock/clock'); }
  advanceClock(duration) { return this.call('POST', '/_mock/clock', { json: { advance: duration } }); }
  setClock(when) {
    return this.call('POST', '/_mock/clock', { json: { set: when instanceof Date ? when.toISOString() : when } });
  }

  // Articles.
  articles() { return this.call('GET', '/_mock/articles'); }
  addArticles(articles) { return this.call('POST', '/_mock/articles', { json: articles }); }
  replaceArticles(articles) { return this.call('PUT', '/_mock/articles', { json: articles }); }
  resetArticles() { return this.call('DELETE', '/_mock/articles'); }

  // Journal: filter { path, status, since, limit, body: { member: value }, wait, min } (docs/control-api.md).
  async journal(filter = {}) { return (await this.call('GET', '/_mock/journal', { query: journalQuery(filter) })).entries; }
  async journalCount(filter = {}) {
    return (await this.call('GET', '/_mock/journal', { query: { ...journalQuery(filter), count: 'true' } })).count;
  }
  clearJournal() { return this.call('DELETE', '/_mock/journal'); }

  // Expectations: { endpoint, body, times } or { endpoint, body, min, max }, or an array of them.
  async expect(expectations) { return (await this.call('POST', '/_mock/expectations', { json: expectations })).expectations; }
  async expectations() { return (await this.call('GET', '/_mock/expectations')).expectations; }
  async clearExpectations() { return (await this.call('DELETE', '/_mock/expectations')).expectations; }
  /** newsmock's verdict on the world; with { check: true } it rejects with a VerifyError when not met. */
  async verify({ check = false } = {}) {
    const result = await this.call('GET', '/_mock/verify');
    if (check && !result.met) throw new VerifyError(result);
    return result;
  }

  // Settings: pending_polls, pending, rate_limit, burst, job_ttl, max_jobs, shape (the JSON names).
  async settings() { return (await this.call('GET', '/_mock/settings')).settings; }
  async updateSettings(changes) { return (await this.call('PATCH', '/_mock/settings', { json: changes })).settings; }
  async resetSettings() { return (await this.call('DELETE', '/_mock/settings')).settings; }

  // Jobs.
  async jobs() { return (await this.call('GET', '/_mock/jobs')).jobs; }
  async job(queryId) { return (await this.call('GET', `/_mock/jobs/${encodeURIComponent(queryId)}`)).job; }
  async forceJob(queryId, state, message) {
    const json = message === undefined ? { state } : { state, message };
    return (await this.call('POST', `/_mock/jobs/${encodeURIComponent(queryId)}`, { json })).job;
  }
  expireJob(queryId) { return this.call('DELETE', `/_mock/jobs/${encodeURIComponent(queryId)}`); }

  // The whole world.
  reset() { return this.call('POST', '/_mock/reset', { json: {} }); }
  dropWorld() { return this.call('DELETE', '/_mock/worlds'); }
  async worlds() { return (await this.call('GET', '/_mock/worlds')).worlds; }
  health() { return this.call('GET', '/_mock/health'); }
}

const live = new Set(); // the children of start() not yet stopped

/** Ends every newsmock still running (at exit, or on SIGINT, SIGTERM, SIGHUP). */
function stopAll() {
  for (const child of live) child.kill('SIGTERM'); // newsmock drains at once: no request can be in flight now
  live.clear();
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', stopAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const onSignal = () => {
      stopAll();
      process.removeListener(sig, onSignal);
      // Alone, end as the signal would have (a listener turns its default off); else leave it to the others.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    process.on(sig, onSignal);
  }
}

/** A running newsmock. stop() ends it; log holds its last lines of standard error. */
class Newsmock extends Control {
  constructor(child, url, logLines) {
    super(url);
    this.process = child;
    this._log = logLines;
    this._exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code, signal) => resolve(code ?? signal));
    });
    let worldPerKey;
    // Under -world-per-key the default world is reached by no request with an accepted key: helpers acting
    // on it would never be seen, so they refuse (once GET /_mock/worlds has said so).
    this._guard = async (method, p) => {
      worldPerKey ??= new Control(url).call('GET', '/_mock/worlds').then((a) => a.world_per_key === true,
        (err) => { worldPerKey = undefined; throw err; });
      if (await worldPerKey) {
        throw new NewsmockError(`${method} ${p} would act on the default world of a newsmock running with ` +
          '-world-per-key, which no request with an api_key reaches: use mock.world(key) with the api_key ' +
          'your requests send (or mock.defaultWorld() for the default world itself)');
      }
    };
  }

  get log() { return this._log.join('\n'); }

  /** SIGTERM (newsmock drains and exits), then waits; SIGKILL after timeoutMs. Resolves to the exit code. */
  async stop({ timeoutMs = 15000 } = {}) {
    const child = this.process;
    live.delete(child);
    if (child.exitCode === null && child.signalCode === null) {
      child.ref(); // the exit is awaited
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try { await this._exited; } finally { clearTimeout(timer); }
    }
    return this._exited;
  }

  async [Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose')]() { await this.stop(); }
}

/**
 * Starts newsmock on 127.0.0.1 at a free port and resolves once it listens; rejects with a NewsmockError
 * saying why it could not. args: more newsmock flags (an -addr among them wins); binary: defaults to
 * binaryPath(); env: variables added to this process's environment.
 *
 * newsmock runs with -exit-with-parent and its standard input a pipe from this process, so that it exits when
 * this process does, however it ends (SIGKILL included). Neither it nor its pipes keep Node's event loop alive
 * once it listens: a test file that forgets stop() still ends, and newsmock with it.
 */
async function start({ args = [], binary, timeoutMs = 15000, env } = {}) {
  const bin = binary || binaryPath();
  const child = spawn(bin, ['-addr', '127.0.0.1:0', '-exit-with-parent', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'], env: env && { ...process.env, ...env },
  });
  hookExit();
  live.add(child);
  const logLines = [];
  let errBuf = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    errBuf += chunk;
    const lines = errBuf.split('\n');
    errBuf = lines.pop();
    logLines.push(...lines);
    if (logLines.length > 200) logLines.splice(0, logLines.length - 200);
  });
  child.stdin.on('error', () => {}); // EPIPE once newsmock has exited: nothing is ever written
  let url;
  try {
    url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line within ${timeoutMs} ms`)), timeoutMs);
      let stdoutBuf = '';
      child.stdout.setEncoding('utf8');
      const onData = (chunk) => {
        stdoutBuf += chunk;
        const line = stdoutBuf.split('\n').slice(0, -1).find((l) => l.startsWith(LISTEN_PREFIX));
        if (line !== undefined) {
          clearTimeout(timer);
          child.stdout.removeListener('data', onData);
          child.stdout.resume(); // nothing more comes; never let the pipe fill
          resolve(line.slice(LISTEN_PREFIX.length).trim());
        }
      };
      child.stdout.on('data', onData);
      child.once('error', (err) => { clearTimeout(timer); reject(new Error(`could not start: ${err.message}`)); });
      child.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`exited with ${code ?? signal}`)); });
    });
  } catch (err) {
    live.delete(child);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // Let the last lines of standard error arrive (the pipe closes when newsmock has exited).
    if (!child.stderr.closed) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 2000);
        child.stderr.once('close', () => { clearTimeout(timer); resolve(); });
      });
    }
    if (errBuf) logLines.push(errBuf);
    throw new NewsmockError(`${bin} ${args.join(' ')}: ${err.message}; its standard error:\n${logLines.join('\n') || '(nothing)'}`);
  }
  child.unref();
  for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe.unref();
  return new Newsmock(child, url, logLines);
}

/** The hooks of the test runner: Jest's and Vitest's globals when present, else node:test's. */
function runnerHooks() {
  const g = globalThis;
  if (['beforeAll', 'afterAll', 'beforeEach', 'afterEach'].every((name) => typeof g[name] === 'function')) {
    return { beforeAll: g.beforeAll, afterAll: g.afterAll, beforeEach: g.beforeEach, afterEach: g.afterEach };
  }
  const t = require('node:test');
  return { beforeAll: t.before, afterAll: t.after, beforeEach: t.beforeEach, afterEach: t.afterEach };
}

/**
 * One newsmock for the test file (-world-per-key, started in a beforeAll hook, stopped in afterAll), and for
 * each test a world of its own: the object returned is the control API of the running test's world, with
 * url and apiKey (send it in your requests). After each test its verify must be met (expectations, and every
 * fault rule not optional fired), else the test fails with newsmock's message; skipVerify() in a test skips
 * that check. hooks: { beforeAll, afterAll, beforeEach, afterEach } (node:test's before and after are taken
 * too); by default the globals of Jest or Vitest (globals: true), else node:test's. Tests of a file must run
 * one at a time (the runners' default).
 */
function setup({ args = [], hooks, ...startOptions } = {}) {
  const h = hooks || runnerHooks();
  const world = new Control(''); // its url once the mock listens
  let server = null;
  let depth = 0; // node:test runs beforeEach for subtests too: they share their test's world
  let check = true;
  world._guard = async (method, p) => {
    if (world.apiKey === null) {
      throw new NewsmockError(`${method} ${p}: no test is running: the setup() world is the running test's ` +
        '(when the runner\'s hooks are not globals, as under Vitest without globals: true, pass them: ' +
        'setup({ hooks: { beforeAll, afterAll, beforeEach, afterEach } }))');
    }
  };
  world.skipVerify = () => { check = false; };
  Object.defineProperty(world, 'server', { get: () => server });
  (h.beforeAll || h.before)(async () => {
    server = await start({ ...startOptions, args: ['-world-per-key', ...args] });
    world.url = server.url;
  });
  (h.afterAll || h.after)(() => server && server.stop());
  h.beforeEach(() => {
    if (depth++ > 0) return;
    world.apiKey = `test-${crypto.randomUUID()}`;
    check = true;
  });
  h.afterEach(async () => {
    if (--depth > 0 || world.apiKey === null || !server) return;
    const mine = server.world(world.apiKey);
    world.apiKey = null;
    try {
      if (check) await mine.verify({ check: true });
    } catch (err) {
      if (err instanceof VerifyError) {
        err.message += '\n(setup() checks this after each test; call skipVerify() in the test to skip the check)';
      }
      throw err;
    } finally {
      await mine.dropWorld().catch(() => {});
    }
  });
  return world;
}

module.exports = { start, setup, binaryPath, Control, Newsmock, NewsmockError, VerifyError, LISTEN_PREFIX, KEY_HEADER };
