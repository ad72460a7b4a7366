/**
 * The hand-written front: `Pigeon`, its resources, `PigeonError`, paging and retries, over the
 * platform's `fetch`. The types are the generated ones (`./client`).
 */
import type { Accepted, ContactsListData, ContactView, CreateContact, CreateTemplate, CreateWebhook, Deleted, EventItem, MediaView, MessagesListData, MessageView, PatchContact, PatchTemplate, PatchWebhook, Recovering, SecretRotated, SendBody, TemplatesListData, TemplateView, TestSent, WebhookCreated, WebhookItem } from './client';
export declare const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
/**
 * An answer outside 2xx, in the API's envelope, or a request that got no answer. `status` is
 * the HTTP status (`undefined` without an answer: code `CONNECTION_FAILED` when none came,
 * `INVALID_SIGNATURE` from `verifyWebhook`); `retryAfter` the seconds `Retry-After` asked for.
 */
export declare class PigeonError extends Error {
    readonly status: number | undefined;
    readonly code: string;
    readonly error: string;
    readonly retryAfter: number | undefined;
    readonly requestId: string | undefined;
    constructor(status: number | undefined, code: string, error: string, init?: {
        retryAfter?: number;
        requestId?: string;
        cause?: unknown;
    });
}
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
type Init = {
    query?: Query;
    body?: unknown;
    raw?: Uint8Array<ArrayBuffer> | ArrayBuffer | Blob;
    headers?: Record<string, string>;
};
declare class Transport {
    private readonly o;
    private readonly base;
    private readonly headers;
    constructor(o: Required<Omit<PigeonOptions, 'apiKey' | 'baseUrl'>> & {
        apiKey: string;
        baseUrl: string;
    });
    request<T>(method: string, path: string, init?: Init): Promise<T>;
    /** The successful answer, after the retries the spec's guidance allows. */
    send(method: string, path: string, init?: Init): Promise<Response>;
    pages<T>(path: string, query: Query): AsyncGenerator<T>;
}
/** `/v1/messages`. */
export declare class Messages {
    private readonly t;
    constructor(t: Transport);
    /**
     * Sends a text. Every send carries an `Idempotency-Key` (one is made unless given), so a retry
     * after a lost answer never sends twice.
     */
    send(body: SendBody, opts?: {
        idempotencyKey?: string;
    }): Promise<Accepted>;
    get(id: string): Promise<MessageView>;
    /** Cancels a message still queued or held. */
    cancel(id: string): Promise<MessageView>;
    /** Every message matching the filters, across pages: `for await (const m of pigeon.messages.list({...}))`. */
    list(filters?: NonNullable<MessagesListData['query']>): AsyncGenerator<MessageView>;
}
declare class Crud<T, Patch, Filters extends Query> {
    protected readonly t: Transport;
    protected readonly path: string;
    constructor(t: Transport, path: string);
    get(id: string): Promise<T>;
    list(filters?: Filters): AsyncGenerator<T>;
    update(id: string, body: Patch): Promise<T>;
    delete(id: string): Promise<Deleted>;
}
type ListQuery<D extends {
    query?: unknown;
}> = NonNullable<D['query']> & Query;
/** `/v1/contacts`. */
export declare class Contacts extends Crud<ContactView, PatchContact, ListQuery<ContactsListData>> {
    create(body: CreateContact): Promise<ContactView>;
}
/** `/v1/templates`. */
export declare class Templates extends Crud<TemplateView, PatchTemplate, ListQuery<TemplatesListData>> {
    create(body: CreateTemplate): Promise<TemplateView>;
}
/** `/v1/webhooks`. */
export declare class Webhooks extends Crud<WebhookItem, PatchWebhook, {
    limit?: number;
    after?: string;
}> {
    /** A webhook; the answer holds its `secret`, shown this once. */
    create(body: CreateWebhook): Promise<WebhookCreated>;
    /** Delivers again every delivery that failed since `since` (and before `until`), RFC 3339. */
    recover(id: string, since: string | Date, until?: string | Date): Promise<Recovering>;
    rotateSecret(id: string): Promise<SecretRotated>;
    /** Sends a `webhook.test` event through the normal delivery path. */
    test(id: string): Promise<TestSent>;
}
/** `/v1/media`: files to send. */
export declare class Media {
    private readonly t;
    constructor(t: Transport);
    /** Uploads a file (`image/png`, `application/pdf`, …; the bytes must begin as the type's do). */
    upload(bytes: Uint8Array<ArrayBuffer> | ArrayBuffer | Blob, contentType: string, opts?: {
        filename?: string;
    }): Promise<MediaView>;
    /** The record, with a fresh signed `url` (good for 7 days, no key needed). */
    get(id: string): Promise<MediaView>;
    /** The file's bytes. */
    content(id: string): Promise<Uint8Array>;
}
/** An event: its name, id and time, and the fields of its kind (`message_id`, `status`, …). */
export type PigeonEvent = EventItem & Record<string, unknown>;
/** `/v1/events`: the tenant's events in the order they became durable. */
export declare class Events {
    private readonly t;
    constructor(t: Transport);
    /** Every event after `after` (from the oldest kept without it), up to the end of the log. */
    list(opts?: {
        after?: string;
        types?: string[];
        limit?: number;
    }): AsyncGenerator<PigeonEvent>;
    /** Every event after `after`, then each new one as it comes (long polls of `wait` s), forever. */
    follow(opts?: {
        after?: string;
        types?: string[];
        wait?: number;
    }): AsyncGenerator<PigeonEvent>;
}
/**
 * A tenant's client: `new Pigeon({ apiKey })`, then `.messages`, `.media`, `.contacts`,
 * `.templates`, `.webhooks` and `.events`. 429, 500 and 503 are tried again as the spec's client guidance
 * says (`Retry-After` honoured; at most 3, 3 and 5 attempts); a request that got no answer is
 * tried again when repeating it is harmless (reads, deletes, sends).
 */
export declare class Pigeon {
    readonly messages: Messages;
    readonly media: Media;
    readonly contacts: Contacts;
    readonly templates: Templates;
    readonly webhooks: Webhooks;
    readonly events: Events;
    constructor(options: PigeonOptions);
}
export {};
