"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.verifyWebhook = verifyWebhook;
/**
 * Checking that a webhook request came from pigeon, before trusting its body. Web Crypto
 * (`globalThis.crypto.subtle`), so it runs in Node 20 and in workers alike, without dependencies.
 */
const front_1 = require("./front");
const TOLERANCE_SECONDS = 300;
function header(headers, name) {
    if (typeof headers.get === 'function')
        return headers.get(name) ?? undefined;
    for (const [k, v] of Object.entries(headers)) {
        if (k.toLowerCase() === name)
            return Array.isArray(v) ? v[0] : v;
    }
    return undefined;
}
const refused = (why) => new front_1.PigeonError(undefined, 'INVALID_SIGNATURE', why);
async function hmac(key, data) {
    // Copies on a plain ArrayBuffer, as Web Crypto takes (a Node Buffer may sit on a shared one).
    const raw = new Uint8Array(key);
    const k = await globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', k, new Uint8Array(data)));
}
/** Compares without stopping at the first difference. */
function same(a, b) {
    if (a.length !== b.length)
        return false;
    let d = 0;
    for (let i = 0; i < a.length; i++)
        d |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return d === 0;
}
const toBase64 = (b) => btoa(String.fromCharCode(...b));
const fromBase64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
/**
 * The event of a webhook request, once its signature is checked over the exact `body` received
 * (bytes or the raw text); rejects with `PigeonError` code `INVALID_SIGNATURE` otherwise. A
 * generated `whsec_…` secret is checked by Standard Webhooks' headers (a timestamp more than
 * `toleranceSeconds` from now is refused: a replay); any other secret by `x-service-signature`.
 */
async function verifyWebhook(body, headers, secret, opts = {}) {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    let ok;
    if (secret.startsWith('whsec_')) {
        const id = header(headers, 'webhook-id');
        const stamp = header(headers, 'webhook-timestamp');
        const signature = header(headers, 'webhook-signature');
        if (!id || !stamp || !signature)
            throw refused('the webhook-id, webhook-timestamp and webhook-signature headers are required');
        const sent = Number(stamp);
        if (!Number.isInteger(sent))
            throw refused('webhook-timestamp is not a number of seconds');
        const now = opts.now ?? Date.now() / 1000;
        const tolerance = opts.toleranceSeconds ?? TOLERANCE_SECONDS;
        if (Math.abs(now - sent) > tolerance)
            throw refused(`webhook-timestamp is more than ${tolerance} s from now`);
        const prefix = new TextEncoder().encode(`${id}.${sent}.`);
        const signed = new Uint8Array(prefix.length + bytes.length);
        signed.set(prefix);
        signed.set(bytes, prefix.length);
        const expected = toBase64(await hmac(fromBase64(secret.slice('whsec_'.length)), signed));
        ok = signature
            .split(' ')
            .filter((p) => p.startsWith('v1,'))
            .some((p) => same(p.slice(3), expected));
    }
    else {
        const expected = 'sha256=' + toHex(await hmac(new TextEncoder().encode(secret), bytes));
        ok = same(header(headers, 'x-service-signature') ?? '', expected);
    }
    if (!ok)
        throw refused('the signature does not match the body and the secret');
    return JSON.parse(new TextDecoder().decode(bytes));
}
