"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.verifyWebhook = exports.PigeonError = exports.Pigeon = exports.DEFAULT_BASE_URL = void 0;
exports.pigeon = pigeon;
/**
 * pigeon's TypeScript SDK. `Pigeon` is the hand-written front (typed answers, `PigeonError`,
 * lists as async iterators over every page, the spec's retries) and `verifyWebhook` checks a
 * webhook's signature. Every operation of the API, the operator's included, is also exported as
 * generated from the server's OpenAPI document (`src/client/`, by clients/generate), with
 * `pigeon()` making a client for those.
 */
const client_1 = require("./client/client");
__exportStar(require("./client"), exports);
var front_1 = require("./front");
Object.defineProperty(exports, "DEFAULT_BASE_URL", { enumerable: true, get: function () { return front_1.DEFAULT_BASE_URL; } });
Object.defineProperty(exports, "Pigeon", { enumerable: true, get: function () { return front_1.Pigeon; } });
Object.defineProperty(exports, "PigeonError", { enumerable: true, get: function () { return front_1.PigeonError; } });
var webhooks_1 = require("./webhooks");
Object.defineProperty(exports, "verifyWebhook", { enumerable: true, get: function () { return webhooks_1.verifyWebhook; } });
/** A generated-layer client for the node at `baseUrl` that sends `token` (a tenant's key, or the operator token). */
function pigeon(baseUrl, token) {
    return (0, client_1.createClient)((0, client_1.createConfig)({ baseUrl, auth: token }));
}
