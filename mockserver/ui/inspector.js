// newsmock inspector. Plain JavaScript, no dependencies, no network beyond
// the mock server itself. Every URL is relative to /_mock/ui, so the page
// also works when the mock's handler is mounted under a prefix. Text from
// the server is only ever set with textContent, never parsed as HTML.
(function () {
  'use strict';

  // ---------------------------------------------------------------- helpers

  var $ = function (id) { return document.getElementById(id); };

  // el builds an element: el('td', {className: 'num', text: '12', title: 't'}, child…).
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        var v = props[k];
        if (v === undefined || v === null) return;
        if (k === 'text') node.textContent = v;
        else if (k === 'className') node.className = v;
        else if (k === 'dataset') Object.keys(v).forEach(function (d) { node.dataset[d] = v[d]; });
        else node.setAttribute(k, v);
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === false) continue;
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  var statusTexts = {
    200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
    405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
    413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content',
    429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error',
    501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout'
  };

  function statusLabel(code) {
    if (!code) return 'no response (dropped, or cancelled during injected latency)';
    return code + (statusTexts[code] ? ' ' + statusTexts[code] : '');
  }

  function statusClass(code) { return 's' + Math.floor((code || 0) / 100); }

  // formatDuration turns nanoseconds into a short reading.
  function formatDuration(ns) {
    if (typeof ns !== 'number') return '';
    var ms = ns / 1e6;
    if (ms < 10) return ms.toFixed(2) + ' ms';
    if (ms < 1000) return ms.toFixed(1) + ' ms';
    return (ms / 1000).toFixed(2) + ' s';
  }

  // clockTime shows the time of day of an RFC 3339 stamp, in UTC.
  function clockTime(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return String(iso || '');
    return d.toISOString().slice(11, 23);
  }

  // pretty indents a body: a JSON value (the journal's), or JSON text (a
  // job's); any other text is shown as it is.
  function pretty(body) {
    if (!body) return '';
    if (typeof body !== 'string') return JSON.stringify(body, null, 2);
    try { return JSON.stringify(JSON.parse(body), null, 2); } catch (e) { return body; }
  }

  // world is the world the page shows: '' for the default world, else its
  // id as GET /_mock/worlds lists it. Every control call names it with the
  // X-Newsmock-World header (the page never knows API keys); the calls
  // about the whole server (health, worlds) and the API calls of "Try it"
  // (which go to the world of the key they carry) do not.
  var world = '';
  var worldsState = { count: 1, force: false }; // how many worlds health counts; force: read the list now
  var serverWide = { health: true, worlds: true };

  // request sends one HTTP request and returns {status, ok, body, text}; it
  // rejects only when the server cannot be reached.
  function request(method, url, payload) {
    var init = { method: method, cache: 'no-store', headers: { Accept: 'application/json' } };
    if (world && url.indexOf('../') !== 0 && !serverWide[url]) init.headers['X-Newsmock-World'] = world;
    if (payload !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(payload);
    }
    return fetch(url, init).then(function (r) {
      return r.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
        return { status: r.status, ok: r.ok, body: body, text: text };
      });
    });
  }

  // messageOf is the server's message for a failed answer.
  function messageOf(res) {
    if (res.body && typeof res.body.message === 'string') return res.body.message;
    return 'HTTP ' + statusLabel(res.status);
  }

  // ---------------------------------------------------------------- live status

  var live = $('live');
  function setLive(ok, text) {
    live.className = 'live ' + (ok ? 'on' : 'off');
    live.textContent = text;
  }

  // A loop runs fn now and then every interval() ms, one run at a time;
  // kick runs it again as soon as possible.
  function loop(fn, interval) {
    var timer = null, running = false, again = false;
    function schedule(ms) {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(tick, ms);
    }
    function tick() {
      timer = null;
      if (running) { again = true; return; }
      running = true;
      Promise.resolve().then(fn).catch(function (err) {
        setLive(false, 'server unreachable: ' + (err && err.message ? err.message : String(err)) + ' (retrying)');
      }).then(function () {
        running = false;
        if (again) { again = false; schedule(0); } else { schedule(interval()); }
      });
    }
    return { kick: function () { schedule(0); } };
  }

  // ---------------------------------------------------------------- tabs

  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role=tab]'));
  var current = '';
  var onShow = {};

  function showTab(name, focus) {
    var found = tabs.some(function (t) { return t.dataset.tab === name; });
    if (!found) name = tabs[0].dataset.tab;
    current = name;
    tabs.forEach(function (t) {
      var on = t.dataset.tab === name;
      t.setAttribute('aria-selected', on ? 'true' : 'false');
      t.tabIndex = on ? 0 : -1;
      $('panel-' + t.dataset.tab).hidden = !on;
      if (on && focus) t.focus();
    });
    if (location.hash !== '#' + name) history.replaceState(null, '', '#' + name);
    if (onShow[name]) onShow[name]();
  }

  tabs.forEach(function (t, i) {
    t.addEventListener('click', function () { showTab(t.dataset.tab); });
    t.addEventListener('keydown', function (ev) {
      var step = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      ev.preventDefault();
      showTab(tabs[(i + step + tabs.length) % tabs.length].dataset.tab, true);
    });
  });
  window.addEventListener('hashchange', function () { showTab(location.hash.slice(1)); });

  // ---------------------------------------------------------------- server info

  function refreshHealth() {
    return request('GET', 'health').then(function (res) {
      if (!res.ok || !res.body) return;
      var b = res.body;
      var shift = b.date_shift_seconds ? ' · dates shifted ' + Math.round(b.date_shift_seconds / 86400) + ' days' : '';
      var worlds = b.worlds > 1 ? ' · ' + b.worlds + ' worlds' : '';
      if (typeof b.worlds === 'number' && b.worlds !== worldsState.count) {
        worldsState.count = b.worlds;
        refreshWorldsSoon();
      }
      $('server-info').textContent = b.articles + ' articles · ' + b.jobs + (b.jobs === 1 ? ' job' : ' jobs') + shift + worlds;
    });
  }
  var healthLoop = loop(refreshHealth, function () { return 5000; });

  // ---------------------------------------------------------------- requests

  var journal = { entries: [], text: null, selected: null, paused: false };
  var apiPaths = ['/api/v2/query', '/api/v2/query-async', '/api/v2/get-results', '/api/v2/headlines'];

  function refreshJournal() {
    if (journal.paused) return;
    var asked = world;
    return request('GET', 'journal').then(function (res) {
      if (asked !== world) return; // another world was picked meanwhile
      if (res.status === 404 && world) refreshWorldsSoon(); // the world was dropped
      if (!res.ok || !res.body) throw new Error('GET /_mock/journal answered ' + statusLabel(res.status) + ': ' + messageOf(res));
      setLive(true, 'live · updated ' + new Date().toISOString().slice(11, 19) + ' UTC');
      if (res.text === journal.text) return;
      journal.text = res.text;
      journal.entries = (res.body.entries || []).slice().reverse(); // newest first
      renderRequests();
    });
  }
  var journalLoop = loop(refreshJournal, function () {
    if (document.hidden) return 5000;
    return current === 'requests' ? 500 : 2000;
  });

  function matches(e) {
    var ep = $('filter-endpoint').value;
    if (ep === 'other' ? apiPaths.indexOf(e.path) >= 0 : ep && e.path !== ep) return false;
    var st = $('filter-status').value, s = e.status || 0;
    if (st === '2xx' && !(s >= 200 && s < 300)) return false;
    if (st === '4xx' && !(s >= 400 && s < 500)) return false;
    if (st === '5xx' && !(s >= 500 && s < 600)) return false;
    if (st === 'none' && s !== 0) return false;
    if (st === 'fault' && !e.fault) return false;
    var text = $('filter-text').value.trim().toLowerCase();
    if (text) {
      var hay = [e.query_id, e.request_id, JSON.stringify(e.body), e.path, e.fault].join('\n').toLowerCase();
      if (hay.indexOf(text) < 0) return false;
    }
    return true;
  }

  function cell(text, className, label, title) {
    return el('td', { className: className, text: text, 'data-label': label, title: title });
  }

  function renderRequests() {
    var body = $('requests-body');
    var all = journal.entries;
    var shown = all.filter(matches);
    clear(body);
    var frag = document.createDocumentFragment();
    shown.forEach(function (e) {
      var tr = el('tr', { dataset: { seq: String(e.seq) }, tabindex: '0', 'aria-selected': e.seq === journal.selected ? 'true' : 'false' },
        cell(String(e.seq), 'num', '#'),
        cell(clockTime(e.time), 'mono', 'Time', e.time),
        cell(e.method, 'mono', 'Method'),
        cell(e.path, 'mono c-path', 'Path'),
        cell(e.status ? String(e.status) : '—', 'c-status ' + statusClass(e.status), 'Status', statusLabel(e.status)),
        cell(e.fault || '', 'c-fault fault', 'Fault'),
        cell(e.query_id || '', 'mono c-query', 'query_id'),
        cell(formatDuration(e.duration_ns), 'num', 'Latency'));
      frag.appendChild(tr);
    });
    body.appendChild(frag);
    $('requests-empty').hidden = shown.length > 0;
    $('requests-empty').textContent = all.length
      ? 'No request matches the filters.'
      : 'No requests yet. Point a client at this server; each request shows up here as it arrives.';
    $('requests-summary').textContent = shown.length === all.length
      ? all.length + (all.length === 1 ? ' request' : ' requests') + ', newest first'
      : 'showing ' + shown.length + ' of ' + all.length + ' requests, newest first';
    $('requests-badge').textContent = all.length ? String(all.length) : '';
    renderDetail();
  }

  function renderDetail() {
    var aside = $('request-detail');
    var e = null;
    for (var i = 0; i < journal.entries.length; i++) {
      if (journal.entries[i].seq === journal.selected) { e = journal.entries[i]; break; }
    }
    if (!e) { aside.hidden = true; return; }
    aside.hidden = false;
    $('detail-title').textContent = 'Request #' + e.seq;
    var dl = $('detail-fields');
    clear(dl);
    [['Request id', e.request_id], ['Time', e.time], ['Method', e.method], ['Path', e.path],
      ['Status', statusLabel(e.status)], ['Fault', e.fault || 'none'], ['query_id', e.query_id || '—'],
      ['Latency', formatDuration(e.duration_ns) || '—']].forEach(function (f) {
      dl.appendChild(el('dt', { text: f[0] }));
      dl.appendChild(el('dd', { text: f[1], className: f[0] === 'Status' ? statusClass(e.status) : null }));
    });
    $('detail-body').textContent = e.body ? pretty(e.body) : '(no body stored: the body was empty or not valid JSON)';
  }

  function select(seq) {
    journal.selected = journal.selected === seq ? null : seq;
    var rows = $('requests-body').children;
    for (var i = 0; i < rows.length; i++) {
      rows[i].setAttribute('aria-selected', Number(rows[i].dataset.seq) === journal.selected ? 'true' : 'false');
    }
    renderDetail();
  }

  $('requests-body').addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr');
    if (tr) select(Number(tr.dataset.seq));
  });
  $('requests-body').addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    var tr = ev.target.closest('tr');
    if (tr) { ev.preventDefault(); select(Number(tr.dataset.seq)); }
  });
  $('detail-close').addEventListener('click', function () { select(journal.selected); });
  ['filter-endpoint', 'filter-status'].forEach(function (id) { $(id).addEventListener('change', renderRequests); });
  $('filter-text').addEventListener('input', renderRequests);
  $('request-filters').addEventListener('submit', function (ev) { ev.preventDefault(); });
  $('pause').addEventListener('click', function () {
    journal.paused = !journal.paused;
    this.setAttribute('aria-pressed', journal.paused ? 'true' : 'false');
    this.textContent = journal.paused ? 'Resume' : 'Pause';
    if (journal.paused) setLive(true, 'paused: new requests are not shown until you resume');
    else journalLoop.kick();
  });
  $('clear-journal').addEventListener('click', function () {
    var btn = this;
    btn.disabled = true;
    request('DELETE', 'journal').then(function (res) {
      if (!res.ok) throw new Error(messageOf(res));
      journal.selected = null;
      journalLoop.kick();
    }).catch(function (err) {
      setLive(false, 'could not clear the journal: ' + err.message);
    }).then(function () { btn.disabled = false; });
  });

  // ---------------------------------------------------------------- jobs

  // The jobs list is read only while the Jobs tab is shown: reading it
  // consults the server clock, which a test's clock may count.
  var jobsState = { list: [], text: null, selected: null };

  function refreshJobs() {
    if (current !== 'jobs') return;
    var asked = world;
    return request('GET', 'jobs').then(function (res) {
      if (asked !== world) return;
      if (!res.ok || !res.body) throw new Error('GET /_mock/jobs answered ' + statusLabel(res.status) + ': ' + messageOf(res));
      if (res.text === jobsState.text) return;
      jobsState.text = res.text;
      jobsState.list = (res.body.jobs || []).slice().reverse(); // newest first
      renderJobs();
    });
  }
  var jobsLoop = loop(refreshJobs, function () { return document.hidden ? 5000 : 1000; });

  function findJob(id) {
    for (var i = 0; i < jobsState.list.length; i++) if (jobsState.list[i].query_id === id) return jobsState.list[i];
    return null;
  }

  function stateCell(state, label) {
    return el('td', { className: 'state-' + state, text: state, 'data-label': label });
  }

  function renderJobs() {
    var body = $('jobs-body');
    clear(body);
    var frag = document.createDocumentFragment();
    jobsState.list.forEach(function (j) {
      frag.appendChild(el('tr', { dataset: { id: j.query_id }, tabindex: '0', 'aria-selected': j.query_id === jobsState.selected ? 'true' : 'false' },
        cell(j.query_id, 'mono c-id', 'query_id'),
        stateCell(j.state, 'State'),
        cell(j.query, 'wrap c-query', 'Query'),
        cell(j.owner, 'mono', 'Owner', 'the fingerprint of the key that submitted it (the key is never shown)'),
        cell(clockTime(j.created), 'mono', 'Submitted', j.created),
        cell(clockTime(j.expires), 'mono', 'Expires', j.expires),
        cell(String(j.polls), 'num c-polls', 'Polls')));
    });
    body.appendChild(frag);
    var n = jobsState.list.length;
    $('jobs-empty').hidden = n > 0;
    $('jobs-summary').textContent = n + (n === 1 ? ' live job' : ' live jobs') + ', newest first';
    $('jobs-badge').textContent = n ? String(n) : '';
    if (jobsState.selected && !findJob(jobsState.selected)) jobsState.selected = null;
    renderJob();
  }

  function renderJob() {
    var aside = $('job-detail');
    var j = jobsState.selected && findJob(jobsState.selected);
    if (!j) { aside.hidden = true; return; }
    var wasHidden = aside.hidden;
    aside.hidden = false;
    $('job-title').textContent = 'Job ' + j.query_id;
    var dl = $('job-fields');
    clear(dl);
    [['query_id', j.query_id], ['State', j.state], ['Message', j.message || '—'], ['Query', j.query],
      ['Owner', j.owner + ' (key fingerprint)'], ['Submitted', j.created], ['Last used', j.last_used],
      ['Expires', j.expires], ['Polls', String(j.polls)]].forEach(function (f) {
      dl.appendChild(el('dt', { text: f[0] }));
      dl.appendChild(el('dd', { text: f[1], className: f[0] === 'State' ? 'state-' + j.state : null }));
    });
    $('job-body').textContent = pretty(j.body);
    if (wasHidden) showJobError('');
  }

  function selectJob(id) {
    jobsState.selected = jobsState.selected === id ? null : id;
    var rows = $('jobs-body').children;
    for (var i = 0; i < rows.length; i++) {
      rows[i].setAttribute('aria-selected', rows[i].dataset.id === jobsState.selected ? 'true' : 'false');
    }
    $('job-detail').hidden = true;
    renderJob();
  }

  function showJobError(msg) {
    var p = $('job-error');
    p.textContent = msg;
    p.hidden = !msg;
    $('job-message').setAttribute('aria-invalid', msg ? 'true' : 'false');
  }

  function jobsStatus(text, isError) {
    var box = $('jobs-status');
    box.className = 'status' + (isError ? ' error' : ' ok');
    box.textContent = text;
  }

  function syncJobForm() { $('job-message').disabled = $('job-state').value !== 'FAILED'; }

  $('jobs-body').addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr');
    if (tr) selectJob(tr.dataset.id);
  });
  $('jobs-body').addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    var tr = ev.target.closest('tr');
    if (tr) { ev.preventDefault(); selectJob(tr.dataset.id); }
  });
  $('job-close').addEventListener('click', function () { selectJob(jobsState.selected); });
  $('job-state').addEventListener('change', syncJobForm);
  syncJobForm();

  function jobButtons(on) { $('job-force').disabled = on; $('job-expire').disabled = on; }

  $('job-force-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var id = jobsState.selected;
    if (!id) return;
    var state = $('job-state').value;
    var payload = { state: state };
    var msg = $('job-message').value;
    if (state === 'FAILED' && msg.trim()) payload.message = msg;
    jobButtons(true);
    showJobError('');
    request('POST', 'jobs/' + encodeURIComponent(id), payload).then(function (res) {
      if (!res.ok) {
        showJobError(messageOf(res));
        if (res.status === 404) jobsLoop.kick();
        return;
      }
      var what = state === 'SUCCESS' ? 'its next get-results answers SUCCESS with results'
        : state === 'FAILED' ? 'its next get-results answers FAILED' + (payload.message ? ' with your message' : '')
          : 'it answers PENDING until forced again or it expires';
      jobsStatus('Forced ' + id + ' to ' + state + ': ' + what + '.');
      jobsLoop.kick();
    }).catch(function (err) {
      showJobError('The request did not reach the server: ' + err.message);
    }).then(function () { jobButtons(false); });
  });

  $('job-expire').addEventListener('click', function () {
    var id = jobsState.selected;
    if (!id) return;
    jobButtons(true);
    showJobError('');
    request('DELETE', 'jobs/' + encodeURIComponent(id)).then(function (res) {
      if (!res.ok) {
        showJobError(messageOf(res));
        jobsLoop.kick();
        return;
      }
      jobsState.selected = null;
      jobsStatus('Expired ' + id + ': its next get-results gets the 404 of an expired query_id.');
      jobsLoop.kick();
    }).catch(function (err) {
      showJobError('The request did not reach the server: ' + err.message);
    }).then(function () { jobButtons(false); });
  });

  // ---------------------------------------------------------------- faults

  var faultsState = { rules: [], text: null };

  function refreshFaults() {
    var asked = world;
    return request('GET', 'faults').then(function (res) {
      if (asked !== world) return;
      if (!res.ok || !res.body) throw new Error('GET /_mock/faults answered ' + statusLabel(res.status) + ': ' + messageOf(res));
      showFaults(res);
    });
  }
  var faultsLoop = loop(refreshFaults, function () {
    if (document.hidden) return 5000;
    return current === 'faults' ? 500 : 3000;
  });

  // showFaults renders an answer of /_mock/faults (any method answers the list).
  function showFaults(res) {
    if (res.text === faultsState.text) return;
    faultsState.text = res.text;
    faultsState.rules = res.body.rules || [];
    renderFaults();
  }

  function fires(r) {
    if (r.every) return 'every ' + r.every + (r.every === 2 ? 'nd' : r.every === 3 ? 'rd' : 'th') + ' match';
    if (r.probability) return 'with chance ' + r.probability;
    return 'every match';
  }

  function renderFaults() {
    var body = $('faults-body');
    clear(body);
    var frag = document.createDocumentFragment();
    faultsState.rules.forEach(function (r) {
      var remove = el('button', { type: 'button', className: 'danger', dataset: { index: String(r.index), text: r.text },
        'aria-label': 'Remove rule ' + r.index + ': ' + r.text, text: 'Remove' });
      frag.appendChild(el('tr', { dataset: { index: String(r.index) } },
        cell(String(r.index), 'num', '#'),
        cell(r.text, 'mono wrap c-text', 'Rule'),
        cell(r.endpoint || 'all', 'mono', 'Endpoint'),
        cell(fires(r), '', 'Fires'),
        cell(String(r.matched), 'num c-matched', 'Matched'),
        cell(String(r.fired), 'num c-fired', 'Fired'),
        cell(r.remaining === null || r.remaining === undefined ? '∞' : String(r.remaining), 'num c-remaining', 'Remaining',
          r.remaining === null ? 'no limit (times not set)' : null),
        el('td', { className: 'act' }, remove)));
    });
    body.appendChild(frag);
    var n = faultsState.rules.length;
    $('faults-empty').hidden = n > 0;
    $('faults-summary').textContent = n
      ? n + (n === 1 ? ' rule' : ' rules') + ' in force, checked in order; the first that fires applies'
      : 'No rules in force.';
    $('faults-badge').textContent = n ? String(n) : '';
    $('faults-clear').disabled = n === 0;
  }

  function faultsStatus(text, isError) {
    var box = $('faults-status');
    box.className = 'status' + (isError ? ' error' : ' ok');
    box.textContent = text;
  }

  $('faults-body').addEventListener('click', function (ev) {
    var btn = ev.target.closest('button[data-index]');
    if (!btn) return;
    btn.disabled = true;
    var index = btn.dataset.index, text = btn.dataset.text;
    request('DELETE', 'faults/' + index + '?text=' + encodeURIComponent(text)).then(function (res) {
      if (!res.ok) {
        faultsStatus('Rule ' + index + ' was not removed: ' + messageOf(res), true);
        faultsLoop.kick();
        return;
      }
      faultsStatus('Removed rule ' + index + ': ' + text + '.');
      showFaults(res);
    }).catch(function (err) {
      faultsStatus('The request did not reach the server: ' + err.message, true);
      btn.disabled = false;
    });
  });

  $('faults-clear').addEventListener('click', function () {
    var btn = this;
    btn.disabled = true;
    request('DELETE', 'faults').then(function (res) {
      if (!res.ok) { faultsStatus('The rules were not cleared: ' + messageOf(res), true); return; }
      faultsStatus('Removed every rule.');
      showFaults(res);
    }).catch(function (err) {
      faultsStatus('The request did not reach the server: ' + err.message, true);
    }).then(function () { btn.disabled = faultsState.rules.length === 0; });
  });

  // The add form checks nothing itself: it sends what was typed and the
  // server's verdict is the one shown, word for word, beside the field its
  // message names. A number field holds a number when it reads as one, and
  // is sent as the text typed otherwise, so that the server can say what is
  // wrong with it.
  var faultFields = ['endpoint', 'every', 'probability', 'times', 'status', 'retry_after', 'latency', 'job', 'drop', 'truncate',
    'dribble', 'window', 'empty_page', 'overlap', 'arrivals', 'fault'];
  var fieldInputs = {
    endpoint: 'fault-endpoint', every: 'fault-every', probability: 'fault-probability', times: 'fault-times',
    status: 'fault-status', retry_after: 'fault-retry', latency: 'fault-latency', job: 'fault-job',
    drop: 'fault-drop', truncate: 'fault-truncate', dribble: 'fault-dribble', window: 'fault-window',
    empty_page: 'fault-empty-page', overlap: 'fault-overlap', arrivals: 'fault-arrivals', fault: 'fault-what'
  };

  // fieldOf names the form field a message of the server is about.
  var fieldPatterns = [
    [/^fields every and probability/, 'probability'],
    [/^(field )?endpoint\b/, 'endpoint'],
    [/^(field )?every\b/, 'every'],
    [/^(field )?probability\b/, 'probability'],
    [/^(field )?times\b/, 'times'],
    [/^fault\.latency|^(fault .*: )?latency\b/, 'latency'],
    [/^fault\.status|^(fault .*: )?status\b/, 'status'],
    [/^fault\.retry_after|^(fault .*: )?retry-after\b/, 'retry_after'],
    [/^fault\.job|^a job fault|^(fault .*: )?job\b/, 'job'],
    [/^fault\.drop|^(fault .*: )?drop\b/, 'drop'],
    [/^fault\.truncate/, 'truncate'],
    [/^fault\.dribble|^(fault .*: )?dribble\b/, 'dribble'],
    [/^fault\.window|^(fault .*: )?window\b/, 'window'],
    [/^fault\.empty_page|^(fault .*: )?empty-page\b/, 'empty_page'],
    [/^fault\.overlap|^(fault .*: )?overlap\b/, 'overlap'],
    [/^fault\.arrivals|^(fault .*: )?arrivals\b/, 'arrivals'],
    [/^fault\b|^the rule has no action/, 'fault']
  ];
  function fieldOf(message) {
    var m = message.replace(/^fault rule \d+:?\s*/, '').toLowerCase();
    for (var i = 0; i < fieldPatterns.length; i++) if (fieldPatterns[i][0].test(m)) return fieldPatterns[i][1];
    return 'fault';
  }

  function clearFieldErrors() {
    faultFields.forEach(function (f) {
      var e = $('err-' + f);
      e.textContent = ''; e.hidden = true;
      $(fieldInputs[f]).removeAttribute('aria-invalid');
    });
  }

  function numberOrText(v) {
    var t = v.trim();
    return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t) ? Number(t) : t;
  }

  function faultRule() {
    var rule = {}, fault = {};
    if ($('fault-endpoint').value) rule.endpoint = $('fault-endpoint').value;
    [['every', 'fault-every'], ['probability', 'fault-probability'], ['times', 'fault-times']].forEach(function (f) {
      if ($(f[1]).value.trim() !== '') rule[f[0]] = numberOrText($(f[1]).value);
    });
    if ($('fault-status').value.trim() !== '') fault.status = numberOrText($('fault-status').value);
    if ($('fault-retry').value.trim() !== '') fault.retry_after = numberOrText($('fault-retry').value);
    [['latency', 'fault-latency'], ['dribble', 'fault-dribble'], ['window', 'fault-window']].forEach(function (f) {
      if ($(f[1]).value.trim() !== '') fault[f[0]] = $(f[1]).value.trim();
    });
    [['empty_page', 'fault-empty-page'], ['overlap', 'fault-overlap'], ['arrivals', 'fault-arrivals']].forEach(function (f) {
      if ($(f[1]).value.trim() !== '') fault[f[0]] = numberOrText($(f[1]).value);
    });
    if ($('fault-job').value) fault.job = $('fault-job').value;
    if ($('fault-drop').checked) fault.drop = true;
    if ($('fault-truncate').checked) fault.truncate = true;
    rule.fault = fault;
    return rule;
  }

  function formStatus(text, isError) {
    var box = $('fault-form-status');
    box.className = 'status' + (isError ? ' error' : ' ok');
    box.textContent = text;
  }

  $('fault-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    clearFieldErrors();
    formStatus('POST /_mock/faults …');
    $('fault-add').disabled = true;
    request('POST', 'faults', faultRule()).then(function (res) {
      if (!res.ok) {
        var msg = messageOf(res), field = fieldOf(msg);
        var e = $('err-' + field);
        e.textContent = msg; e.hidden = false;
        $(fieldInputs[field]).setAttribute('aria-invalid', 'true');
        formStatus('The server refused the rule (' + statusLabel(res.status) + '); nothing was added.', true);
        return;
      }
      var rules = res.body.rules || [];
      var added = rules[rules.length - 1];
      formStatus('Added rule ' + added.index + ': ' + added.text + '.');
      showFaults(res);
    }).catch(function (err) {
      formStatus('The request did not reach the server: ' + err.message, true);
    }).then(function () { $('fault-add').disabled = false; });
  });
  $('fault-form').addEventListener('reset', function () { clearFieldErrors(); formStatus(''); });

  // ---------------------------------------------------------------- try it

  var tryState = { params: null, mode: 'query', queryId: null, page: 1, pages: 0, key: '' };

  function mode() { return document.querySelector('input[name=mode]:checked').value; }

  function syncMode() {
    var async = mode() === 'query-async';
    $('try-sort').disabled = !async;
    $('try-phrases').disabled = !async;
    $('async-note').hidden = async;
  }
  Array.prototype.forEach.call(document.querySelectorAll('input[name=mode]'), function (r) {
    r.addEventListener('change', syncMode);
  });

  // apiKey is the key the form sends. It lives only in the password field
  // and this call: it is never written into the page or stored.
  function apiKey() { return $('try-key').value || 'inspector'; }

  function tryStatus(text, isError, message) {
    var box = $('try-status');
    box.className = 'status' + (isError ? ' error' : '');
    clear(box);
    box.appendChild(document.createTextNode(text));
    if (message) box.appendChild(el('span', { className: 'msg', text: message }));
  }

  function failed(what, res) {
    var msg = messageOf(res);
    if (res.status === 401) msg += ' — enter an accepted key in the API key field.';
    tryStatus(what + ' failed: ' + statusLabel(res.status) + (res.body && res.body.state ? ', state ' + res.body.state : ''), true, msg);
  }

  // searchParams reads the form into a request body (without the key).
  function searchParams() {
    var p = { query: $('try-query').value.trim() };
    if ($('try-start').value) p.start_date = $('try-start').value;
    if ($('try-end').value) p.end_date = $('try-end').value;
    var sites = $('try-sites').value.split(/[\s,]+/).filter(Boolean);
    if (sites.length) p.sites = sites;
    if ($('try-language').value.trim()) p.language = $('try-language').value.trim();
    if ($('try-toggle').value) p.toggle_state = $('try-toggle').value;
    if ($('try-rank').value !== '') p.traffic_rank = Number($('try-rank').value);
    if (mode() === 'query-async') {
      if ($('try-sort').value) p.sort_order = $('try-sort').value;
      if ($('try-phrases').value.trim()) p.key_phrases = $('try-phrases').value.trim();
    }
    return p;
  }

  function clearResults() {
    clear($('try-results'));
    clear($('try-clusters'));
    $('try-pager').hidden = true;
  }

  function busy(on) {
    $('try-search').disabled = on;
    $('try-headlines').disabled = on;
    $('try-prev').disabled = on || tryState.page <= 1;
    $('try-next').disabled = on || tryState.page >= tryState.pages;
  }

  function runSearch(page) {
    var p = searchParams();
    if (!p.query) {
      tryStatus('Enter a query: the service needs one, e.g. electric cars.', true);
      $('try-query').focus();
      return Promise.resolve();
    }
    var pg = Number($('try-page').value);
    if (page === undefined) page = Number.isInteger(pg) && pg > 0 ? pg : 1;
    tryState.mode = mode();
    tryState.params = p;
    tryState.queryId = null;
    tryState.key = apiKey();
    return fetchPage(page);
  }

  // fetchPage shows one page of the current search: a sync query, or a
  // get-results of the async job (submitted first if there is none yet).
  function fetchPage(page) {
    tryState.page = page;
    $('try-page').value = String(page);
    clearResults();
    busy(true);
    var work;
    if (tryState.mode === 'query') {
      var body = Object.assign({}, tryState.params, { page: page, api_key: tryState.key });
      tryStatus('POST /api/v2/query …');
      work = request('POST', '../api/v2/query', body).then(function (res) {
        if (!res.ok || !res.body || res.body.state !== 'SUCCESS') return failed('POST /api/v2/query', res);
        var r = res.body.results || {};
        showArticles('/api/v2/query', r.totalResults, r.articles || [], page, 0);
      });
    } else {
      work = (tryState.queryId ? Promise.resolve(true) : submitAsync(page)).then(function (ok) {
        if (ok) return pollResults(page);
      });
    }
    return work.catch(function (err) {
      tryStatus('The request did not reach the server: ' + err.message, true);
    }).then(function () { busy(false); });
  }

  function submitAsync(page) {
    var body = Object.assign({}, tryState.params, { page: page, api_key: tryState.key });
    tryStatus('POST /api/v2/query-async …');
    return request('POST', '../api/v2/query-async', body).then(function (res) {
      if (!res.ok || !res.body || res.body.state !== 'SUCCESS') { failed('POST /api/v2/query-async', res); return false; }
      tryState.queryId = res.body.query_id;
      return true;
    });
  }

  var maxPolls = 150, pollDelay = 200;

  function pollResults(page) {
    var polls = 0;
    function once() {
      polls++;
      return request('POST', '../api/v2/get-results', { query_id: tryState.queryId, page: page, api_key: tryState.key }).then(function (res) {
        var state = res.body && res.body.state;
        if (res.ok && state === 'PENDING') {
          if (polls >= maxPolls) {
            tryStatus('query_id ' + tryState.queryId + ' is still PENDING after ' + polls + ' polls; stopped polling.', true,
              'A job=stuck fault keeps a job pending until it expires; the Requests tab shows every poll.');
            return;
          }
          tryStatus('query_id ' + tryState.queryId + ': PENDING (poll ' + polls + ') …');
          return new Promise(function (resolve) { setTimeout(resolve, pollDelay); }).then(once);
        }
        if (!res.ok || state !== 'SUCCESS') return failed('POST /api/v2/get-results for ' + tryState.queryId, res);
        showArticles('/api/v2/get-results', res.body.totalResults, res.body.articles || [], page, polls);
      });
    }
    return once();
  }

  var pageSize = 25;

  function showArticles(path, total, articles, page, polls) {
    total = typeof total === 'number' ? total : articles.length;
    tryState.pages = Math.max(1, Math.ceil(total / pageSize));
    var info = total + (total === 1 ? ' result' : ' results') + ' · page ' + page + ' of ' + tryState.pages + ' · ' + path;
    if (tryState.queryId) info += ' · query_id ' + tryState.queryId + ' (' + polls + (polls === 1 ? ' poll' : ' polls') + ')';
    tryStatus(info);
    $('try-pageinfo').textContent = 'page ' + page + ' of ' + tryState.pages;
    $('try-pager').hidden = tryState.pages <= 1;
    var list = $('try-results');
    list.start = (page - 1) * pageSize + 1;
    articles.forEach(function (a) { list.appendChild(articleItem(a)); });
    if (!articles.length) tryStatus(info + ' · no articles on this page');
  }

  function link(a) {
    var title = a.title || '(untitled)';
    if (typeof a.url === 'string' && /^https?:\/\//i.test(a.url)) {
      return el('a', { href: a.url, target: '_blank', rel: 'noopener noreferrer', className: 'title', text: title });
    }
    return el('span', { className: 'title', text: title });
  }

  function articleItem(a) {
    var meta = [a.site, a.datePublished];
    if (typeof a.score === 'number') meta.push('score ' + a.score.toFixed(4));
    if (a.language) meta.push(a.language);
    var desc = typeof a.description === 'string' ? a.description : '';
    if (desc.length > 320) desc = desc.slice(0, 317) + '…';
    return el('li', { className: 'article' }, link(a),
      el('div', { className: 'meta', text: meta.filter(Boolean).join(' · ') }),
      desc ? el('p', { className: 'desc', text: desc }) : null);
  }

  function runHeadlines() {
    clearResults();
    tryState.page = 1; tryState.pages = 1;
    busy(true);
    tryStatus('POST /api/v2/headlines …');
    return request('POST', '../api/v2/headlines', { api_key: apiKey() }).then(function (res) {
      if (!res.ok || !res.body || res.body.state !== 'SUCCESS') return failed('POST /api/v2/headlines', res);
      var clusters = res.body.headlines || [];
      tryStatus(clusters.length + (clusters.length === 1 ? ' cluster' : ' clusters') + ' · /api/v2/headlines (the 48 hours before the server\'s now)');
      var box = $('try-clusters');
      clusters.forEach(function (c) {
        var items = (c.articles || []).map(function (a) {
          return el('li', null, link(a), el('div', { className: 'meta', text: [a.site, a.datePublished, a.category].filter(Boolean).join(' · ') }));
        });
        var shown = items.length < c.count ? ' (' + items.length + ' shown)' : '';
        var ul = el('ul');
        items.forEach(function (li) { ul.appendChild(li); });
        box.appendChild(el('article', { className: 'cluster' },
          el('h3', { text: c.topic }),
          el('div', { className: 'meta', text: c.count + (c.count === 1 ? ' article' : ' articles') + shown }),
          ul));
      });
    }).catch(function (err) {
      tryStatus('The request did not reach the server: ' + err.message, true);
    }).then(function () { busy(false); });
  }

  $('try-form').addEventListener('submit', function (ev) { ev.preventDefault(); runSearch(); });
  $('try-headlines').addEventListener('click', runHeadlines);
  $('try-prev').addEventListener('click', function () { if (tryState.page > 1) fetchPage(tryState.page - 1); });
  $('try-next').addEventListener('click', function () { if (tryState.page < tryState.pages) fetchPage(tryState.page + 1); });
  syncMode();

  // ---------------------------------------------------------------- worlds

  // The picker lists GET /_mock/worlds, the default world first, then by id.
  // Picking one shows its journal, jobs and fault rules. The list is read
  // only while there are worlds besides the default one (health counts
  // them), when their number changes and when the picker gets focus:
  // reading it consults every world's clock, which a test's clock may count.
  function refreshWorldsSoon() { worldsState.force = true; worldsLoop.kick(); }

  function refreshWorlds() {
    if (worldsState.count <= 1 && !world && !worldsState.force) return;
    worldsState.force = false;
    return request('GET', 'worlds').then(function (res) {
      if (!res.ok || !res.body) return;
      var list = (res.body.worlds || []).slice().sort(function (a, b) {
        if (a.default !== b.default) return a.default ? -1 : 1;
        return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      });
      renderWorlds(list);
    });
  }
  var worldsLoop = loop(refreshWorlds, function () { return document.hidden ? 10000 : 3000; });

  function worldLabel(w) {
    var n = w.requests || 0;
    return (w.default ? 'default' : w.id) + ' · ' + n + (n === 1 ? ' request' : ' requests');
  }

  function renderWorlds(list) {
    var sel = $('world');
    var ids = list.map(function (w) { return w.id; });
    var have = Array.prototype.map.call(sel.options, function (o) { return o.value; });
    if (world && ids.indexOf(world) < 0) {
      var gone = world;
      pickWorld('default');
      setLive(false, 'the world ' + gone + ' was dropped: showing the default world');
    }
    if (have.join('\n') !== ids.join('\n')) {
      clear(sel);
      list.forEach(function (w) { sel.appendChild(el('option', { value: w.id, text: worldLabel(w) })); });
    } else {
      list.forEach(function (w, i) { if (sel.options[i].textContent !== worldLabel(w)) sel.options[i].textContent = worldLabel(w); });
    }
    sel.value = world || 'default';
  }

  function pickWorld(id) {
    var next = id === 'default' ? '' : id;
    if (next === world) return;
    world = next;
    journal.entries = []; journal.text = null; journal.selected = null;
    jobsState.list = []; jobsState.text = null; jobsState.selected = null;
    faultsState.rules = []; faultsState.text = null;
    renderRequests();
    renderJobs();
    renderFaults();
    journalLoop.kick();
    jobsLoop.kick();
    faultsLoop.kick();
  }

  $('world').addEventListener('change', function () { pickWorld(this.value); });
  $('world').addEventListener('focus', refreshWorldsSoon);

  // ---------------------------------------------------------------- start

  onShow.requests = function () { journalLoop.kick(); };
  onShow.jobs = function () { jobsLoop.kick(); };
  onShow.faults = function () { faultsLoop.kick(); };
  document.addEventListener('visibilitychange', function () { if (!document.hidden) journalLoop.kick(); });
  showTab(location.hash.slice(1));
  healthLoop.kick();
  journalLoop.kick();
  faultsLoop.kick();
})();
