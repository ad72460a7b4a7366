/**
 * Checking that a webhook request came from pigeon, before trusting its body. Web Crypto
 * (`globalThis.crypto.subtle`), so it runs in Node 20 and in workers alike, without dependencies.
 */
import { type PigeonEvent } from './front';
type Headers_ = Headers | Record<string, string | string[] | undefined>;
/**
 * The event of a webhook request, once its signature is checked over the exact `body` received
 * (bytes or the raw text); rejects with `PigeonError` code `INVALID_SIGNATURE` otherwise. A
 * generated `whsec_…` secret is checked by Standard Webhooks' headers (a timestamp more than
 * `toleranceSeconds` from now is refused: a replay); any other secret by `x-service-signature`.
 */
export declare function verifyWebhook(body: Uint8Array | string, headers: Headers_, secret: string, opts?: {
    toleranceSeconds?: number;
    now?: number;
}): Promise<PigeonEvent>;
export {};
