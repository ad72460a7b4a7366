import type { Client, Options as Options2, TDataShape } from './client';
import type { ApiKeysCreateData, ApiKeysCreateErrors, ApiKeysCreateResponses, ApiKeysListData, ApiKeysListErrors, ApiKeysListResponses, ApiKeysRevokeData, ApiKeysRevokeErrors, ApiKeysRevokeResponses, CampaignsCancelData, CampaignsCancelErrors, CampaignsCancelResponses, CampaignsCreateData, CampaignsCreateErrors, CampaignsCreateResponses, CampaignsGetData, CampaignsGetErrors, CampaignsGetResponses, CampaignsLaunchData, CampaignsLaunchErrors, CampaignsLaunchResponses, CampaignsListData, CampaignsListErrors, CampaignsListResponses, ContactsCreateData, ContactsCreateErrors, ContactsCreateResponses, ContactsDeleteData, ContactsDeleteErrors, ContactsDeleteResponses, ContactsGetData, ContactsGetErrors, ContactsGetResponses, ContactsListData, ContactsListErrors, ContactsListResponses, ContactsPatchData, ContactsPatchErrors, ContactsPatchResponses, EventsListEventsData, EventsListEventsErrors, EventsListEventsResponses, MediaContentData, MediaContentErrors, MediaContentResponses, MediaGetData, MediaGetErrors, MediaGetResponses, MediaUploadData, MediaUploadErrors, MediaUploadResponses, MessagesCancelData, MessagesCancelErrors, MessagesCancelResponses, MessagesDetectData, MessagesDetectErrors, MessagesDetectResponses, MessagesGetData, MessagesGetErrors, MessagesGetResponses, MessagesListData, MessagesListErrors, MessagesListPhonesData, MessagesListPhonesErrors, MessagesListPhonesResponses, MessagesListResponses, MessagesSendData, MessagesSendErrors, MessagesSendResponses, OperationsHealthzData, OperationsHealthzResponses, OperationsMetricsData, OperationsMetricsResponses, OperationsNoopData, OperationsNoopErrors, OperationsNoopResponses, OperationsOpenapiData, OperationsOpenapiResponses, OperationsReadyzData, OperationsReadyzErrors, OperationsReadyzResponses, OperatorBackupData, OperatorBackupErrors, OperatorBackupResponses, OperatorCreatePhoneData, OperatorCreatePhoneErrors, OperatorCreatePhoneResponses, OperatorCreateTenantData, OperatorCreateTenantErrors, OperatorCreateTenantKeyData, OperatorCreateTenantKeyErrors, OperatorCreateTenantKeyResponses, OperatorCreateTenantResponses, OperatorDeactivateKeyData, OperatorDeactivateKeyErrors, OperatorDeactivateKeyResponses, OperatorDeletePhoneData, OperatorDeletePhoneErrors, OperatorDeletePhoneResponses, OperatorFleetData, OperatorFleetErrors, OperatorFleetResponses, OperatorGetTenantData, OperatorGetTenantErrors, OperatorGetTenantResponses, OperatorListPhonesData, OperatorListPhonesErrors, OperatorListPhonesResponses, OperatorListTenantsData, OperatorListTenantsErrors, OperatorListTenantsResponses, OperatorPatchPhoneData, OperatorPatchPhoneErrors, OperatorPatchPhoneResponses, OperatorPatchTenantData, OperatorPatchTenantErrors, OperatorPatchTenantResponses, OperatorReactivateKeyData, OperatorReactivateKeyErrors, OperatorReactivateKeyResponses, OptOutsCreateData, OptOutsCreateErrors, OptOutsCreateResponses, OptOutsDeleteData, OptOutsDeleteErrors, OptOutsDeleteResponses, OptOutsListData, OptOutsListErrors, OptOutsListResponses, PhoneAgentDetectionData, PhoneAgentDetectionErrors, PhoneAgentDetectionResponses, PhoneAgentInboundData, PhoneAgentInboundErrors, PhoneAgentInboundResponses, PhoneAgentJobsData, PhoneAgentJobsErrors, PhoneAgentJobsResponses, PhoneAgentMeData, PhoneAgentMeErrors, PhoneAgentMeResponses, PhoneAgentPhoneContentData, PhoneAgentPhoneContentErrors, PhoneAgentPhoneContentResponses, PhoneAgentPhoneUploadData, PhoneAgentPhoneUploadErrors, PhoneAgentPhoneUploadResponses, PhoneAgentReleaseData, PhoneAgentReleaseErrors, PhoneAgentReleaseResponses, PhoneAgentStatusData, PhoneAgentStatusErrors, PhoneAgentStatusResponses, SettingsGetData, SettingsGetErrors, SettingsGetResponses, SettingsPatchData, SettingsPatchErrors, SettingsPatchResponses, TemplatesCreateData, TemplatesCreateErrors, TemplatesCreateResponses, TemplatesDeleteData, TemplatesDeleteErrors, TemplatesDeleteResponses, TemplatesGetData, TemplatesGetErrors, TemplatesGetResponses, TemplatesListData, TemplatesListErrors, TemplatesListResponses, TemplatesPatchData, TemplatesPatchErrors, TemplatesPatchResponses, WebhooksCreateData, WebhooksCreateErrors, WebhooksCreateResponses, WebhooksDeleteData, WebhooksDeleteErrors, WebhooksDeleteResponses, WebhooksGetWebhookData, WebhooksGetWebhookErrors, WebhooksGetWebhookResponses, WebhooksListData, WebhooksListDeliveriesData, WebhooksListDeliveriesErrors, WebhooksListDeliveriesResponses, WebhooksListErrors, WebhooksListResponses, WebhooksRecoverWebhookData, WebhooksRecoverWebhookErrors, WebhooksRecoverWebhookResponses, WebhooksRetryDeliveryData, WebhooksRetryDeliveryErrors, WebhooksRetryDeliveryResponses, WebhooksRotateSecretData, WebhooksRotateSecretErrors, WebhooksRotateSecretResponses, WebhooksSendTestEventData, WebhooksSendTestEventErrors, WebhooksSendTestEventResponses, WebhooksUpdateWebhookData, WebhooksUpdateWebhookErrors, WebhooksUpdateWebhookResponses } from './types.gen';
export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean, TResponse = unknown> = Options2<TData, ThrowOnError, TResponse> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: Record<string, unknown>;
};
/**
 * Deactivates a key: its calls answer 403 `KEY_INACTIVE` until reactivated.
 */
export declare const operatorDeactivateKey: <ThrowOnError extends boolean = false>(options: Options<OperatorDeactivateKeyData, ThrowOnError>) => import("./client").RequestResult<OperatorDeactivateKeyResponses, OperatorDeactivateKeyErrors, ThrowOnError, "fields">;
/**
 * Reactivates a deactivated key (a revoked key stays revoked: 404).
 */
export declare const operatorReactivateKey: <ThrowOnError extends boolean = false>(options: Options<OperatorReactivateKeyData, ThrowOnError>) => import("./client").RequestResult<OperatorReactivateKeyResponses, OperatorReactivateKeyErrors, ThrowOnError, "fields">;
/**
 * A snapshot of the node's store as a tar archive (`data/`: the store's files;
 * `pigeon-backup.json` last: when it was taken and the records of each tree). It holds every
 * write acknowledged before the request. `pigeon restore FILE --data-dir DIR` unpacks it.
 */
export declare const operatorBackup: <ThrowOnError extends boolean = false>(options?: Options<OperatorBackupData, ThrowOnError>) => import("./client").RequestResult<OperatorBackupResponses, OperatorBackupErrors, ThrowOnError, "fields">;
/**
 * The live nodes of the fleet sharing this node's PostgreSQL database (renewed within three
 * leases, not stopped), oldest first; a node on sled is a fleet of one and lists nothing.
 */
export declare const operatorFleet: <ThrowOnError extends boolean = false>(options?: Options<OperatorFleetData, ThrowOnError>) => import("./client").RequestResult<OperatorFleetResponses, OperatorFleetErrors, ThrowOnError, "fields">;
/**
 * A tenant's phones.
 */
export declare const operatorListPhones: <ThrowOnError extends boolean = false>(options: Options<OperatorListPhonesData, ThrowOnError>) => import("./client").RequestResult<OperatorListPhonesResponses, OperatorListPhonesErrors, ThrowOnError, "fields">;
/**
 * Adds a phone to a tenant. Agent phones get a token, shown once.
 */
export declare const operatorCreatePhone: <ThrowOnError extends boolean = false>(options: Options<OperatorCreatePhoneData, ThrowOnError>) => import("./client").RequestResult<OperatorCreatePhoneResponses, OperatorCreatePhoneErrors, ThrowOnError, "fields">;
/**
 * Deletes a phone. Messages it still owed fail with `error_code: NO_PHONE_AVAILABLE`.
 */
export declare const operatorDeletePhone: <ThrowOnError extends boolean = false>(options: Options<OperatorDeletePhoneData, ThrowOnError>) => import("./client").RequestResult<OperatorDeletePhoneResponses, OperatorDeletePhoneErrors, ThrowOnError, "fields">;
/**
 * Changes a phone's daily limit, enabled flag or (sim) online switch.
 */
export declare const operatorPatchPhone: <ThrowOnError extends boolean = false>(options: Options<OperatorPatchPhoneData, ThrowOnError>) => import("./client").RequestResult<OperatorPatchPhoneResponses, OperatorPatchPhoneErrors, ThrowOnError, "fields">;
/**
 * Lists tenants, oldest first, with usage.
 */
export declare const operatorListTenants: <ThrowOnError extends boolean = false>(options?: Options<OperatorListTenantsData, ThrowOnError>) => import("./client").RequestResult<OperatorListTenantsResponses, OperatorListTenantsErrors, ThrowOnError, "fields">;
/**
 * Creates a tenant with a live and a test key (each shown once).
 */
export declare const operatorCreateTenant: <ThrowOnError extends boolean = false>(options: Options<OperatorCreateTenantData, ThrowOnError>) => import("./client").RequestResult<OperatorCreateTenantResponses, OperatorCreateTenantErrors, ThrowOnError, "fields">;
/**
 * One tenant with usage.
 */
export declare const operatorGetTenant: <ThrowOnError extends boolean = false>(options: Options<OperatorGetTenantData, ThrowOnError>) => import("./client").RequestResult<OperatorGetTenantResponses, OperatorGetTenantErrors, ThrowOnError, "fields">;
/**
 * Changes plan, status, subscription, trial end, limits or quiet hours.
 */
export declare const operatorPatchTenant: <ThrowOnError extends boolean = false>(options: Options<OperatorPatchTenantData, ThrowOnError>) => import("./client").RequestResult<OperatorPatchTenantResponses, OperatorPatchTenantErrors, ThrowOnError, "fields">;
/**
 * The operator's way back in for a tenant that revoked its last key: a new key, shown once
 * (live and all scopes by default; it counts toward the tenant's 50).
 */
export declare const operatorCreateTenantKey: <ThrowOnError extends boolean = false>(options: Options<OperatorCreateTenantKeyData, ThrowOnError>) => import("./client").RequestResult<OperatorCreateTenantKeyResponses, OperatorCreateTenantKeyErrors, ThrowOnError, "fields">;
/**
 * The load harness's baseline: parses the same JSON as `POST /v1/messages` and answers 202,
 * touching no actor and no store. 404 unless the server runs with `--bench-routes`.
 */
export declare const operationsNoop: <ThrowOnError extends boolean = false>(options: Options<OperationsNoopData, ThrowOnError>) => import("./client").RequestResult<OperationsNoopResponses, OperationsNoopErrors, ThrowOnError, "fields">;
/**
 * The process is up.
 */
export declare const operationsHealthz: <ThrowOnError extends boolean = false>(options?: Options<OperationsHealthzData, ThrowOnError>) => import("./client").RequestResult<OperationsHealthzResponses, unknown, ThrowOnError, "fields">;
/**
 * Prometheus text: requests by route and status, latency histograms, group-commit and actor
 * figures, the work waiting (queued, in flight, held, webhook deliveries), and each thread group's
 * CPU time and wait for a core. Unauthenticated, like the probes: it holds no tenant data.
 */
export declare const operationsMetrics: <ThrowOnError extends boolean = false>(options?: Options<OperationsMetricsData, ThrowOnError>) => import("./client").RequestResult<OperationsMetricsResponses, unknown, ThrowOnError, "fields">;
/**
 * This document.
 */
export declare const operationsOpenapi: <ThrowOnError extends boolean = false>(options?: Options<OperationsOpenapiData, ThrowOnError>) => import("./client").RequestResult<OperationsOpenapiResponses, unknown, ThrowOnError, "fields">;
/**
 * Answers a `detect` job.
 */
export declare const phoneAgentDetection: <ThrowOnError extends boolean = false>(options: Options<PhoneAgentDetectionData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentDetectionResponses, PhoneAgentDetectionErrors, ThrowOnError, "fields">;
/**
 * A text the phone received. Recorded as an inbound message; opt-out keywords apply at once.
 * With an `Idempotency-Key` (the agent's id for the text), a repeat within 24 h answers the first
 * record and records nothing, so an agent may retry after a crash without a duplicate.
 */
export declare const phoneAgentInbound: <ThrowOnError extends boolean = false>(options: Options<PhoneAgentInboundData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentInboundResponses, PhoneAgentInboundErrors, ThrowOnError, "fields">;
/**
 * Long poll for work: leased jobs at once, or the first to arrive within `wait` seconds (≤ 30).
 * Polling keeps the phone online.
 */
export declare const phoneAgentJobs: <ThrowOnError extends boolean = false>(options?: Options<PhoneAgentJobsData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentJobsResponses, PhoneAgentJobsErrors, ThrowOnError, "fields">;
/**
 * The agent says which messages it still holds; every other lease of its phone goes back to the
 * queue at once. An agent calls it when it starts, and after a poll whose answer it lost, so a
 * job answered to a poll it never read does not wait out its 60 s lease.
 */
export declare const phoneAgentRelease: <ThrowOnError extends boolean = false>(options: Options<PhoneAgentReleaseData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentReleaseResponses, PhoneAgentReleaseErrors, ThrowOnError, "fields">;
/**
 * The phone this token belongs to: the agent's `--check` reads it. Counts as a poll, as every
 * agent call does.
 */
export declare const phoneAgentMe: <ThrowOnError extends boolean = false>(options?: Options<PhoneAgentMeData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentMeResponses, PhoneAgentMeErrors, ThrowOnError, "fields">;
/**
 * A file the phone received, to name in `POST /phone/v1/inbound`: the body is its bytes,
 * `Content-Type` its type, under the same rules as a tenant's upload.
 */
export declare const phoneAgentPhoneUpload: <ThrowOnError extends boolean = false>(options: Options<PhoneAgentPhoneUploadData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentPhoneUploadResponses, PhoneAgentPhoneUploadErrors, ThrowOnError, "fields">;
/**
 * An attachment of a job this phone holds, or a file its agent uploaded: the bytes, as
 * `/v1/media/{id}/content` serves them. Check them against the job's `sha256`.
 */
export declare const phoneAgentPhoneContent: <ThrowOnError extends boolean = false>(options: Options<PhoneAgentPhoneContentData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentPhoneContentResponses, PhoneAgentPhoneContentErrors, ThrowOnError, "fields">;
/**
 * Reports what became of a message this phone holds. Legal moves: `sending` → `sent` |
 * `delivered` | `failed`, `sent` → `delivered` | `read` | `failed`, `delivered` → `read`;
 * repeating the current status is a no-op; anything else is 409 `INVALID_STATUS_TRANSITION`.
 */
export declare const phoneAgentStatus: <ThrowOnError extends boolean = false>(options: Options<PhoneAgentStatusData, ThrowOnError>) => import("./client").RequestResult<PhoneAgentStatusResponses, PhoneAgentStatusErrors, ThrowOnError, "fields">;
/**
 * The store answers reads and takes writes, and the engine runs: traffic can be sent here.
 * 503 `STORAGE_UNAVAILABLE` while writes fail (a full disk), `NOT_READY` when the store does
 * not answer at all.
 */
export declare const operationsReadyz: <ThrowOnError extends boolean = false>(options?: Options<OperationsReadyzData, ThrowOnError>) => import("./client").RequestResult<OperationsReadyzResponses, OperationsReadyzErrors, ThrowOnError, "fields">;
/**
 * Lists the tenant's active keys; never the key itself, only `key_hint`.
 */
export declare const apiKeysList: <ThrowOnError extends boolean = false>(options?: Options<ApiKeysListData, ThrowOnError>) => import("./client").RequestResult<ApiKeysListResponses, ApiKeysListErrors, ThrowOnError, "fields">;
/**
 * Creates a key for the caller's tenant.
 */
export declare const apiKeysCreate: <ThrowOnError extends boolean = false>(options: Options<ApiKeysCreateData, ThrowOnError>) => import("./client").RequestResult<ApiKeysCreateResponses, ApiKeysCreateErrors, ThrowOnError, "fields">;
/**
 * Revokes a key, at once and for good; later calls with it answer 401. A test key revokes only
 * test keys.
 */
export declare const apiKeysRevoke: <ThrowOnError extends boolean = false>(options: Options<ApiKeysRevokeData, ThrowOnError>) => import("./client").RequestResult<ApiKeysRevokeResponses, ApiKeysRevokeErrors, ThrowOnError, "fields">;
/**
 * The account's campaigns, oldest first.
 */
export declare const campaignsList: <ThrowOnError extends boolean = false>(options?: Options<CampaignsListData, ThrowOnError>) => import("./client").RequestResult<CampaignsListResponses, CampaignsListErrors, ThrowOnError, "fields">;
/**
 * Creates a draft campaign with a body or a template, shared `data`, and recipients.
 */
export declare const campaignsCreate: <ThrowOnError extends boolean = false>(options: Options<CampaignsCreateData, ThrowOnError>) => import("./client").RequestResult<CampaignsCreateResponses, CampaignsCreateErrors, ThrowOnError, "fields">;
/**
 * One campaign with its counts.
 */
export declare const campaignsGet: <ThrowOnError extends boolean = false>(options: Options<CampaignsGetData, ThrowOnError>) => import("./client").RequestResult<CampaignsGetResponses, CampaignsGetErrors, ThrowOnError, "fields">;
/**
 * Cancels a draft or running campaign: no further recipients are sent.
 */
export declare const campaignsCancel: <ThrowOnError extends boolean = false>(options: Options<CampaignsCancelData, ThrowOnError>) => import("./client").RequestResult<CampaignsCancelResponses, CampaignsCancelErrors, ThrowOnError, "fields">;
/**
 * Launches a draft: 202, recipients are sent in the background.
 */
export declare const campaignsLaunch: <ThrowOnError extends boolean = false>(options: Options<CampaignsLaunchData, ThrowOnError>) => import("./client").RequestResult<CampaignsLaunchResponses, CampaignsLaunchErrors, ThrowOnError, "fields">;
/**
 * The account's contacts, oldest first; `?phone=` looks one up by number.
 */
export declare const contactsList: <ThrowOnError extends boolean = false>(options?: Options<ContactsListData, ThrowOnError>) => import("./client").RequestResult<ContactsListResponses, ContactsListErrors, ThrowOnError, "fields">;
/**
 * Creates a contact. A phone already in the account is 409 `DUPLICATE_CONTACT` with the
 * existing contact's id in `contact_id`.
 */
export declare const contactsCreate: <ThrowOnError extends boolean = false>(options: Options<ContactsCreateData, ThrowOnError>) => import("./client").RequestResult<ContactsCreateResponses, ContactsCreateErrors, ThrowOnError, "fields">;
/**
 * Deletes a contact (its messages and opt-out stay).
 */
export declare const contactsDelete: <ThrowOnError extends boolean = false>(options: Options<ContactsDeleteData, ThrowOnError>) => import("./client").RequestResult<ContactsDeleteResponses, ContactsDeleteErrors, ThrowOnError, "fields">;
/**
 * One contact.
 */
export declare const contactsGet: <ThrowOnError extends boolean = false>(options: Options<ContactsGetData, ThrowOnError>) => import("./client").RequestResult<ContactsGetResponses, ContactsGetErrors, ThrowOnError, "fields">;
/**
 * Changes a contact's phone, name, zone or attributes.
 */
export declare const contactsPatch: <ThrowOnError extends boolean = false>(options: Options<ContactsPatchData, ThrowOnError>) => import("./client").RequestResult<ContactsPatchResponses, ContactsPatchErrors, ThrowOnError, "fields">;
/**
 * Asks one of the tenant's online phones whether a number has iMessage (cached 7 days); 503
 * `DETECTION_UNAVAILABLE` when no phone can answer within 10 s.
 */
export declare const messagesDetect: <ThrowOnError extends boolean = false>(options: Options<MessagesDetectData, ThrowOnError>) => import("./client").RequestResult<MessagesDetectResponses, MessagesDetectErrors, ThrowOnError, "fields">;
/**
 * The tenant's events in the order they became durable, each the JSON a webhook gets. With
 * `Accept: text/event-stream`, the same as server-sent events (`id:` the cursor), resumable
 * with `Last-Event-ID`.
 */
export declare const eventsListEvents: <ThrowOnError extends boolean = false>(options?: Options<EventsListEventsData, ThrowOnError>) => import("./client").RequestResult<EventsListEventsResponses, EventsListEventsErrors, ThrowOnError, "fields">;
/**
 * Uploads a file to send: the body is its bytes, `Content-Type` its type.
 */
export declare const mediaUpload: <ThrowOnError extends boolean = false>(options: Options<MediaUploadData, ThrowOnError>) => import("./client").RequestResult<MediaUploadResponses, MediaUploadErrors, ThrowOnError, "fields">;
/**
 * One of the account's media records, with a fresh signed link.
 */
export declare const mediaGet: <ThrowOnError extends boolean = false>(options: Options<MediaGetData, ThrowOnError>) => import("./client").RequestResult<MediaGetResponses, MediaGetErrors, ThrowOnError, "fields">;
/**
 * A file's bytes: with an API key, or through a signed link (`url` of the record) without one.
 */
export declare const mediaContent: <ThrowOnError extends boolean = false>(options: Options<MediaContentData, ThrowOnError>) => import("./client").RequestResult<MediaContentResponses, MediaContentErrors, ThrowOnError, "fields">;
/**
 * Messages oldest first (`order=desc`: newest first), filtered by `status`, `to`, `from`,
 * `direction`, `campaign_id` and the creation time.
 */
export declare const messagesList: <ThrowOnError extends boolean = false>(options?: Options<MessagesListData, ThrowOnError>) => import("./client").RequestResult<MessagesListResponses, MessagesListErrors, ThrowOnError, "fields">;
/**
 * Sends a text: 202 once it is on disk; a phone takes it from there. With an `Idempotency-Key`
 * header, a repeat of the same request within 24 h answers the first 202 and sends nothing.
 */
export declare const messagesSend: <ThrowOnError extends boolean = false>(options: Options<MessagesSendData, ThrowOnError>) => import("./client").RequestResult<MessagesSendResponses, MessagesSendErrors, ThrowOnError, "fields">;
/**
 * Cancels a message no phone has taken yet.
 */
export declare const messagesCancel: <ThrowOnError extends boolean = false>(options: Options<MessagesCancelData, ThrowOnError>) => import("./client").RequestResult<MessagesCancelResponses, MessagesCancelErrors, ThrowOnError, "fields">;
/**
 * One message with everything known of it.
 */
export declare const messagesGet: <ThrowOnError extends boolean = false>(options: Options<MessagesGetData, ThrowOnError>) => import("./client").RequestResult<MessagesGetResponses, MessagesGetErrors, ThrowOnError, "fields">;
/**
 * The numbers opted out, in number order.
 */
export declare const optOutsList: <ThrowOnError extends boolean = false>(options?: Options<OptOutsListData, ThrowOnError>) => import("./client").RequestResult<OptOutsListResponses, OptOutsListErrors, ThrowOnError, "fields">;
/**
 * Records an opt-out the tenant got elsewhere: 201, or 200 with the existing record when the
 * number is already opted out (however it was).
 */
export declare const optOutsCreate: <ThrowOnError extends boolean = false>(options: Options<OptOutsCreateData, ThrowOnError>) => import("./client").RequestResult<OptOutsCreateResponses, OptOutsCreateErrors, ThrowOnError, "fields">;
/**
 * Removes an opt-out the tenant recorded; one the recipient made by keyword needs its START
 * (409 `INVALID_STATUS_TRANSITION`).
 */
export declare const optOutsDelete: <ThrowOnError extends boolean = false>(options: Options<OptOutsDeleteData, ThrowOnError>) => import("./client").RequestResult<OptOutsDeleteResponses, OptOutsDeleteErrors, ThrowOnError, "fields">;
/**
 * The tenant's phones.
 */
export declare const messagesListPhones: <ThrowOnError extends boolean = false>(options?: Options<MessagesListPhonesData, ThrowOnError>) => import("./client").RequestResult<MessagesListPhonesResponses, MessagesListPhonesErrors, ThrowOnError, "fields">;
/**
 * The tenant's settings.
 */
export declare const settingsGet: <ThrowOnError extends boolean = false>(options?: Options<SettingsGetData, ThrowOnError>) => import("./client").RequestResult<SettingsGetResponses, SettingsGetErrors, ThrowOnError, "fields">;
/**
 * Changes the keyword replies or the quiet hours.
 */
export declare const settingsPatch: <ThrowOnError extends boolean = false>(options: Options<SettingsPatchData, ThrowOnError>) => import("./client").RequestResult<SettingsPatchResponses, SettingsPatchErrors, ThrowOnError, "fields">;
/**
 * The account's templates, oldest first.
 */
export declare const templatesList: <ThrowOnError extends boolean = false>(options?: Options<TemplatesListData, ThrowOnError>) => import("./client").RequestResult<TemplatesListResponses, TemplatesListErrors, ThrowOnError, "fields">;
/**
 * Creates a template; malformed braces are a 400, a taken name a 409.
 */
export declare const templatesCreate: <ThrowOnError extends boolean = false>(options: Options<TemplatesCreateData, ThrowOnError>) => import("./client").RequestResult<TemplatesCreateResponses, TemplatesCreateErrors, ThrowOnError, "fields">;
/**
 * Deletes a template; messages sent with it keep its name.
 */
export declare const templatesDelete: <ThrowOnError extends boolean = false>(options: Options<TemplatesDeleteData, ThrowOnError>) => import("./client").RequestResult<TemplatesDeleteResponses, TemplatesDeleteErrors, ThrowOnError, "fields">;
/**
 * One template.
 */
export declare const templatesGet: <ThrowOnError extends boolean = false>(options: Options<TemplatesGetData, ThrowOnError>) => import("./client").RequestResult<TemplatesGetResponses, TemplatesGetErrors, ThrowOnError, "fields">;
/**
 * Renames a template or changes its body.
 */
export declare const templatesPatch: <ThrowOnError extends boolean = false>(options: Options<TemplatesPatchData, ThrowOnError>) => import("./client").RequestResult<TemplatesPatchResponses, TemplatesPatchErrors, ThrowOnError, "fields">;
/**
 * The tenant's webhooks, oldest first; secrets only as `secret_hint`.
 */
export declare const webhooksList: <ThrowOnError extends boolean = false>(options?: Options<WebhooksListData, ThrowOnError>) => import("./client").RequestResult<WebhooksListResponses, WebhooksListErrors, ThrowOnError, "fields">;
/**
 * Registers an endpoint. At most 10 per tenant. Unless the operator allows private networks, a
 * URL whose host is or resolves to a private, loopback or link-local address is refused.
 */
export declare const webhooksCreate: <ThrowOnError extends boolean = false>(options: Options<WebhooksCreateData, ThrowOnError>) => import("./client").RequestResult<WebhooksCreateResponses, WebhooksCreateErrors, ThrowOnError, "fields">;
/**
 * Deletes a webhook; its pending deliveries stop.
 */
export declare const webhooksDelete: <ThrowOnError extends boolean = false>(options: Options<WebhooksDeleteData, ThrowOnError>) => import("./client").RequestResult<WebhooksDeleteResponses, WebhooksDeleteErrors, ThrowOnError, "fields">;
/**
 * One webhook (the list's fields); another account's answers 404.
 */
export declare const webhooksGetWebhook: <ThrowOnError extends boolean = false>(options: Options<WebhooksGetWebhookData, ThrowOnError>) => import("./client").RequestResult<WebhooksGetWebhookResponses, WebhooksGetWebhookErrors, ThrowOnError, "fields">;
/**
 * Changes a webhook's `url`, `events` or `enabled`; the secret stays. Turned off, it gets no
 * deliveries and its pending ones end `failed` (`error: webhook_disabled`, so `recover` can bring
 * them back); on again, it gets the events that follow.
 */
export declare const webhooksUpdateWebhook: <ThrowOnError extends boolean = false>(options: Options<WebhooksUpdateWebhookData, ThrowOnError>) => import("./client").RequestResult<WebhooksUpdateWebhookResponses, WebhooksUpdateWebhookErrors, ThrowOnError, "fields">;
/**
 * The webhook's delivery log, oldest first: each delivery with every attempt.
 */
export declare const webhooksListDeliveries: <ThrowOnError extends boolean = false>(options: Options<WebhooksListDeliveriesData, ThrowOnError>) => import("./client").RequestResult<WebhooksListDeliveriesResponses, WebhooksListDeliveriesErrors, ThrowOnError, "fields">;
/**
 * Starts a new cycle of attempts (0, +2, +4, +8 s) for a finished delivery.
 */
export declare const webhooksRetryDelivery: <ThrowOnError extends boolean = false>(options: Options<WebhooksRetryDeliveryData, ThrowOnError>) => import("./client").RequestResult<WebhooksRetryDeliveryResponses, WebhooksRetryDeliveryErrors, ThrowOnError, "fields">;
/**
 * Starts a new cycle, as a manual retry does, for each delivery whose cycle ended `failed`
 * between `since` and `until` (default now), by the time of its last attempt. Pending ones are
 * skipped, so asking twice adds nothing.
 */
export declare const webhooksRecoverWebhook: <ThrowOnError extends boolean = false>(options: Options<WebhooksRecoverWebhookData, ThrowOnError>) => import("./client").RequestResult<WebhooksRecoverWebhookResponses, WebhooksRecoverWebhookErrors, ThrowOnError, "fields">;
/**
 * Replaces the webhook's secret with a generated one, shown once. For 24 hours every attempt is
 * signed with both (`webhook-signature` carries both `v1,` entries; `x-service-signature` uses the
 * new one), so receivers can switch without missing an event; then the old one is dropped.
 */
export declare const webhooksRotateSecret: <ThrowOnError extends boolean = false>(options: Options<WebhooksRotateSecretData, ThrowOnError>) => import("./client").RequestResult<WebhooksRotateSecretResponses, WebhooksRotateSecretErrors, ThrowOnError, "fields">;
/**
 * Sends a signed `webhook.test` event through the normal delivery path (retries, log), so a
 * receiver can be checked before the first real text.
 */
export declare const webhooksSendTestEvent: <ThrowOnError extends boolean = false>(options: Options<WebhooksSendTestEventData, ThrowOnError>) => import("./client").RequestResult<WebhooksSendTestEventResponses, WebhooksSendTestEventErrors, ThrowOnError, "fields">;
