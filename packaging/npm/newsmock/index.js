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
// The variables the helpers read; a started newsmock never sees them.
const CLIENT_VARIABLES = ['NEWSMOCK_URL', 'NEWSMOCK_BINARY'];
const USER_AGENT = `newsmock-node/${require('./package.json').version}`;
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

/**
 * A Go duration from a duration the helpers take: the one rule of both packages (Python's too) is that a
 * number is seconds and a string a Go duration ('90s', '1h30m', '250ms').
 */
function goDuration(d) {
  return typeof d === 'number' ? `${Math.round(d * 1000)}ms` : d;
}

const UNITS = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
/** Milliseconds of a duration (a number of seconds, or a Go duration string), for the timers of this module. */
function millis(d, name) {
  if (typeof d === 'number' && d >= 0) return d * 1000;
  const parts = typeof d === 'string' ? [...d.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)] : [];
  if (!parts.length || parts.map((p) => p[0]).join('') !== d) {
    throw new NewsmockError(`${name}: ${JSON.stringify(d)} is not a duration: give seconds (15) or a Go duration ('15s')`);
  }
  return parts.reduce((ms, p) => ms + Number(p[1]) * UNITS[p[2]], 0);
}

/** The query of GET /_mock/journal: body members as body.<name>, wait in seconds or a Go duration. */
function journalQuery({ body, wait, ...query } = {}) {
  for (const [name, value] of Object.entries(body || {})) {
    query[`body.${name}`] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  if (wait !== undefined) query.wait = goDuration(wait);
  return query;
}

/** The frames of the stack that are not this module's: where the test called a helper. */
function callerFrames() {
  return (new Error().stack || '').split('\n').slice(1).filter((line) => !line.includes(__filename) &&
    !line.includes('node:internal') && line.includes(' at ')).join('\n');
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
    this._key = apiKey;
    /** Where expectations and fault rules were declared (stack frames of the test's calls), for VerifyError. */
    this.declared = [];
  }

  /** The key whose world this acts on (header X-Newsmock-Key); null for the default world. */
  get apiKey() { return this._key; }
  set apiKey(key) { this._key = key; }

  _declare() {
    const frames = callerFrames();
    if (frames && !this.declared.includes(frames)) this.declared.push(frames);
  }

  /** The same control API acting on the world of apiKey (header X-Newsmock-Key). */
  world(apiKey) {
    if (typeof apiKey !== 'string' || apiKey === '') {
      throw new NewsmockError(`world(${JSON.stringify(apiKey)}): give the api_key your requests send, a non-empty string`);
    }
    return new Control(this.url, apiKey);
  }

  /** The control API of a world of a fresh key (prefix-<uuid>), e.g. for each of concurrent tests. */
  newWorld(prefix = 'world') {
    return this.world(`${prefix}-${crypto.randomUUID()}`);
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
    const headers = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
    let body;
    if (text !== undefined) {
      headers['Content-Type'] = 'text/plain';
      headers['X-Newsmock-Control'] = '1';
      body = text;
    } else if (json !== undefined) {
      body = JSON.stringify(json);
    }
    const key = this.apiKey;
    if (key !== null) headers[KEY_HEADER] = key;
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
  async setFaults(rules) { this._declare(); return (await this.call('PUT', '/_mock/faults', { json: { rules } })).rules; }
  /** rule: 'endpoint=query;times=1;status=503' or { endpoint, body: { query: 'storm' }, fault: { status: 503 } }. */
  async addFault(rule) {
    this._declare();
    const opts = typeof rule === 'string' ? { text: rule } : { json: rule };
    return (await this.call('POST', '/_mock/faults', opts)).rules;
  }
  async removeFault(index) { return (await this.call('DELETE', `/_mock/faults/${index}`)).rules; }
  async clearFaults() { return (await this.call('DELETE', '/_mock/faults')).rules; }

  // Clock: manual for the whole mock (-clock manual), or for this world (useManualClock).
  clock() { return this.call('GET', '/_mock/clock'); }
  /** Switches this world to a manual clock (the others keep theirs), at start or at its current time. */
  async useManualClock(start) {
    const at = start === undefined ? '' : `=${start instanceof Date ? start.toISOString() : start}`;
    await this.call('PATCH', '/_mock/settings', { json: { clock: `manual${at}` } });
    return this.clock();
  }
  /** Switches this world back to real time. */
  async useRealClock() {
    await this.call('PATCH', '/_mock/settings', { json: { clock: 'real' } });
    return this.clock();
  }
  /** duration: seconds (90) or a Go duration ('1h30m'). */
  advanceClock(duration) { return this.call('POST', '/_mock/clock', { json: { advance: goDuration(duration) } }); }
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
  async expect(expectations) { this._declare(); return (await this.call('POST', '/_mock/expectations', { json: expectations })).expectations; }
  async expectations() { return (await this.call('GET', '/_mock/expectations')).expectations; }
  async clearExpectations() { return (await this.call('DELETE', '/_mock/expectations')).expectations; }
  /** newsmock's verdict on the world; with { check: true } it rejects with a VerifyError when not met. */
  async verify({ check = false } = {}) {
    const result = await this.call('GET', '/_mock/verify');
    if (check && !result.met) {
      const err = new VerifyError(result);
      // The stack is the test's: where it declared what was not met (else where it called verify).
      const frames = this.declared.length ? this.declared.join('\n') : callerFrames();
      if (frames) err.stack = `${err.name}: ${err.message}\n${frames}`;
      throw err;
    }
    return result;
  }

  // Settings: pending_polls, pending, rate_limit, burst, job_ttl, max_jobs, shape, strict (the JSON names).
  async settings() { return (await this.call('GET', '/_mock/settings')).settings; }
  async updateSettings(changes) {
    const json = { ...changes };
    for (const name of ['pending', 'job_ttl']) if (json[name] !== undefined) json[name] = goDuration(json[name]);
    return (await this.call('PATCH', '/_mock/settings', { json })).settings;
  }
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

/**
 * A whole newsmock. Under -world-per-key the default world is reached by no request with an accepted key:
 * helpers acting on it would never be seen, so they refuse (once GET /_mock/worlds has said so).
 */
class Mock extends Control {
  constructor(url) {
    super(url);
    let worldPerKey;
    /** Resolves to true when this newsmock runs with -world-per-key. */
    this.worldPerKey = () => {
      worldPerKey ??= new Control(this.url).call('GET', '/_mock/worlds').then((a) => a.world_per_key === true,
        (err) => { worldPerKey = undefined; throw err; });
      return worldPerKey;
    };
    this._guard = async (method, p) => {
      if (await this.worldPerKey()) {
        throw new NewsmockError(`${method} ${p} would act on the default world of a newsmock running with ` +
          '-world-per-key, which no request with an api_key reaches: use mock.world(key) with the api_key ' +
          'your requests send (or mock.defaultWorld() for the default world itself)');
      }
    };
  }
}

/** A newsmock already running (a container, a CI service, another process): connect(url) gives one. */
class Remote extends Mock {
  /** Does nothing: this process did not start the mock. */
  async stop() { return null; }
}

/**
 * The control API of the newsmock already running at url (e.g. $NEWSMOCK_URL); rejects with a NewsmockError
 * unless it answers GET /_mock/health.
 */
async function connect(url) {
  const remote = new Remote(url);
  try {
    await remote.health();
  } catch (err) {
    throw new NewsmockError(`no newsmock answers at ${url} (GET /_mock/health: ${err.cause ? err.cause.message : err.message}): ` +
      'start it first, or unset NEWSMOCK_URL (setup({ url })) to start one here');
  }
  return remote;
}

/** A running newsmock this process started. stop() ends it; log holds its last lines of standard error. */
class Newsmock extends Mock {
  constructor(child, url, logLines) {
    super(url);
    this.process = child;
    this._log = logLines;
    this._exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code, signal) => resolve(code ?? signal));
    });
  }

  get log() { return this._log.join('\n'); }

  /** SIGTERM (newsmock drains and exits), then waits; SIGKILL after timeout (seconds, or a Go duration). */
  async stop({ timeout = 15 } = {}) {
    const timeoutMs = millis(timeout, 'stop({ timeout })');
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
async function start({ args = [], binary, timeout = 15, env } = {}) {
  const timeoutMs = millis(timeout, 'start({ timeout })');
  const bin = binary || binaryPath();
  const childEnv = { ...process.env, ...env };
  for (const name of CLIENT_VARIABLES) delete childEnv[name];
  const child = spawn(bin, ['-addr', '127.0.0.1:0', '-exit-with-parent', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'], env: childEnv,
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
      const timer = setTimeout(() => reject(new Error(`no listening line within ${typeof timeout === 'number' ? `${timeout} s` : timeout}`)), timeoutMs);
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

/**
 * The hooks of the test runner: Jest's or Vitest's globals; Vitest's own module when its globals are off;
 * else node:test's.
 */
function runnerHooks() {
  const names = ['beforeAll', 'afterAll', 'beforeEach', 'afterEach'];
  const pick = (o) => (o && names.every((name) => typeof o[name] === 'function') ?
    { beforeAll: o.beforeAll, afterAll: o.afterAll, beforeEach: o.beforeEach, afterEach: o.afterEach } : null);
  // Vitest keeps its module on globalThis for its workers; its hooks register on the running file.
  const found = pick(globalThis) || pick(globalThis.__vitest_index__);
  if (found) return found;
  if (process.env.VITEST || process.env.JEST_WORKER_ID) {
    throw new NewsmockError(`setup() runs under ${process.env.VITEST ? 'Vitest' : 'Jest'} but finds none of its hooks: ` +
      'pass them, setup({ hooks: { beforeAll, afterAll, beforeEach, afterEach } })');
  }
  const t = require('node:test');
  return { beforeAll: t.before, afterAll: t.after, beforeEach: t.beforeEach, afterEach: t.afterEach, nodeTest: true };
}

const CONCURRENT = 'tests of this file ran at the same time (describe.concurrent, test.concurrent, { concurrency }), ' +
  "and setup()'s mock is the running test's world: it cannot tell which test calls. Run them one at a time, or " +
  'give each concurrent test a world of its own: const world = mock.newWorld(); send world.apiKey, and end the ' +
  'test with await world.verify({ check: true })';

/** The control API of the running test's world, as setup() gives it. */
class TestWorld extends Control {
  constructor(current, server) {
    super('');
    this._current = current;
    this._server = server;
  }

  get apiKey() { return this._current().key; }
  set apiKey(key) { if (key !== null) throw new NewsmockError("setup()'s mock has the running test's key"); }
  /** The running newsmock (started here, or the one at options.url / $NEWSMOCK_URL); null before the file's tests. */
  get server() { return this._server(); }
  _declare() { this._current().declared.push(callerFrames()); }
  async call(method, p, options) {
    try { this._current(); } catch (err) { err.message = `${method} ${p}: ${err.message}`; throw err; }
    return super.call(method, p, options);
  }
  /** This test's world is not verified after it. */
  skipVerify() { this._current().check = false; }
}

/**
 * One newsmock for the test file (-world-per-key, started in a beforeAll hook, stopped in afterAll; or the one
 * at options.url or $NEWSMOCK_URL, already running), and for each test a world of its own: the object
 * returned is the control API of the running test's world, with url and apiKey (send it in your requests).
 * After each test its verify must be met (expectations, and every fault rule not optional fired), else the test
 * fails with newsmock's message, its stack at the test's calls; skipVerify() in a test skips that check.
 * hooks: { beforeAll, afterAll, beforeEach, afterEach } (node:test's before and after are taken too); by
 * default Jest's or Vitest's, else node:test's. Tests that run at the same time fail with an error saying so.
 */
function setup({ args = [], hooks, url = process.env.NEWSMOCK_URL, ...startOptions } = {}) {
  const h = hooks || runnerHooks();
  let server = null;
  const running = []; // the tests running: { name, context, key, check, declared, depth, overlapped }
  let overlap = false; // tests ran at the same time since the last moment none ran
  const current = () => {
    if (overlap) throw new NewsmockError(CONCURRENT);
    if (!running.length) {
      throw new NewsmockError("no test is running: setup()'s mock is the running test's world (Jest runs " +
        'test.concurrent tests before their beforeEach hooks: give such tests mock.newWorld()). When the ' +
        "runner's hooks are not globals, pass them: setup({ hooks: { beforeAll, afterAll, beforeEach, afterEach } })");
    }
    return running[running.length - 1];
  };
  const world = new TestWorld(current, () => server);
  (h.beforeAll || h.before)(async () => {
    if (url) {
      server = await connect(url);
      if (!(await server.worldPerKey())) {
        const at = server.url;
        server = null;
        throw new NewsmockError(`the newsmock at ${at} runs without -world-per-key, and setup() gives each test a ` +
          'world of its own key: start it with -world-per-key (in a container: -e NEWSMOCK_WORLD_PER_KEY=true)');
      }
    } else {
      server = await start({ ...startOptions, args: ['-world-per-key', ...args] });
    }
    world.url = server.url;
  });
  (h.afterAll || h.after)(() => server && server.stop());
  // (...given): Jest takes a hook with a parameter for one that calls done().
  h.beforeEach((...given) => {
    const context = given[0];
    const name = context && typeof context.fullName === 'string' ? context.fullName : null;
    const top = running[running.length - 1];
    if (top) {
      // node:test runs beforeEach for subtests too: they share their test's world.
      const subtest = name === null ? h.nodeTest === true : top.name !== null && name.startsWith(`${top.name} > `);
      if (subtest) { top.depth++; return; }
      overlap = true;
      for (const test of running) test.overlapped = true;
    }
    running.push({ name, context, key: `test-${crypto.randomUUID()}`, check: true, declared: [], depth: 0,
      overlapped: overlap });
  });
  h.afterEach(async (...given) => {
    const context = given[0];
    let i = running.findIndex((test) => test.context !== undefined && test.context === context);
    if (i < 0) i = running.length - 1;
    const test = running[i];
    if (!test) return;
    if (test.depth > 0) { test.depth--; return; }
    running.splice(i, 1);
    if (!running.length) overlap = false;
    if (!server) return;
    const mine = server.world(test.key);
    mine.declared = test.declared;
    try {
      if (test.overlapped) throw new NewsmockError(CONCURRENT);
      if (test.check) await mine.verify({ check: true });
    } catch (err) {
      if (err instanceof VerifyError) {
        err.message += '\n(setup() checks this after each test; call skipVerify() in the test to skip the check)';
        err.stack = err.stack.replace(/^[^\n]*(\n|$)/, `${err.name}: ${err.message}$1`);
      }
      throw err;
    } finally {
      await mine.dropWorld().catch(() => {});
    }
  });
  return world;
}

module.exports = {
  start, setup, connect, binaryPath, Control, Mock, Newsmock, Remote, NewsmockError, VerifyError, LISTEN_PREFIX, KEY_HEADER,
};
