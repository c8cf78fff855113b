// Types of @newssearch/newsmock. The answers are newsmock's JSON (docs/control-api.md).

/** A fault rule: an object as in docs/control-api.md "Faults", or a string in newsmock's -fault syntax. */
export type FaultRule = string | {
  endpoint?: string;
  every?: number;
  probability?: number;
  times?: number;
  fault: string | {
    latency?: string;
    status?: number;
    retry_after?: number;
    drop?: boolean;
    truncate?: boolean;
    job?: 'fail' | 'stuck' | 'refuse';
  };
};

export interface ListedFaultRule {
  index: number;
  text: string;
  endpoint: string;
  every: number;
  probability: number;
  times: number;
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
  body: string;
  world?: string;
}

export interface JournalFilter { path?: string; status?: number; since?: number; limit?: number }

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

/** The control API of one newsmock, acting on one world: the default one, or that of apiKey. */
export declare class Control {
  constructor(url: string, apiKey?: string | null);
  readonly url: string;
  /** The key whose world this acts on (header X-Newsmock-Key); null for the default world. */
  readonly apiKey: string | null;
  /** The same control API acting on the world of apiKey (header X-Newsmock-Key); throws unless a non-empty string. */
  world(apiKey: string): Control;
  /** The control API acting on the default world, even under -world-per-key (where no keyed request reaches it). */
  defaultWorld(): Control;
  call(method: string, path: string, options?: { json?: unknown; text?: string; query?: Record<string, unknown> }): Promise<any>;

  faults(): Promise<ListedFaultRule[]>;
  setFaults(rules: FaultRule[]): Promise<ListedFaultRule[]>;
  addFault(rule: FaultRule): Promise<ListedFaultRule[]>;
  removeFault(index: number): Promise<ListedFaultRule[]>;
  clearFaults(): Promise<ListedFaultRule[]>;

  clock(): Promise<Clock>;
  /** A Go duration such as "90s" or "1h30m" (needs newsmock -clock manual). */
  advanceClock(duration: string): Promise<Clock>;
  setClock(when: string | Date): Promise<Clock>;

  articles(): Promise<ArticlesAnswer>;
  addArticles(articles: object[]): Promise<ArticlesAnswer>;
  replaceArticles(articles: object[]): Promise<ArticlesAnswer>;
  resetArticles(): Promise<ArticlesAnswer>;

  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  journalCount(filter?: Omit<JournalFilter, 'limit'>): Promise<number>;
  clearJournal(): Promise<{ state: 'SUCCESS' }>;

  jobs(): Promise<Job[]>;
  job(queryId: string): Promise<Job>;
  forceJob(queryId: string, state: 'PENDING' | 'SUCCESS' | 'FAILED', message?: string): Promise<Job>;
  expireJob(queryId: string): Promise<{ state: 'SUCCESS' }>;

  reset(): Promise<{ state: 'SUCCESS' }>;
  dropWorld(): Promise<{ state: 'SUCCESS'; dropped: number }>;
  worlds(): Promise<World[]>;
  health(): Promise<Record<string, unknown>>;
}

/**
 * A running newsmock, started with -exit-with-parent: it exits when this process does, and neither it nor its
 * pipes keep the event loop alive. Under -world-per-key its world helpers (addFault, journal, reset, ...)
 * reject with a NewsmockError, since no request with an api_key reaches its default world: use world(key).
 */
export declare class Newsmock extends Control {
  readonly process: import('node:child_process').ChildProcess;
  /** Its last lines of standard error. */
  readonly log: string;
  /** SIGTERM, then waits for the exit (SIGKILL after timeoutMs). Resolves to the exit code. */
  stop(options?: { timeoutMs?: number }): Promise<number | string | null>;
}

export interface StartOptions {
  /** More newsmock flags, e.g. ['-world-per-key', '-clock', 'manual']; an -addr among them wins over 127.0.0.1:0. */
  args?: string[];
  /** The binary; default: $NEWSMOCK_BINARY, else the platform package's. */
  binary?: string;
  /** How long to wait for the listening line (default 15000). */
  timeoutMs?: number;
  /** Variables added to this process's environment (HOME, PATH and the rest stay). */
  env?: NodeJS.ProcessEnv;
}

/** Starts newsmock on 127.0.0.1 at a free port; resolves once it listens, rejects with a NewsmockError if it cannot. */
export declare function start(options?: StartOptions): Promise<Newsmock>;
/** The newsmock binary start() runs. Throws a NewsmockError saying why when the platform package is missing. */
export declare function binaryPath(): string;
export declare const LISTEN_PREFIX: string;
export declare const KEY_HEADER: string;
