// Early answers from Node's fetch: a request newsmock refuses before reading
// its body gets its JSON answer, 50 times out of 50, for each kind of early
// refusal. Run with the newsmock to test in NEWSMOCK:
//   NEWSMOCK=/path/to/newsmock node --test examples/node/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

let mock, url;

before(async () => {
  const bin = process.env.NEWSMOCK;
  assert.ok(bin, 'set NEWSMOCK to the newsmock binary to test (go build -o /tmp/newsmock ./cmd/newsmock)');
  mock = spawn(bin, ['-addr', '127.0.0.1:0', '-log-level', 'off'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of mock.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  url = out.trim().replace(/^newsmock listening on /, '');
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
});

after(async () => {
  mock.kill('SIGTERM');
  await once(mock, 'exit');
});

const big = '{"api_key": "k", "query": "' + 'x'.repeat(2 << 20) + '"}';
const cases = [
  ['/api/v2/query', { 'Content-Type': 'application/json' }, big, 413, 'the request body is larger than 1 MiB'],
  ['/_mock/clock', { 'Content-Type': 'application/json' }, big, 413, 'the request body is larger than 1 MiB'],
  ['/_mock/faults', { 'Content-Type': 'text/plain' }, 'status=503'.repeat(50000), 415, 'POST /_mock/faults needs Content-Type: application/json'],
  ['/api/v2/query', { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, big, 403, 'the mock takes no request from a web page of another site'],
];

for (const [path, headers, body, status, message] of cases) {
  test(`POST ${path} answered ${status} every time`, async () => {
    for (let i = 0; i < 50; i++) {
      const resp = await fetch(url + path, { method: 'POST', headers, body });
      const answer = await resp.json();
      assert.equal(resp.status, status, `try ${i}: ${JSON.stringify(answer)}`);
      assert.ok(answer.message.startsWith(message), `try ${i}: ${answer.message}`);
    }
  });
}
