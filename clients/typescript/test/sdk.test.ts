/**
 * The TypeScript SDK against a real pigeon, as an integrator would use it, through the compiled
 * package it ships (`dist/`): the operator (through the generated layer) makes a tenant and a sim
 * phone; the tenant sends through `Pigeon`, reads typed answers, pages through lists, gets
 * `PigeonError`s, is retried past a 429, reads its events, and verifies a webhook pigeon signed.
 *
 * Run by `clients/generate --test` (PIGEON names the executable).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The shipped build, as `npm install ./clients/typescript` gets it.
import {
  operationsReadyz,
  operatorCreatePhone,
  operatorCreateTenant,
  operatorPatchTenant,
  Pigeon,
  pigeon,
  PigeonError,
  verifyWebhook,
} from '../dist';

const ADMIN = 'svc_admin_typescript_sdk_test';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function rejects(p: Promise<unknown>): Promise<PigeonError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof PigeonError, `a PigeonError, not ${e}`);
    return e;
  }
  throw new Error('expected a PigeonError');
}

/** A webhook receiver on loopback: each request's raw body and headers, in order. */
function receiver(): Promise<{ url: string; next: () => Promise<{ body: Buffer; headers: IncomingHttpHeaders }>; close: () => void }> {
  const got: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server = createHttpServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(parts), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      let read = 0;
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        next: async () => {
          for (let i = 0; i < 400 && got.length <= read; i++) await sleep(50);
          assert.ok(got.length > read, 'no webhook arrived');
          return got[read++];
        },
        close: () => server.close(),
      });
    }),
  );
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'pigeon-typescript-sdk-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PIGEON_ADMIN_TOKEN: ADMIN, PIGEON_DATA_DIR: join(data, 'store'), PIGEON_LOG: 'warn' };
  delete env.PIGEON_DATABASE_URL;
  const server = spawn(process.env.PIGEON ?? 'target/debug/pigeon', ['serve', '--addr', `127.0.0.1:${port}`], {
    env: { ...env, PIGEON_WEBHOOK_ALLOW_PRIVATE: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const rx = await receiver();
  try {
    const probe = pigeon(base, 'none');
    for (let i = 0; ; i++) {
      const ready = await operationsReadyz({ client: probe }).catch(() => undefined);
      if (ready?.response?.status === 200) break;
      if (i > 200) throw new Error('pigeon did not become ready');
      await sleep(50);
    }

    // The operator's side, through the generated layer.
    const operator = pigeon(base, ADMIN);
    const created = await operatorCreateTenant({ client: operator, body: { name: 'sdk', plan: 'scale' }, throwOnError: true });
    const tenant = created.data.data;
    // Quiet hours could hold the text at some hours of the day; this test must pass at any hour.
    await operatorPatchTenant({ client: operator, path: { id: tenant.id }, body: { quiet_hours: { enabled: false } }, throwOnError: true });
    await operatorCreatePhone({
      client: operator,
      body: { tenant_id: tenant.id, number: '+15550100001', driver: 'sim', sim: { latency_ms: 0 } },
      throwOnError: true,
    });

    // Send, read back delivered.
    const p = new Pigeon({ apiKey: tenant.keys.live.key, baseUrl: base });
    const accepted = await p.messages.send({ to: '+15551234567', body: 'hello from typescript' });
    assert.equal(accepted.status, 'queued');
    let m = await p.messages.get(accepted.message_id);
    for (let i = 0; i < 200 && m.status !== 'delivered'; i++) {
      await sleep(50);
      m = await p.messages.get(accepted.message_id);
    }
    assert.equal(m.status, 'delivered');
    // The same Idempotency-Key answers the first 202 again.
    const once = await p.messages.send({ to: '+15551234567', body: 'again' }, { idempotencyKey: 'ts-1' });
    const twice = await p.messages.send({ to: '+15551234567', body: 'again' }, { idempotencyKey: 'ts-1' });
    assert.equal(twice.message_id, once.message_id);

    // Every page, two to a page.
    const ids = [accepted.message_id, once.message_id];
    for (let i = 0; i < 3; i++) ids.push((await p.messages.send({ to: '+15551234568', body: `n${i}` })).message_id);
    const listed: string[] = [];
    for await (const x of p.messages.list({ limit: 2 })) listed.push(x.message_id);
    assert.deepEqual(listed, ids);
    const desc: string[] = [];
    for await (const x of p.messages.list({ order: 'desc', limit: 2 })) desc.push(x.message_id);
    assert.deepEqual(desc, [...ids].reverse());

    // Contacts have the same shape.
    const c = await p.contacts.create({ phone: '+15551234567', name: 'Ada' });
    assert.equal((await p.contacts.update(c.id, { name: 'Ada L.' })).name, 'Ada L.');
    assert.equal((await p.contacts.delete(c.id)).deleted, true);

    // Events of the first message, read to the end of the log.
    const seen: string[] = [];
    for await (const e of p.events.list({ types: ['message.sent', 'message.delivered'] })) {
      if (e.message_id === accepted.message_id) seen.push(e.event);
    }
    assert.deepEqual(seen, ['message.sent', 'message.delivered']);

    // Media up and back, by key and by its signed link (no key).
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 5000 }, (_, i) => i % 251)]);
    const up = await p.media.upload(png, 'image/png', { filename: 'cat.png' });
    assert.deepEqual([up.content_type, up.size, up.filename], ['image/png', png.length, 'cat.png']);
    assert.equal((await p.media.get(up.media_id)).sha256, up.sha256);
    assert.deepEqual(await p.media.content(up.media_id), png);
    assert.deepEqual(new Uint8Array(await (await fetch(up.url)).arrayBuffer()), png);
    const notPng = await rejects(p.media.upload(new TextEncoder().encode('not a png'), 'image/png'));
    assert.deepEqual([notPng.status, notPng.code], [400, 'INVALID_MEDIA']);

    // Errors are PigeonErrors, with the envelope's code.
    const bad = await rejects(p.messages.send({ to: '12345', body: 'hi' }));
    assert.deepEqual([bad.status, bad.code], [400, 'INVALID_PHONE_NUMBER']);
    assert.ok(bad.requestId);
    const stranger = await rejects(new Pigeon({ apiKey: 'svc_live_not_a_key', baseUrl: base }).messages.get(accepted.message_id));
    assert.deepEqual([stranger.status, stranger.code], [401, 'INVALID_API_KEY']);
    // No answer at all: tried again (a read), then a PigeonError, not a TypeError.
    const waits: number[] = [];
    const closed = new Pigeon({ apiKey: 'svc_live_x', baseUrl: `http://127.0.0.1:${await freePort()}`, sleep: async (s) => void waits.push(s) });
    const down = await rejects(closed.messages.get(accepted.message_id));
    assert.deepEqual([down.status, down.code, waits], [undefined, 'CONNECTION_FAILED', [1, 2]]);

    // A 429 waited out as Retry-After says; raised at once without retries.
    const key = await fetch(`${base}/v1/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.keys.live.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'slow', rate_limit: 60 }),
    }).then((r) => r.json() as Promise<{ data: { key: string } }>);
    const slow = key.data.key;
    while ((await fetch(`${base}/v1/messages`, { headers: { Authorization: `Bearer ${slow}` } })).status !== 429);
    const limited = await rejects(new Pigeon({ apiKey: slow, baseUrl: base, retries: false }).messages.send({ to: '+15551234567', body: 'hi' }));
    assert.deepEqual([limited.status, limited.code], [429, 'RATE_LIMIT_EXCEEDED']);
    assert.ok((limited.retryAfter ?? 0) >= 1);
    const slept: number[] = [];
    const patient = new Pigeon({ apiKey: slow, baseUrl: base, sleep: (s) => (slept.push(s), sleep(s * 1000)) });
    assert.equal((await patient.messages.send({ to: '+15551234567', body: 'hi' })).status, 'queued');
    assert.equal(slept.length, 1);
    assert.ok(slept[0] >= 1);

    // A webhook pigeon signed verifies; a changed body or an old timestamp does not.
    const w = await p.webhooks.create({ url: rx.url, events: ['message.delivered'] });
    assert.ok(w.secret.startsWith('whsec_'));
    const sent = await p.webhooks.test(w.id);
    const hit = await rx.next();
    const event = await verifyWebhook(hit.body, hit.headers as Record<string, string>, w.secret);
    assert.deepEqual([event.event, event.event_id], ['webhook.test', sent.event_id]);
    const changed = Buffer.from(hit.body.toString().replace('webhook.test', 'webhook.tesT'));
    assert.equal((await rejects(verifyWebhook(changed, hit.headers as Record<string, string>, w.secret))).code, 'INVALID_SIGNATURE');
    const later = Date.now() / 1000 + 600;
    assert.equal((await rejects(verifyWebhook(hit.body, hit.headers as Record<string, string>, w.secret, { now: later }))).code, 'INVALID_SIGNATURE');
    // A secret of the tenant's own: the spec's x-service-signature.
    const own = await p.webhooks.create({ url: rx.url, events: ['message.delivered'], secret: 'a-secret-of-our-own-choosing' });
    await p.webhooks.test(own.id);
    const ownHit = await rx.next();
    assert.equal((await verifyWebhook(ownHit.body.toString(), ownHit.headers as Record<string, string>, 'a-secret-of-our-own-choosing')).event, 'webhook.test');
    await rejects(verifyWebhook(ownHit.body, ownHit.headers as Record<string, string>, 'another-secret-entirely'));
    // Edited through the front.
    assert.equal((await p.webhooks.update(w.id, { enabled: false })).enabled, false);
    console.log('typescript SDK: ok');
  } finally {
    rx.close();
    server.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
