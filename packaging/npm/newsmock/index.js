'use strict';
// @newssearch/newsmock: start newsmock (the mock news search service) from Node.js tests and drive its
// control API (docs/control-api.md). No dependencies besides the platform package with the binary.
const { spawn } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

const LISTEN_PREFIX = 'newsmock listening on ';
const KEY_HEADER = 'X-Newsmock-Key';
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

class NewsmockError extends Error {
  constructor(message, { status, body } = {}) {
    super(message);
    this.name = 'NewsmockError';
    this.status = status;
    this.body = body;
  }
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
      'build newsmock (go install github.com/newssearch/newssearch-go/cmd/newsmock@latest) and set NEWSMOCK_BINARY to it');
  }
  const pkg = `@newssearch/newsmock-${platform}`;
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new NewsmockError(`${pkg}, the package with the newsmock binary for this machine, is not installed. ` +
      '@newssearch/newsmock lists it in optionalDependencies, which npm skips under --omit=optional ' +
      '(also --no-optional, or omit=optional in .npmrc): install again without it, or add ' +
      `${pkg} to your devDependencies, or set NEWSMOCK_BINARY to a newsmock binary`);
  }
  return path.join(dir, 'bin', process.platform === 'win32' ? 'newsmock.exe' : 'newsmock');
}

/** The control API of one newsmock, acting on one world: the default one, or that of apiKey. */
class Control {
  constructor(url, apiKey = null) {
    this.url = url.replace(/\/+$/, '');
    this.apiKey = apiKey;
  }

  /** The same control API acting on the world of apiKey (header X-Newsmock-Key). */
  world(apiKey) {
    return new Control(this.url, apiKey);
  }

  /** One control call: json is sent as JSON, text as plain text (a -fault rule). */
  async call(method, p, { json, text, query } = {}) {
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

  // Journal.
  async journal(filter = {}) { return (await this.call('GET', '/_mock/journal', { query: filter })).entries; }
  async journalCount(filter = {}) {
    return (await this.call('GET', '/_mock/journal', { query: { ...filter, count: 'true' } })).count;
  }
  clearJournal() { return this.call('DELETE', '/_mock/journal'); }

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

const live = new Set();
let exitHook = false;

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
  }

  get log() { return this._log.join('\n'); }

  /** SIGTERM (newsmock drains and exits), then waits; SIGKILL after timeoutMs. Resolves to the exit code. */
  async stop({ timeoutMs = 15000 } = {}) {
    const child = this.process;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try { await this._exited; } finally { clearTimeout(timer); }
    }
    live.delete(child);
    return this._exited;
  }

  async [Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose')]() { await this.stop(); }
}

/**
 * Starts newsmock on 127.0.0.1 at a free port and resolves once it listens.
 * args: more newsmock flags (an -addr among them wins); binary: defaults to binaryPath().
 */
function start({ args = [], binary, timeoutMs = 15000, env } = {}) {
  const bin = binary || binaryPath();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-addr', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const logLines = [];
    let settled = false;
    let stdoutBuf = '';
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // Let the last lines of standard error arrive.
      setTimeout(() => reject(new NewsmockError(
        `${bin} ${args.join(' ')}: ${why}; its standard error:\n${logLines.join('\n') || '(nothing)'}`)), 50);
    };
    const timer = setTimeout(() => fail(`no listening line within ${timeoutMs} ms`), timeoutMs);
    let errBuf = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      errBuf += chunk;
      const lines = errBuf.split('\n');
      errBuf = lines.pop();
      logLines.push(...lines);
      if (logLines.length > 200) logLines.splice(0, logLines.length - 200);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (settled) return;
      stdoutBuf += chunk;
      for (const line of stdoutBuf.split('\n').slice(0, -1)) {
        if (line.startsWith(LISTEN_PREFIX)) {
          settled = true;
          clearTimeout(timer);
          live.add(child);
          if (!exitHook) {
            exitHook = true;
            process.on('exit', () => { for (const c of live) c.kill('SIGKILL'); });
          }
          resolve(new Newsmock(child, line.slice(LISTEN_PREFIX.length).trim(), logLines));
          return;
        }
      }
    });
    child.on('error', (err) => fail(`could not start: ${err.message}`));
    child.on('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
  });
}

module.exports = { start, binaryPath, Control, Newsmock, NewsmockError, LISTEN_PREFIX, KEY_HEADER };
