// Types of @newssearch/newsmock. The answers are newsmock's JSON (docs/control-api.md). They use Node's types
// (ChildProcess, ProcessEnv): @types/node is a peer dependency, and they compile under "strict".
/// <reference types="node" />

/** A duration: a number of seconds (90, 0.25), or a Go duration string ('90s', '1h30m', '250ms'). */
export type Duration = number | string;

/** A fault rule: an object as in docs/control-api.md "Faults", or a string in newsmock's -fault syntax. */
export type FaultRule = string | {
  endpoint?: string;
  every?: number;
  probability?: number;
  times?: number;
  /** The rule may never fire: verify() does not count it as unmet. */
  optional?: boolean;
  /** Members the request body must hold (as in expect() and the journal), e.g. { query: 'storm', page: 2 }. */
  body?: Record<string, string | number | boolean>;
  fault: string | {
    /** A duration ("150ms"), or a range drawn uniformly from the seed per request ("100ms..2s"). */
    latency?: string;
    /** The status and headers at once, the body in pieces spread over this duration ("2s"). */
    dribble?: string;
    status?: number;
    retry_after?: number;
    drop?: boolean;
    truncate?: boolean;
    job?: 'fail' | 'stuck' | 'refuse';
    results?: 'nested' | 'top-level';
    totals?: 'both' | 'totalResults' | 'totalArticles';
    /** Widen the search's date bounds: "day" to whole UTC days, or a duration ("5s") on each side. */
    window?: string;
    /** That page answers no articles; its totals stay. */
    empty_page?: number;
    /** Every page after the first starts with the previous page's last N articles. */
    overlap?: number;
    /** Before answering, a query publishes N new articles that match it, dated the clock's now. */
    arrivals?: number;
  };
};

export interface ListedFaultRule {
  index: number;
  text: string;
  endpoint: string;
  every: number;
  probability: number;
  times: number;
  optional?: boolean;
  fault: Record<string, unknown>;
  matched: number;
  fired: number;
  remaining: number | null;
}

export interface Clock { state: 'SUCCESS'; now: string; manual: boolean }

export interface ArticlesAnswer {
  state: 'SUCCESS';
  start_articles: number;
  added_articles: number;
  articles: number;
  added_now?: number;
}

export interface JournalEntry {
  seq: number;
  time: string;
  request_id: string;
  method: string;
  path: string;
  status: number;
  fault?: string;
  query_id?: string;
  duration_ns: number;
  /** The request body, api_key redacted; a string when it is not JSON or over 8 KiB; absent when empty. */
  body?: Record<string, unknown> | string;
  world?: string;
  new_world?: boolean;
}

export interface JournalFilter {
  /** An endpoint ('query', 'query-async', 'get-results', 'headlines') or a path. */
  path?: string;
  status?: number;
  /** Only entries whose seq is above this. */
  since?: number;
  limit?: number;
  /** Members the request body must hold, e.g. { query: 'election', page: 2 }; a dotted name reaches into objects. */
  body?: Record<string, string | number | boolean>;
  /** Wait (seconds, or a Go duration such as '5s'; up to a minute) until min entries match. */
  wait?: Duration;
  /** With wait: how many entries to wait for (default 1). */
  min?: number;
}

/** What a world must get: exactly times (0: never), or min to max; none of the three: at least once. */
export interface Expectation {
  endpoint?: string;
  body?: Record<string, string | number | boolean>;
  times?: number;
  min?: number;
  max?: number;
}

export interface ListedExpectation {
  endpoint?: string;
  body?: Record<string, string>;
  min: number;
  /** -1: no upper bound. */
  max: number;
  /** The requests matched so far. */
  count: number;
  /** For an unmet expectation in verify(): the requests that came closest. */
  closest?: JournalEntry[];
}

export interface VerifyResult {
  state: 'SUCCESS';
  met: boolean;
  /** What was expected and what came closest, in words (when not met). */
  message?: string;
  unmet: ListedExpectation[];
  unfired_faults: ListedFaultRule[];
  unexpected: JournalEntry[];
  unexpected_count: number;
}

export interface Settings {
  pending_polls: number;
  /** A Go duration such as '10s'. */
  pending: string;
  rate_limit: number;
  burst: number;
  job_ttl: string;
  max_jobs: number;
  shape: { results?: 'nested' | 'top-level'; totals?: 'both' | 'totalResults' | 'totalArticles' };
  /** A request no expectation matches fails verify (default false; it is listed as unexpected either way). */
  strict?: boolean;
  [name: string]: unknown;
}

/** The settings updateSettings() changes; pending and job_ttl take seconds or a Go duration. */
export type SettingsChanges = Partial<Omit<Settings, 'pending' | 'job_ttl'>> & { pending?: Duration; job_ttl?: Duration };

export interface Job {
  query_id: string;
  owner: string;
  state: 'PENDING' | 'SUCCESS' | 'FAILED';
  query: string;
  body: string;
  created: string;
  last_used: string;
  expires: string;
  polls: number;
  message?: string;
}

export interface World {
  id: string;
  default: boolean;
  articles: number;
  added_articles: number;
  jobs: number;
  requests: number;
  fault_rules: number;
  now: string;
  manual_clock: boolean;
}

export declare class NewsmockError extends Error {
  /** The HTTP status of a failed control call. */
  status?: number;
  /** The answer's body. */
  body?: string;
}

/** verify({ check: true }) found the world's expectations unmet; the message is newsmock's. */
export declare class VerifyError extends Error {
  result: VerifyResult;
}

/** The control API of one newsmock, acting on one world: the default one, or that of apiKey. */
export declare class Control {
  constructor(url: string, apiKey?: string | null);
  readonly url: string;
  /** The key whose world this acts on (header X-Newsmock-Key); null for the default world. */
  readonly apiKey: string | null;
  /** Where expectations and fault rules were declared (the test's stack frames), for a VerifyError's stack. */
  declared: string[];
  /** The same control API acting on the world of apiKey (header X-Newsmock-Key); throws unless a non-empty string. */
  world(apiKey: string): Control;
  /** The control API of a world of a fresh key (prefix-<uuid>), e.g. one for each of concurrent tests. */
  newWorld(prefix?: string): Control;
  /** The control API acting on the default world, even under -world-per-key (where no keyed request reaches it). */
  defaultWorld(): Control;
  call(method: string, path: string, options?: { json?: unknown; text?: string; query?: Record<string, unknown> }): Promise<any>;

  faults(): Promise<ListedFaultRule[]>;
  setFaults(rules: FaultRule[]): Promise<ListedFaultRule[]>;
  addFault(rule: FaultRule): Promise<ListedFaultRule[]>;
  removeFault(index: number): Promise<ListedFaultRule[]>;
  clearFaults(): Promise<ListedFaultRule[]>;

  clock(): Promise<Clock>;
  /** Switches this world to a manual clock (the other worlds keep theirs), at start or at its current time. */
  useManualClock(start?: string | Date): Promise<Clock>;
  /** Switches this world back to real time. */
  useRealClock(): Promise<Clock>;
  /** Seconds (90) or a Go duration ('1h30m'); needs a manual clock (useManualClock(), or newsmock -clock manual). */
  advanceClock(duration: Duration): Promise<Clock>;
  setClock(when: string | Date): Promise<Clock>;

  articles(): Promise<ArticlesAnswer>;
  addArticles(articles: object[]): Promise<ArticlesAnswer>;
  replaceArticles(articles: object[]): Promise<ArticlesAnswer>;
  resetArticles(): Promise<ArticlesAnswer>;

  /** The world's recorded requests, oldest first; with wait, those there are when min match or the wait runs out. */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  journalCount(filter?: Omit<JournalFilter, 'limit'>): Promise<number>;
  clearJournal(): Promise<{ state: 'SUCCESS' }>;

  /**
   * Declares what the world must get from now on. A request none matches is listed as unexpected, and fails
   * verify only in a strict world (updateSettings({ strict: true })).
   */
  expect(expectations: Expectation | Expectation[]): Promise<ListedExpectation[]>;
  expectations(): Promise<ListedExpectation[]>;
  clearExpectations(): Promise<ListedExpectation[]>;
  /**
   * newsmock's verdict: unmet expectations, unexpected requests, fault rules not optional that never fired.
   * With { check: true } it rejects with a VerifyError carrying newsmock's message when not met.
   */
  verify(options?: { check?: boolean }): Promise<VerifyResult>;

  settings(): Promise<Settings>;
  /** Changes the settings given (durations in seconds or as Go durations, e.g. '10s'); the others stay. */
  updateSettings(changes: SettingsChanges): Promise<Settings>;
  /** Back to the settings newsmock started with. */
  resetSettings(): Promise<Settings>;

  jobs(): Promise<Job[]>;
  job(queryId: string): Promise<Job>;
  forceJob(queryId: string, state: 'PENDING' | 'SUCCESS' | 'FAILED', message?: string): Promise<Job>;
  expireJob(queryId: string): Promise<{ state: 'SUCCESS' }>;

  reset(): Promise<{ state: 'SUCCESS' }>;
  dropWorld(): Promise<{ state: 'SUCCESS'; dropped: number }>;
  worlds(): Promise<World[]>;
  health(): Promise<Record<string, unknown>>;
}

/** A whole newsmock: its world helpers refuse under -world-per-key (no request with an api_key reaches its default world). */
export declare class Mock extends Control {
  /** Resolves to true when it runs with -world-per-key. */
  worldPerKey(): Promise<boolean>;
}

/** A newsmock already running (a container, a CI service, another process), as connect() gives it. */
export declare class Remote extends Mock {
  /** Does nothing: this process did not start it. */
  stop(): Promise<null>;
}

/** The newsmock already running at url (e.g. process.env.NEWSMOCK_URL); rejects unless it answers GET /_mock/health. */
export declare function connect(url: string): Promise<Remote>;

/**
 * A running newsmock, started with -exit-with-parent: it exits when this process does, and neither it nor its
 * pipes keep the event loop alive. Under -world-per-key its world helpers (addFault, journal, reset, ...)
 * reject with a NewsmockError, since no request with an api_key reaches its default world: use world(key).
 */
export declare class Newsmock extends Mock {
  readonly process: import('node:child_process').ChildProcess;
  /** Its last lines of standard error. */
  readonly log: string;
  /** SIGTERM, then waits for the exit (SIGKILL after timeout, default 15 s). Resolves to the exit code. */
  stop(options?: { timeout?: Duration }): Promise<number | string | null>;
}

export interface StartOptions {
  /** More newsmock flags, e.g. ['-world-per-key', '-clock', 'manual']; an -addr among them wins over 127.0.0.1:0. */
  args?: string[];
  /** The binary; default: $NEWSMOCK_BINARY, else the platform package's. */
  binary?: string;
  /** How long to wait for the listening line (default 15 s). */
  timeout?: Duration;
  /** Variables added to this process's environment (HOME, PATH and the rest stay). */
  env?: NodeJS.ProcessEnv;
}

/** Starts newsmock on 127.0.0.1 at a free port; resolves once it listens, rejects with a NewsmockError if it cannot. */
export declare function start(options?: StartOptions): Promise<Newsmock>;

/** A hook registrar of a test runner (Jest's, Vitest's or node:test's beforeEach, ...). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Hook = (fn: (...args: any[]) => any, ...rest: any[]) => unknown;

/** The hooks setup() registers on; node:test's before and after may stand for beforeAll and afterAll. */
export interface Hooks {
  beforeAll?: Hook;
  afterAll?: Hook;
  before?: Hook;
  after?: Hook;
  beforeEach: Hook;
  afterEach: Hook;
}

export interface SetupOptions extends StartOptions {
  /** A newsmock already running (with -world-per-key) to use instead of starting one; default $NEWSMOCK_URL. */
  url?: string;
  /** Default: Jest's or Vitest's (also without Vitest's globals), else node:test's hooks. */
  hooks?: Hooks;
}

/** The control API of the running test's world, as setup() gives it. */
export interface TestWorld extends Control {
  /** The running test's key: send it as api_key. Throws between tests, and in tests that run at the same time. */
  readonly apiKey: string;
  /** The running newsmock, started or at options.url (null before the first test). */
  readonly server: Newsmock | Remote | null;
  /** This test's world is not verified after it. */
  skipVerify(): void;
}

/**
 * One newsmock for the test file (-world-per-key; started before the tests, stopped after them; or the one at
 * options.url or $NEWSMOCK_URL) and a world of its own for each test; after each test the world's verify must
 * be met, else the test fails with newsmock's message (skipVerify() opts a test out). Tests that run at the
 * same time fail saying so: give each mock.newWorld(). Call it at the top of a test file.
 */
export declare function setup(options?: SetupOptions): TestWorld;
/** The newsmock binary start() runs. Throws a NewsmockError saying why when the platform package is missing. */
export declare function binaryPath(): string;
export declare const LISTEN_PREFIX: string;
export declare const KEY_HEADER: string;
