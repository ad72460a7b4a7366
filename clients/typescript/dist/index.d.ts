/**
 * pigeon's TypeScript SDK. `Pigeon` is the hand-written front (typed answers, `PigeonError`,
 * lists as async iterators over every page, the spec's retries) and `verifyWebhook` checks a
 * webhook's signature. Every operation of the API, the operator's included, is also exported as
 * generated from the server's OpenAPI document (`src/client/`, by clients/generate), with
 * `pigeon()` making a client for those.
 */
import { type Client } from './client/client';
export * from './client';
export type { Client } from './client/client';
export { DEFAULT_BASE_URL, Pigeon, PigeonError, type PigeonEvent, type PigeonOptions } from './front';
export { verifyWebhook } from './webhooks';
/** A generated-layer client for the node at `baseUrl` that sends `token` (a tenant's key, or the operator token). */
export declare function pigeon(baseUrl: string, token: string): Client;
