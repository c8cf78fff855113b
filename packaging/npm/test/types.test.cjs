// The package's typings compile under "strict" with the pinned typescript and @types/node of
// tools/dist/runner-examples (RUNNER_MODULES), as a TypeScript user of each runner would write (tools/dist/check).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const runners = process.env.RUNNER_MODULES;
const skip = !runners && (process.env.CI === 'true' ? false :
  'RUNNER_MODULES is not set: npm ci in tools/dist/runner-examples, then RUNNER_MODULES=<it>/node_modules');

const SOURCE = `
import { test, before, after, beforeEach, afterEach } from 'node:test';
// Hooks shaped as Vitest's: a listener with a context, a timeout, a cleanup function as the answer.
declare const vitest: Record<'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach',
  (fn: (context: { task: { name: string } }) => Promise<void | (() => void)> | void, timeout?: number) => void>;
import { setup, start, connect, Control, NewsmockError, VerifyError, type Duration, type VerifyResult } from '@newssearch/newsmock';

const mock = setup({ url: process.env.NEWSMOCK_URL, hooks: { beforeAll: before, afterAll: after, beforeEach, afterEach } });
setup({ hooks: { beforeAll: vitest.beforeAll, afterAll: vitest.afterAll, beforeEach: vitest.beforeEach, afterEach: vitest.afterEach } });

test('typed', async () => {
  const key: string = mock.apiKey;
  const wait: Duration = 2;
  await mock.addFault({ endpoint: 'query', body: { query: 'storm', page: 2 }, fault: { status: 503 } });
  await mock.useManualClock(new Date('2026-01-15T12:00:00Z'));
  await mock.advanceClock(90);
  await mock.useRealClock();
  await mock.updateSettings({ strict: true, pending: 2, job_ttl: '90s' });
  const n: number = await mock.journalCount({ wait, min: 1, body: { query: 'storm' } });
  const verdict: VerifyResult = await mock.verify();
  const other: Control = mock.newWorld();
  const server = await start({ timeout: 15, env: { NEWSMOCK_LOG_LEVEL: 'warn' } });
  const pid: number | undefined = server.process.pid;
  await server.stop({ timeout: '5s' });
  const remote = await connect(server.url);
  const perKey: boolean = await remote.worldPerKey();
  try { await other.verify({ check: true }); } catch (err) {
    if (err instanceof VerifyError) console.log(err.result.unexpected_count);
    if (err instanceof NewsmockError) console.log(err.status);
  }
  console.log(key, n, verdict.met, pid, perKey);
});
`;

test('index.d.ts compiles under strict, with @types/node', { skip }, (t) => {
  assert.ok(runners, 'CI=true: RUNNER_MODULES must name tools/dist/runner-examples/node_modules');
  const dir = fs.mkdtempSync(path.join(__dirname, 'types-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'use.mts'), SOURCE);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', skipLibCheck: false,
      typeRoots: [path.join(runners, '@types')], types: ['node'],
    },
    files: ['use.mts'],
  }));
  const run = spawnSync(process.execPath, [path.join(runners, 'typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
  assert.equal(run.status, 0, `tsc --strict:\n${run.stdout}${run.stderr}`);
});
