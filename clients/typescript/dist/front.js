"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Pigeon = exports.Events = exports.Media = exports.Webhooks = exports.Templates = exports.Contacts = exports.Messages = exports.PigeonError = exports.DEFAULT_BASE_URL = void 0;
exports.DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/**
 * An answer outside 2xx, in the API's envelope, or a request that got no answer. `status` is
 * the HTTP status (`undefined` without an answer: code `CONNECTION_FAILED` when none came,
 * `INVALID_SIGNATURE` from `verifyWebhook`); `retryAfter` the seconds `Retry-After` asked for.
 */
class PigeonError extends Error {
    status;
    code;
    error;
    retryAfter;
    requestId;
    constructor(status, code, error, init = {}) {
        super(status === undefined ? `${code}: ${error}` : `${status} ${code}: ${error}`, { cause: init.cause });
        this.name = 'PigeonError';
        this.status = status;
        this.code = code;
        this.error = error;
        this.retryAfter = init.retryAfter;
        this.requestId = init.requestId;
    }
}
exports.PigeonError = PigeonError;
/** The spec's client guidance: attempts in all, and the waits (seconds) when `Retry-After` names none. */
const RETRIES = {
    429: [3, [1, 1]],
    500: [3, [1, 2]],
    503: [5, [2, 4, 8, 16]],
};
class Transport {
    o;
    base;
    headers;
    constructor(o) {
        this.o = o;
        this.base = o.baseUrl.replace(/\/+$/, '');
        this.headers = { Authorization: `Bearer ${o.apiKey}` };
    }
    async request(method, path, init = {}) {
        return (await (await this.send(method, path, init)).json());
    }
    /** The successful answer, after the retries the spec's guidance allows. */
    async send(method, path, init = {}) {
        const url = new URL(this.base + path);
        for (const [k, v] of Object.entries(init.query ?? {})) {
            if (v !== undefined && v !== null)
                url.searchParams.set(k, Array.isArray(v) ? v.join(',') : String(v));
        }
        const headers = { ...this.headers, ...(init.headers ?? {}) };
        if (init.body !== undefined)
            headers['Content-Type'] = 'application/json';
        const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
        // Sending twice is harmless for reads, deletes and writes with an Idempotency-Key.
        const repeatable = method === 'GET' || method === 'DELETE' || 'Idempotency-Key' in headers;
        for (let attempt = 1;; attempt++) {
            let res;
            try {
                res = await this.o.fetch(url, {
                    method,
                    headers,
                    body,
                    signal: AbortSignal.timeout(this.o.timeoutMs),
                });
            }
            catch (e) {
                const [limit, waits] = RETRIES[500];
                if (this.o.retries && repeatable && attempt < limit) {
                    await this.o.sleep(waits[Math.min(attempt, waits.length) - 1]);
                    continue;
                }
                throw new PigeonError(undefined, 'CONNECTION_FAILED', e instanceof Error ? e.message : String(e), { cause: e });
            }
            if (res.ok)
                return res;
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
    async *pages(path, query) {
        const q = { ...query };
        for (;;) {
            const page = await this.request('GET', path, { query: q });
            yield* page.data;
            if (!page.next_cursor)
                return;
            q.after = page.next_cursor;
        }
    }
}
function retryAfterOf(res) {
    const v = res.headers.get('retry-after');
    const n = v === null ? NaN : Number(v);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
}
async function errorOf(res, retryAfter) {
    const text = await res.text().catch(() => '');
    let code = `HTTP_${res.status}`;
    let error = text.slice(0, 200) || res.statusText;
    try {
        const body = JSON.parse(text);
        if (typeof body.code === 'string') {
            code = body.code;
            error = String(body.error ?? '');
        }
    }
    catch {
        // Not the envelope: the status and the text say what there is.
    }
    return new PigeonError(res.status, code, error, { retryAfter, requestId: res.headers.get('x-request-id') ?? undefined });
}
/** `/v1/messages`. */
class Messages {
    t;
    constructor(t) {
        this.t = t;
    }
    /**
     * Sends a text. Every send carries an `Idempotency-Key` (one is made unless given), so a retry
     * after a lost answer never sends twice.
     */
    async send(body, opts = {}) {
        const key = opts.idempotencyKey ?? `sdk-${globalThis.crypto.randomUUID()}`;
        const r = await this.t.request('POST', '/v1/messages', { body, headers: { 'Idempotency-Key': key } });
        return r.data;
    }
    async get(id) {
        return (await this.t.request('GET', `/v1/messages/${encodeURIComponent(id)}`)).data;
    }
    /** Cancels a message still queued or held. */
    async cancel(id) {
        return (await this.t.request('DELETE', `/v1/messages/${encodeURIComponent(id)}`)).data;
    }
    /** Every message matching the filters, across pages: `for await (const m of pigeon.messages.list({...}))`. */
    list(filters = {}) {
        return this.t.pages('/v1/messages', filters);
    }
}
exports.Messages = Messages;
class Crud {
    t;
    path;
    constructor(t, path) {
        this.t = t;
        this.path = path;
    }
    async get(id) {
        return (await this.t.request('GET', `${this.path}/${encodeURIComponent(id)}`)).data;
    }
    list(filters) {
        return this.t.pages(this.path, filters ?? {});
    }
    async update(id, body) {
        return (await this.t.request('PATCH', `${this.path}/${encodeURIComponent(id)}`, { body })).data;
    }
    async delete(id) {
        return (await this.t.request('DELETE', `${this.path}/${encodeURIComponent(id)}`)).data;
    }
}
/** `/v1/contacts`. */
class Contacts extends Crud {
    async create(body) {
        return (await this.t.request('POST', this.path, { body })).data;
    }
}
exports.Contacts = Contacts;
/** `/v1/templates`. */
class Templates extends Crud {
    async create(body) {
        return (await this.t.request('POST', this.path, { body })).data;
    }
}
exports.Templates = Templates;
/** `/v1/webhooks`. */
class Webhooks extends Crud {
    /** A webhook; the answer holds its `secret`, shown this once. */
    async create(body) {
        return (await this.t.request('POST', this.path, { body })).data;
    }
    /** Delivers again every delivery that failed since `since` (and before `until`), RFC 3339. */
    async recover(id, since, until) {
        const iso = (d) => (d instanceof Date ? d.toISOString() : d);
        const body = until === undefined ? { since: iso(since) } : { since: iso(since), until: iso(until) };
        return (await this.t.request('POST', `${this.path}/${encodeURIComponent(id)}/recover`, { body })).data;
    }
    async rotateSecret(id) {
        return (await this.t.request('POST', `${this.path}/${encodeURIComponent(id)}/rotate-secret`)).data;
    }
    /** Sends a `webhook.test` event through the normal delivery path. */
    async test(id) {
        return (await this.t.request('POST', `${this.path}/${encodeURIComponent(id)}/test`)).data;
    }
}
exports.Webhooks = Webhooks;
/** `/v1/media`: files to send. */
class Media {
    t;
    constructor(t) {
        this.t = t;
    }
    /** Uploads a file (`image/png`, `application/pdf`, …; the bytes must begin as the type's do). */
    async upload(bytes, contentType, opts = {}) {
        const init = { raw: bytes, query: { filename: opts.filename }, headers: { 'Content-Type': contentType } };
        return (await this.t.request('POST', '/v1/media', init)).data;
    }
    /** The record, with a fresh signed `url` (good for 7 days, no key needed). */
    async get(id) {
        return (await this.t.request('GET', `/v1/media/${encodeURIComponent(id)}`)).data;
    }
    /** The file's bytes. */
    async content(id) {
        const res = await this.t.send('GET', `/v1/media/${encodeURIComponent(id)}/content`);
        return new Uint8Array(await res.arrayBuffer());
    }
}
exports.Media = Media;
/** `/v1/events`: the tenant's events in the order they became durable. */
class Events {
    t;
    constructor(t) {
        this.t = t;
    }
    /** Every event after `after` (from the oldest kept without it), up to the end of the log. */
    async *list(opts = {}) {
        const q = { ...opts };
        for (;;) {
            const page = await this.t.request('GET', '/v1/events', { query: q });
            if (page.data.length === 0)
                return;
            yield* page.data;
            q.after = page.next_cursor;
        }
    }
    /** Every event after `after`, then each new one as it comes (long polls of `wait` s), forever. */
    async *follow(opts = {}) {
        const q = { wait: 30, ...opts };
        for (;;) {
            const page = await this.t.request('GET', '/v1/events', { query: q });
            yield* page.data;
            q.after = page.next_cursor;
        }
    }
}
exports.Events = Events;
/**
 * A tenant's client: `new Pigeon({ apiKey })`, then `.messages`, `.media`, `.contacts`,
 * `.templates`, `.webhooks` and `.events`. 429, 500 and 503 are tried again as the spec's client guidance
 * says (`Retry-After` honoured; at most 3, 3 and 5 attempts); a request that got no answer is
 * tried again when repeating it is harmless (reads, deletes, sends).
 */
class Pigeon {
    messages;
    media;
    contacts;
    templates;
    webhooks;
    events;
    constructor(options) {
        const t = new Transport({
            apiKey: options.apiKey,
            baseUrl: options.baseUrl ?? exports.DEFAULT_BASE_URL,
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
exports.Pigeon = Pigeon;
