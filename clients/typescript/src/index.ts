/**
 * pigeon's typed client. The operations and types are generated from the server's OpenAPI document
 * (`src/client/`, by clients/generate); this file adds only `pigeon()`, a client for one node and one
 * bearer token, since every call of the API needs both.
 */
import { type Client, createClient, createConfig } from './client/client';

export * from './client';
export type { Client } from './client/client';

/** A client for the node at `baseUrl` that sends `token` (a tenant's API key, or the operator token). */
export function pigeon(baseUrl: string, token: string): Client {
  return createClient(createConfig({ baseUrl, auth: token }));
}
