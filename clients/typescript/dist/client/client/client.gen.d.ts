import type { Client, Config } from './types.gen';
export declare const createClient: (config?: Config) => Client;
