/**
 * The hand-written front: `Pigeon`, its resources, `PigeonError`, paging and retries, over the
 * platform's `fetch`. The types are the generated ones (`./client`).
 */
import type {
  Accepted,
  ContactsListData,
  ContactView,
  CreateContact,
  CreateTemplate,
  CreateWebhook,
  Deleted,
  EventItem,
  MediaView,
  MessagesListData,
  MessageView,
  PatchContact,
  PatchTemplate,
  PatchWebhook,
  Recovering,
  SecretRotated,
  SendBody,
  TemplatesListData,
  TemplateView,
  TestSent,
  WebhookCreated,
  WebhookItem,
} from './client';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/**
 * An answer outside 2xx, in the API's envelope, or a request that got no answer. `status` is
 * the HTTP status (`undefined` without an answer: code `CONNECTION_FAILED` when none came,
 * `INVALID_SIGNATURE` from `verifyWebhook`); `retryAfter` the seconds `Retry-After` asked for.
 */
export class PigeonError extends Error {
  readonly status: number | undefined;
  readonly code: string;
  readonly error: string;
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;

  constructor(
    status: number | undefined,
    code: string,
    error: string,
    init: { retryAfter?: number; requestId?: string; cause?: unknown } = {},
  ) {
    super(status === undefined ? `${code}: ${error}` : `${status} ${code}: ${error}`, { cause: init.cause });
    this.name = 'PigeonError';
    this.status = status;
    this.code = code;
    this.error = error;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }
}

/** The spec's client guidance: attempts in all, and the waits (seconds) when `Retry-After` names none. */
const RETRIES: Record<number, [number, number[]]> = {
  429: [3, [1, 1]],
  500: [3, [1, 2]],
  503: [5, [2, 4, 8, 16]],
};

export interface PigeonOptions {
  /** A tenant's API key (`svc_live_…`, `svc_test_…`). */
  apiKey: string;
  /** The node; default `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Retry 429, 500 and 503 as the spec says (default true). */
  retries?: boolean;
  /** Milliseconds before a request is abandoned (default 40,000: past the longest long poll). */
  timeoutMs?: number;
  /** What waits between attempts (tests pass their own). */
  sleep?: (seconds: number) => Promise<void>;
  /** The `fetch` to use (default: the platform's). */
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | string[] | undefined | null>;
/** A request's query, JSON body (or `raw` bytes, with their `Content-Type` in `headers`) and headers. */
type Init = { query?: Query; body?: unknown; raw?: Uint8Array<ArrayBuffer> | ArrayBuffer | Blob; headers?: Record<string, string> };
type Page<T> = { data: T[]; next_cursor?: string | null };

class Transport {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly o: Required<Omit<PigeonOptions, 'apiKey' | 'baseUrl'>> & { apiKey: string; baseUrl: string }) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.headers = { Authorization: `Bearer ${o.apiKey}` };
  }

  async request<T>(method: string, path: string, init: Init = {}): Promise<T> {
    return (await (await this.send(method, path, init)).json()) as T;
  }

  /** The successful answer, after the retries the spec's guidance allows. */
  async send(method: string, path: string, init: Init = {}): Promise<Response> {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(init.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    const headers: Record<string, string> = { ...this.headers, ...(init.headers ?? {}) };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    // Sending twice is harmless for reads, deletes and writes with an Idempotency-Key.
    const repeatable = method === 'GET' || method === 'DELETE' || 'Idempotency-Key' in headers;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await this.o.fetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(this.o.timeoutMs),
        });
      } catch (e) {
        const [limit, waits] = RETRIES[500];
        if (this.o.retries && repeatable && attempt < limit) {
          await this.o.sleep(waits[Math.min(attempt, waits.length) - 1]);
          continue;
        }
        throw new PigeonError(undefined, 'CONNECTION_FAILED', e instanceof Error ? e.message : String(e), { cause: e });
      }
      if (res.ok) return res;
      const rule = RETRIES[res.status];
      const retryAfter = retryAfterOf(res);
      if (this.o.retries && rule && attempt < rule[0]) {
        await res.arrayBuffer().catch(() => undefined);
        await this.o.sleep(retryAfter ?? rule[1][Math.min(attempt, rule[1].length) - 1]);
        continue;
      }
      throw await errorOf(res, retryAfter);
    }
  }

  async *pages<T>(path: string, query: Query): AsyncGenerator<T> {
    const q: Query = { ...query };
    for (;;) {
      const page = await this.request<Page<T>>('GET', path, { query: q });
      yield* page.data;
      if (!page.next_cursor) return;
      q.after = page.next_cursor;
    }
  }
}

function retryAfterOf(res: Response): number | undefined {
  const v = res.headers.get('retry-after');
  const n = v === null ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

async function errorOf(res: Response, retryAfter: number | undefined): Promise<PigeonError> {
  const text = await res.text().catch(() => '');
  let code = `HTTP_${res.status}`;
  let error = text.slice(0, 200) || res.statusText;
  try {
    const body = JSON.parse(text) as { code?: unknown; error?: unknown };
    if (typeof body.code === 'string') {
      code = body.code;
      error = String(body.error ?? '');
    }
  } catch {
    // Not the envelope: the status and the text say what there is.
  }
  return new PigeonError(res.status, code, error, { retryAfter, requestId: res.headers.get('x-request-id') ?? undefined });
}

type Data<T> = { data: T };

/** `/v1/messages`. */
export class Messages {
  constructor(private readonly t: Transport) {}

  /**
   * Sends a text. Every send carries an `Idempotency-Key` (one is made unless given), so a retry
   * after a lost answer never sends twice.
   */
  async send(body: SendBody, opts: { idempotencyKey?: string } = {}): Promise<Accepted> {
    const key = opts.idempotencyKey ?? `sdk-${globalThis.crypto.randomUUID()}`;
    const r = await this.t.request<Data<Accepted>>('POST', '/v1/messages', { body, headers: { 'Idempotency-Key': key } });
    return r.data;
  }

  async get(id: string): Promise<MessageView> {
    return (await this.t.request<Data<MessageView>>('GET', `/v1/messages/${encodeURIComponent(id)}`)).data;
  }

  /** Cancels a message still queued or held. */
  async cancel(id: string): Promise<MessageView> {
    return (await this.t.request<Data<MessageView>>('DELETE', `/v1/messages/${encodeURIComponent(id)}`)).data;
  }

  /** Every message matching the filters, across pages: `for await (const m of pigeon.messages.list({...}))`. */
  list(filters: NonNullable<MessagesListData['query']> = {}): AsyncGenerator<MessageView> {
    return this.t.pages<MessageView>('/v1/messages', filters);
  }
}

class Crud<T, Patch, Filters extends Query> {
  constructor(
    protected readonly t: Transport,
    protected readonly path: string,
  ) {}

  async get(id: string): Promise<T> {
    return (await this.t.request<Data<T>>('GET', `${this.path}/${encodeURIComponent(id)}`)).data;
  }

  list(filters?: Filters): AsyncGenerator<T> {
    return this.t.pages<T>(this.path, filters ?? {});
  }

  async update(id: string, body: Patch): Promise<T> {
    return (await this.t.request<Data<T>>('PATCH', `${this.path}/${encodeURIComponent(id)}`, { body })).data;
  }

  async delete(id: string): Promise<Deleted> {
    return (await this.t.request<Data<Deleted>>('DELETE', `${this.path}/${encodeURIComponent(id)}`)).data;
  }
}

type ListQuery<D extends { query?: unknown }> = NonNullable<D['query']> & Query;

/** `/v1/contacts`. */
export class Contacts extends Crud<ContactView, PatchContact, ListQuery<ContactsListData>> {
  async create(body: CreateContact): Promise<ContactView> {
    return (await this.t.request<Data<ContactView>>('POST', this.path, { body })).data;
  }
}

/** `/v1/templates`. */
export class Templates extends Crud<TemplateView, PatchTemplate, ListQuery<TemplatesListData>> {
  async create(body: CreateTemplate): Promise<TemplateView> {
    return (await this.t.request<Data<TemplateView>>('POST', this.path, { body })).data;
  }
}

/** `/v1/webhooks`. */
export class Webhooks extends Crud<WebhookItem, PatchWebhook, { limit?: number; after?: string }> {
  /** A webhook; the answer holds its `secret`, shown this once. */
  async create(body: CreateWebhook): Promise<WebhookCreated> {
    return (await this.t.request<Data<WebhookCreated>>('POST', this.path, { body })).data;
  }

  /** Delivers again every delivery that failed since `since` (and before `until`), RFC 3339. */
  async recover(id: string, since: string | Date, until?: string | Date): Promise<Recovering> {
    const iso = (d: string | Date) => (d instanceof Date ? d.toISOString() : d);
    const body = until === undefined ? { since: iso(since) } : { since: iso(since), until: iso(until) };
    return (await this.t.request<Data<Recovering>>('POST', `${this.path}/${encodeURIComponent(id)}/recover`, { body })).data;
  }

  async rotateSecret(id: string): Promise<SecretRotated> {
    return (await this.t.request<Data<SecretRotated>>('POST', `${this.path}/${encodeURIComponent(id)}/rotate-secret`)).data;
  }

  /** Sends a `webhook.test` event through the normal delivery path. */
  async test(id: string): Promise<TestSent> {
    return (await this.t.request<Data<TestSent>>('POST', `${this.path}/${encodeURIComponent(id)}/test`)).data;
  }
}

/** `/v1/media`: files to send. */
export class Media {
  constructor(private readonly t: Transport) {}

  /** Uploads a file (`image/png`, `application/pdf`, …; the bytes must begin as the type's do). */
  async upload(bytes: Uint8Array<ArrayBuffer> | ArrayBuffer | Blob, contentType: string, opts: { filename?: string } = {}): Promise<MediaView> {
    const init = { raw: bytes, query: { filename: opts.filename }, headers: { 'Content-Type': contentType } };
    return (await this.t.request<Data<MediaView>>('POST', '/v1/media', init)).data;
  }

  /** The record, with a fresh signed `url` (good for 7 days, no key needed). */
  async get(id: string): Promise<MediaView> {
    return (await this.t.request<Data<MediaView>>('GET', `/v1/media/${encodeURIComponent(id)}`)).data;
  }

  /** The file's bytes. */
  async content(id: string): Promise<Uint8Array> {
    const res = await this.t.send('GET', `/v1/media/${encodeURIComponent(id)}/content`);
    return new Uint8Array(await res.arrayBuffer());
  }
}

/** An event: its name, id and time, and the fields of its kind (`message_id`, `status`, …). */
export type PigeonEvent = EventItem & Record<string, unknown>;

/** `/v1/events`: the tenant's events in the order they became durable. */
export class Events {
  constructor(private readonly t: Transport) {}

  /** Every event after `after` (from the oldest kept without it), up to the end of the log. */
  async *list(opts: { after?: string; types?: string[]; limit?: number } = {}): AsyncGenerator<PigeonEvent> {
    const q: Query = { ...opts };
    for (;;) {
      const page = await this.t.request<Page<PigeonEvent>>('GET', '/v1/events', { query: q });
      if (page.data.length === 0) return;
      yield* page.data;
      q.after = page.next_cursor;
    }
  }

  /** Every event after `after`, then each new one as it comes (long polls of `wait` s), forever. */
  async *follow(opts: { after?: string; types?: string[]; wait?: number } = {}): AsyncGenerator<PigeonEvent> {
    const q: Query = { wait: 30, ...opts };
    for (;;) {
      const page = await this.t.request<Page<PigeonEvent>>('GET', '/v1/events', { query: q });
      yield* page.data;
      q.after = page.next_cursor;
    }
  }
}

/**
 * A tenant's client: `new Pigeon({ apiKey })`, then `.messages`, `.media`, `.contacts`,
 * `.templates`, `.webhooks` and `.events`. 429, 500 and 503 are tried again as the spec's client guidance
 * says (`Retry-After` honoured; at most 3, 3 and 5 attempts); a request that got no answer is
 * tried again when repeating it is harmless (reads, deletes, sends).
 */
export class Pigeon {
  readonly messages: Messages;
  readonly media: Media;
  readonly contacts: Contacts;
  readonly templates: Templates;
  readonly webhooks: Webhooks;
  readonly events: Events;

  constructor(options: PigeonOptions) {
    const t = new Transport({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      retries: options.retries ?? true,
      timeoutMs: options.timeoutMs ?? 40_000,
      sleep: options.sleep ?? ((s) => new Promise((r) => setTimeout(r, s * 1000))),
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    });
    this.messages = new Messages(t);
    this.media = new Media(t);
    this.contacts = new Contacts(t, '/v1/contacts');
    this.templates = new Templates(t, '/v1/templates');
    this.webhooks = new Webhooks(t, '/v1/webhooks');
    this.events = new Events(t);
  }
}
