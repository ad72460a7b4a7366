/**
 * The generated TypeScript SDK against a real pigeon: the operator makes a tenant and a sim phone,
 * the tenant sends, reads the text delivered, lists it, and gets a typed error for a bad number.
 *
 * Run by `clients/generate --test` (PIGEON names the executable).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  messagesGet,
  messagesList,
  messagesSend,
  operationsReadyz,
  operatorCreatePhone,
  operatorCreateTenant,
  operatorPatchTenant,
  pigeon,
} from '../src';

const ADMIN = 'svc_admin_typescript_sdk_test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'pigeon-typescript-sdk-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.env.PIGEON ?? 'target/debug/pigeon', ['serve', '--addr', `127.0.0.1:${port}`], {
    env: { ...process.env, PIGEON_ADMIN_TOKEN: ADMIN, PIGEON_DATA_DIR: join(data, 'store'), PIGEON_LOG: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const probe = pigeon(base, 'none');
    for (let i = 0; ; i++) {
      const ready = await operationsReadyz({ client: probe }).catch(() => undefined);
      if (ready?.response?.status === 200) break;
      if (i > 200) throw new Error('pigeon did not become ready');
      await sleep(50);
    }

    const operator = pigeon(base, ADMIN);
    const created = await operatorCreateTenant({ client: operator, body: { name: 'sdk', plan: 'scale' }, throwOnError: true });
    const tenant = created.data.data;
    // Quiet hours could hold the text at some hours of the day; this test must pass at any hour.
    const patched = await operatorPatchTenant({
      client: operator,
      path: { id: tenant.id },
      body: { quiet_hours: { enabled: false } },
      throwOnError: true,
    });
    assert.equal(patched.data.data.quiet_hours.enabled, false);
    const phone = await operatorCreatePhone({
      client: operator,
      body: { tenant_id: tenant.id, number: '+15550100001', driver: 'sim', sim: { latency_ms: 0 } },
      throwOnError: true,
    });
    assert.equal(phone.data.data.number, '+15550100001');

    const client = pigeon(base, tenant.keys.live.key);
    const accepted = await messagesSend({
      client,
      body: { to: '+15551234567', body: 'hello from typescript' },
      headers: { 'Idempotency-Key': 'typescript-sdk-1' },
      throwOnError: true,
    });
    const id = accepted.data.data.message_id;
    assert.equal(accepted.data.data.status, 'queued');
    // The same Idempotency-Key answers the first 202 again.
    const again = await messagesSend({
      client,
      body: { to: '+15551234567', body: 'hello from typescript' },
      headers: { 'Idempotency-Key': 'typescript-sdk-1' },
      throwOnError: true,
    });
    assert.equal(again.data.data.message_id, id);

    let status = '';
    for (let i = 0; i < 200 && status !== 'delivered'; i++) {
      status = (await messagesGet({ client, path: { id }, throwOnError: true })).data.data.status;
      if (status !== 'delivered') await sleep(50);
    }
    assert.equal(status, 'delivered');

    const listed = await messagesList({ client, query: { to: '+15551234567' }, throwOnError: true });
    assert.deepEqual(listed.data.data.map((m) => m.message_id), [id]);

    const bad = await messagesSend({ client, body: { to: '12345', body: 'hi' } });
    assert.equal(bad.response.status, 400);
    assert.equal(bad.data, undefined);
    assert.equal(bad.error?.code, 'INVALID_PHONE_NUMBER');

    const stranger = await messagesSend({ client: pigeon(base, 'svc_live_not_a_key'), body: { to: '+15551234567', body: 'hi' } });
    assert.equal(stranger.response.status, 401);
    assert.equal(stranger.error?.code, 'INVALID_API_KEY');
    console.log('typescript SDK: ok');
  } finally {
    server.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
