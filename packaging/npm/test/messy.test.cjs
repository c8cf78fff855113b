// The data and timing fault items (a messy service) from Node: the header, rules through the helper,
// and two runs of the same seed answering the same bytes.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { start, NewsmockError } = require('@newssearch/newsmock');

async function query(url, fault, body) {
  const res = await fetch(`${url}/api/v2/query`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Mock-Fault': fault },
    body: JSON.stringify({ api_key: 'k', query: '*', ...body }),
  });
  return { status: res.status, text: await res.text() };
}

const bounds = { start_date: '2026-01-10T13:00:00Z', end_date: '2026-01-10T13:20:00Z' };
const items = [['window=day', bounds], ['window=90m', bounds], ['empty-page=2', { page: 2 }],
  ['overlap=3', { page: 2 }], ['arrivals=2', {}], ['latency=1ms..20ms', {}], ['dribble=100ms', {}]];

async function run() {
  const mock = await start({ args: ['-seed', '5', '-clock', 'manual=2026-01-15T12:00:00Z'] });
  const out = [];
  try {
    for (const [item, body] of items) {
      const plain = JSON.parse((await query(mock.url, '', body)).text).results;
      const got = await query(mock.url, item, body);
      assert.equal(got.status, 200, `${item}: ${got.text}`);
      out.push(got.text);
      const res = JSON.parse(got.text).results;
      if (item.startsWith('window')) assert.ok(res.totalResults > plain.totalResults, item);
      else if (item.startsWith('empty-page')) assert.deepEqual([res.articles, res.totalResults], [[], plain.totalResults]);
      else if (item.startsWith('overlap')) {
        const page1 = JSON.parse((await query(mock.url, '', {})).text).results.articles;
        assert.deepEqual(res.articles.map((a) => a._id), [...page1.slice(-3), ...plain.articles].map((a) => a._id));
      } else if (item.startsWith('arrivals')) assert.equal(res.totalResults, plain.totalResults + 2);
      else assert.equal(got.text, JSON.stringify({ results: plain, state: 'SUCCESS' }), item);
    }
    await mock.setFaults([{ endpoint: 'query', times: 1, fault: { overlap: 2 } }]);
    await query(mock.url, '', { page: 2 });
    assert.equal((await mock.faults())[0].fired, 1);
    await assert.rejects(mock.addFault('endpoint=query;arrivals=1000'),
      (err) => err instanceof NewsmockError && err.status === 400 && /e\.g\. arrivals=2/.test(err.message));
    const bad = await query(mock.url, 'latency=2s..1s', {});
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.text).message, /e\.g\. latency=100ms\.\.2s/);
    out.push(JSON.stringify(await mock.journal()));
  } finally {
    await mock.stop();
  }
  return out;
}

test('a messy service: each data and timing item, the same bytes twice', async () => {
  assert.deepEqual(await run(), await run());
});
