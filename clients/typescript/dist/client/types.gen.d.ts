export type ClientOptions = {
    baseUrl: `${string}://${string}` | (string & {});
};
/**
 * The 202 of a send.
 */
export type Accepted = {
    /**
     * Requested channel.
     */
    channel: string;
    /**
     * Acceptance time.
     */
    created_at: string;
    /**
     * Message id (ULID).
     */
    message_id: string;
    /**
     * `QUIET_HOURS` when quiet hours moved it (not an error).
     */
    notice?: string | null;
    /**
     * When it will go out, if held (quiet hours or `send_at`).
     */
    scheduled_at?: string | null;
    /**
     * `queued`.
     */
    status: string;
    /**
     * Recipient.
     */
    to: string;
};
/**
 * The phone an agent token belongs to, as `GET /phone/v1/me` answers (the agent's `--check`).
 */
export type AgentPhone = {
    /**
     * Messages per UTC day.
     */
    daily_limit: number;
    /**
     * Whether the node routes messages to it.
     */
    enabled: boolean;
    /**
     * Its number, E.164.
     */
    number: string;
    /**
     * Phone id.
     */
    phone_id: string;
    /**
     * Messages assigned to it today (UTC).
     */
    sent_today: number;
};
/**
 * The archive's bytes, as the OpenAPI document describes them (a `Vec<u8>` would read as an
 * array of integers).
 */
export type Archive = Blob | File;
/**
 * An attachment of a message record.
 */
export type AttachmentView = {
    /**
     * Its type.
     */
    content_type: string;
    /**
     * The name given at upload.
     */
    filename?: string | null;
    /**
     * Media id.
     */
    media_id: string;
    /**
     * Bytes.
     */
    size: number;
    /**
     * A link to the bytes, signed and good for 7 days, that needs no key.
     */
    url: string;
};
/**
 * One HTTP attempt.
 */
export type AttemptView = {
    /**
     * Start time.
     */
    at: string;
    /**
     * Retry cycle (0; one more per manual retry).
     */
    cycle: number;
    /**
     * Milliseconds to the answer or the error.
     */
    duration_ms: number;
    /**
     * Else why: `timeout`, `connect`, `dns`, `tls`, `refused_private_address`, `request`.
     */
    error?: string | null;
    /**
     * First 200 characters of the answer.
     */
    response_snippet?: string | null;
    /**
     * HTTP status, when one came back.
     */
    status_code?: number | null;
};
/**
 * A campaign.
 */
export type CampaignView = {
    /**
     * `{contact_ids: [...]}`, `{phones: [...]}` or `"all_contacts"`.
     */
    audience: {
        [key: string]: unknown;
    };
    /**
     * Text, if not a template.
     */
    body?: string | null;
    /**
     * Requested channel.
     */
    channel: string;
    /**
     * Messages accepted, by current status (kept current as they move).
     */
    counts: Counts;
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Shared template values.
     */
    data: {
        [key: string]: unknown;
    };
    /**
     * Completion or cancellation time.
     */
    finished_at?: string | null;
    /**
     * Campaign id.
     */
    id: string;
    /**
     * Launch time.
     */
    launched_at?: string | null;
    /**
     * Attachments of every message, links signed now (`[]` when none).
     */
    media: Array<AttachmentView>;
    /**
     * The tenant's own values given to every message (`{}` when none).
     */
    metadata: {
        [key: string]: unknown;
    };
    /**
     * Label.
     */
    name: string;
    /**
     * Recipients handled so far (sent or skipped).
     */
    processed: number;
    /**
     * Recipients not sent, by the code that refused them.
     */
    skipped: {
        [key: string]: number;
    };
    /**
     * `draft`, `running`, `completed` or `cancelled`.
     */
    status: string;
    /**
     * Template name or id, if used.
     */
    template?: string | null;
    /**
     * Recipients resolved at launch.
     */
    total: number;
    /**
     * Each message's `valid_for`, seconds.
     */
    valid_for?: number | null;
};
/**
 * A contact.
 */
export type ContactView = {
    /**
     * Attributes.
     */
    attributes: {
        [key: string]: string;
    };
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Contact id.
     */
    id: string;
    /**
     * Display name.
     */
    name?: string | null;
    /**
     * The number sent STOP (and not START since).
     */
    opted_out: boolean;
    /**
     * E.164 number.
     */
    phone: string;
    /**
     * IANA zone.
     */
    timezone?: string | null;
    /**
     * Last change.
     */
    updated_at: string;
};
/**
 * Counts of a campaign's messages by status.
 */
export type Counts = {
    /**
     * Cancelled.
     */
    cancelled: number;
    /**
     * Delivered (and not yet read).
     */
    delivered: number;
    /**
     * Failed.
     */
    failed: number;
    /**
     * Waiting (or held).
     */
    queued: number;
    /**
     * Read by the recipient.
     */
    read: number;
    /**
     * With a phone.
     */
    sending: number;
    /**
     * Sent.
     */
    sent: number;
};
/**
 * Body of `POST /v1/campaigns`.
 */
export type CreateCampaign = {
    /**
     * every contact at launch.
     */
    all_contacts?: boolean | null;
    /**
     * Text, 1–10,000 characters; or
     */
    body?: string | null;
    /**
     * `auto` (default), `imessage` or `sms`.
     */
    channel?: RequestedChannel;
    /**
     * Recipients: these contacts, or
     */
    contact_ids?: Array<string> | null;
    /**
     * Shared template values (each recipient's contact attributes fill the rest).
     */
    data?: {
        [key: string]: unknown;
    } | null;
    /**
     * 1–10 attachments every message carries, as on a send: media ids, or `{"url"}`s fetched
     * once, when the campaign is created.
     */
    media?: Array<MediaItem> | null;
    /**
     * Up to 20 string values of the tenant's own, given to every message (as on a send).
     */
    metadata?: {
        [key: string]: unknown;
    } | null;
    /**
     * Label, 1–200 characters.
     */
    name: string;
    /**
     * these numbers (E.164, at most 100,000), or
     */
    phones?: Array<string> | null;
    /**
     * a template name or id.
     */
    template?: string | null;
    /**
     * Each message's `valid_for` (10–259,200 s from its own acceptance), as on a send.
     */
    valid_for?: number | null;
};
/**
 * Body of `POST /v1/contacts`.
 */
export type CreateContact = {
    /**
     * String attributes; they also fill template variables.
     */
    attributes?: {
        [key: string]: string;
    } | null;
    /**
     * Display name.
     */
    name?: string | null;
    /**
     * E.164, unique in the account.
     */
    phone: string;
    /**
     * IANA time zone (quiet hours use it).
     */
    timezone?: string | null;
};
/**
 * Body of `POST /v1/api-keys`.
 */
export type CreateKey = {
    /**
     * `live` or `test`; the caller's own when omitted. A test key creates only test keys.
     */
    environment?: string | null;
    /**
     * Label, 1–100 characters.
     */
    name: string;
    /**
     * Calls per minute, 1 to the plan's ceiling; the plan's default when omitted.
     */
    rate_limit?: number | null;
    /**
     * Any of `send`, `read`, `manage` (at least one); the caller's own when omitted. A key
     * gives only scopes it has (else 403 `INSUFFICIENT_SCOPE`).
     */
    scopes?: Array<string> | null;
};
/**
 * Body of `POST /v1/opt-outs`.
 */
export type CreateOptOut = {
    /**
     * E.164 number.
     */
    phone: string;
};
/**
 * Body of `POST /admin/v1/phones`.
 */
export type CreatePhone = {
    /**
     * Messages per UTC day (default 300).
     */
    daily_limit?: number;
    /**
     * `agent` or `sim`.
     */
    driver: string;
    /**
     * E.164 number.
     */
    number: string;
    sim?: SimBody | null;
    /**
     * Owner.
     */
    tenant_id: string;
};
/**
 * Body of `POST /v1/templates`.
 */
export type CreateTemplate = {
    /**
     * 1–10,000 characters; `{{ name }}` placeholders.
     */
    body: string;
    /**
     * Unique in the account, 1–100 characters.
     */
    name: string;
};
/**
 * Body of `POST /admin/v1/tenants`.
 */
export type CreateTenant = {
    /**
     * Label, 1–200 characters.
     */
    name: string;
    /**
     * `trial` (default), `starter`, `growth` or `scale`.
     */
    plan?: string | null;
};
/**
 * Body of `POST /v1/webhooks`.
 */
export type CreateWebhook = {
    /**
     * Non-empty subset of `message.delivered`, `message.failed`, `message.received`,
     * `message.sent`, `message.read`, `phone.offline`, `phone.online`, `phone.disabled`.
     */
    events: Array<string>;
    /**
     * Signing secret, 16–256 visible ASCII characters; generated (`whsec_…`) when omitted.
     */
    secret?: string | null;
    /**
     * Absolute `http(s)` URL that receives events.
     */
    url: string;
};
/**
 * The success envelope.
 */
export type DataBodyAccepted = {
    /**
     * The 202 of a send.
     */
    data: {
        /**
         * Requested channel.
         */
        channel: string;
        /**
         * Acceptance time.
         */
        created_at: string;
        /**
         * Message id (ULID).
         */
        message_id: string;
        /**
         * `QUIET_HOURS` when quiet hours moved it (not an error).
         */
        notice?: string | null;
        /**
         * When it will go out, if held (quiet hours or `send_at`).
         */
        scheduled_at?: string | null;
        /**
         * `queued`.
         */
        status: string;
        /**
         * Recipient.
         */
        to: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyAgentPhone = {
    /**
     * The phone an agent token belongs to, as `GET /phone/v1/me` answers (the agent's `--check`).
     */
    data: {
        /**
         * Messages per UTC day.
         */
        daily_limit: number;
        /**
         * Whether the node routes messages to it.
         */
        enabled: boolean;
        /**
         * Its number, E.164.
         */
        number: string;
        /**
         * Phone id.
         */
        phone_id: string;
        /**
         * Messages assigned to it today (UTC).
         */
        sent_today: number;
    };
};
/**
 * The success envelope.
 */
export type DataBodyCampaignView = {
    /**
     * A campaign.
     */
    data: {
        /**
         * `{contact_ids: [...]}`, `{phones: [...]}` or `"all_contacts"`.
         */
        audience: {
            [key: string]: unknown;
        };
        /**
         * Text, if not a template.
         */
        body?: string | null;
        /**
         * Requested channel.
         */
        channel: string;
        /**
         * Messages accepted, by current status (kept current as they move).
         */
        counts: Counts;
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Shared template values.
         */
        data: {
            [key: string]: unknown;
        };
        /**
         * Completion or cancellation time.
         */
        finished_at?: string | null;
        /**
         * Campaign id.
         */
        id: string;
        /**
         * Launch time.
         */
        launched_at?: string | null;
        /**
         * Attachments of every message, links signed now (`[]` when none).
         */
        media: Array<AttachmentView>;
        /**
         * The tenant's own values given to every message (`{}` when none).
         */
        metadata: {
            [key: string]: unknown;
        };
        /**
         * Label.
         */
        name: string;
        /**
         * Recipients handled so far (sent or skipped).
         */
        processed: number;
        /**
         * Recipients not sent, by the code that refused them.
         */
        skipped: {
            [key: string]: number;
        };
        /**
         * `draft`, `running`, `completed` or `cancelled`.
         */
        status: string;
        /**
         * Template name or id, if used.
         */
        template?: string | null;
        /**
         * Recipients resolved at launch.
         */
        total: number;
        /**
         * Each message's `valid_for`, seconds.
         */
        valid_for?: number | null;
    };
};
/**
 * The success envelope.
 */
export type DataBodyContactView = {
    /**
     * A contact.
     */
    data: {
        /**
         * Attributes.
         */
        attributes: {
            [key: string]: string;
        };
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Contact id.
         */
        id: string;
        /**
         * Display name.
         */
        name?: string | null;
        /**
         * The number sent STOP (and not START since).
         */
        opted_out: boolean;
        /**
         * E.164 number.
         */
        phone: string;
        /**
         * IANA zone.
         */
        timezone?: string | null;
        /**
         * Last change.
         */
        updated_at: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyDeleted = {
    /**
     * Answer of a deletion.
     */
    data: {
        /**
         * Always true.
         */
        deleted: boolean;
        /**
         * The id.
         */
        id: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyDeliveryView = {
    /**
     * One event to one webhook.
     */
    data: {
        /**
         * Every attempt, oldest first.
         */
        attempts: Array<AttemptView>;
        /**
         * Event time.
         */
        created_at: string;
        /**
         * Current retry cycle.
         */
        cycle: number;
        /**
         * Event name.
         */
        event: string;
        /**
         * The event (stable across retries; the same for every webhook that got it).
         */
        event_id: string;
        /**
         * Delivery id.
         */
        id: string;
        /**
         * When the next attempt is due (pending only).
         */
        next_attempt_at?: string | null;
        /**
         * The payload sent (and signed).
         */
        payload: {
            [key: string]: unknown;
        };
        /**
         * `pending`, `succeeded` or `failed`.
         */
        state: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyDetectionAck = {
    /**
     * Answer of a detection report.
     */
    data: {
        /**
         * The answer recorded.
         */
        imessage: boolean;
        /**
         * The job.
         */
        job_id: string;
        /**
         * The number it was about.
         */
        phone: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyDetectionView = {
    /**
     * Whether a number has iMessage.
     */
    data: {
        /**
         * Answered from the 7-day cache.
         */
        cached: boolean;
        /**
         * When a phone checked it.
         */
        checked_at: string;
        /**
         * Has iMessage.
         */
        imessage: boolean;
        /**
         * The number.
         */
        phone: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyKeyActive = {
    /**
     * Answer of a key switch.
     */
    data: {
        /**
         * False while deactivated.
         */
        active: boolean;
        /**
         * Key id.
         */
        id: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyKeyCreated = {
    /**
     * A key as created: the only answer that holds the full key.
     */
    data: {
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * `live` or `test`.
         */
        environment: string;
        /**
         * Key id (ULID).
         */
        id: string;
        /**
         * The full key. Store it now: it is never shown again.
         */
        key: string;
        /**
         * Label.
         */
        name: string;
        /**
         * Calls per minute; null is unlimited (scale plan).
         */
        rate_limit?: number | null;
        /**
         * What it may do: `send`, `read`, `manage`.
         */
        scopes: Array<string>;
    };
};
/**
 * The success envelope.
 */
export type DataBodyMediaUploaded = {
    /**
     * The answer to a phone's upload (`POST /phone/v1/media`): the id to name in its inbound text.
     */
    data: {
        /**
         * Media id.
         */
        media_id: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyMediaView = {
    /**
     * A media record.
     */
    data: {
        /**
         * The type it was uploaded as.
         */
        content_type: string;
        /**
         * Upload time.
         */
        created_at: string;
        /**
         * The name given at upload.
         */
        filename?: string | null;
        /**
         * Media id.
         */
        media_id: string;
        /**
         * SHA-256 of the bytes, lowercase hex (also the content's ETag).
         */
        sha256: string;
        /**
         * Bytes.
         */
        size: number;
        /**
         * A link to the bytes, signed and good for 7 days, that needs no key.
         */
        url: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyMessageView = {
    /**
     * A message record.
     */
    data: {
        /**
         * Text; `null` for a media-only message.
         */
        body?: string | null;
        /**
         * Campaign.
         */
        campaign_id?: string | null;
        /**
         * Requested channel.
         */
        channel: string;
        /**
         * Channel the phone used.
         */
        channel_used?: string | null;
        /**
         * Acceptance time.
         */
        created_at: string;
        /**
         * Delivered.
         */
        delivered_at?: string | null;
        /**
         * `outbound` or `inbound`.
         */
        direction: string;
        /**
         * Stable code of a failure (`DELIVERY_FAILED`, `RECIPIENT_OPTED_OUT`, `NO_PHONE_AVAILABLE`).
         */
        error_code?: string | null;
        /**
         * When a message no phone has taken fails `EXPIRED` (`created_at` + `valid_for`).
         */
        expires_at?: string | null;
        /**
         * Failed.
         */
        failed_at?: string | null;
        /**
         * Carrier-level detail of a failure.
         */
        failure_reason?: string | null;
        /**
         * The tenant's phone (outbound, once chosen) or the sender (inbound).
         */
        from?: string | null;
        /**
         * Attachments with signed links good for 7 days (`[]` when none).
         */
        media: Array<AttachmentView>;
        /**
         * Message id.
         */
        message_id: string;
        /**
         * The tenant's own values given at the send (`{}` when none).
         */
        metadata: {
            [key: string]: unknown;
        };
        /**
         * Read by the recipient (a read receipt).
         */
        read_at?: string | null;
        /**
         * The inbound message this one answers: the node's reply to a STOP, START or HELP.
         */
        reply_to?: string | null;
        /**
         * Held until.
         */
        scheduled_at?: string | null;
        /**
         * Sent by the phone.
         */
        sent_at?: string | null;
        /**
         * `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `cancelled` or (inbound) `received`.
         */
        status: string;
        /**
         * Template used.
         */
        template?: string | null;
        /**
         * Sent with a test key.
         */
        test: boolean;
        /**
         * Recipient (outbound) or the tenant's phone (inbound).
         */
        to: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyOperatorPhone = {
    /**
     * A phone as the operator sees it.
     */
    data: {
        /**
         * What the agent says it is, from its `User-Agent` (`pigeon-agent/0.1.0`), since the node
         * started; null until it calls.
         */
        agent?: string | null;
        /**
         * The agent's token (`svc_agent_…`), in the create answer only.
         */
        agent_token?: string | null;
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Messages per UTC day.
         */
        daily_limit: number;
        /**
         * Why the phone disabled itself (phone-scoped failures in a row), in plain English; null
         * otherwise, and once the operator enables it again.
         */
        disabled_reason?: string | null;
        /**
         * `agent` or `sim`.
         */
        driver: string;
        /**
         * Chosen for sends only when true.
         */
        enabled: boolean;
        /**
         * Phone id.
         */
        id: string;
        /**
         * An agent's last call (null for a sim, or an agent not heard from yet).
         */
        last_poll_at?: string | null;
        /**
         * E.164 number.
         */
        number: string;
        /**
         * Online now (sim: the switch; agent: polled in the last 30 s).
         */
        online: boolean;
        /**
         * Messages assigned today.
         */
        sent_today: number;
        sim?: SimBody | null;
        /**
         * Owner.
         */
        tenant_id: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyOptOutRemoved = {
    /**
     * Answer of `DELETE /v1/opt-outs/{phone}`.
     */
    data: {
        /**
         * Always true.
         */
        deleted: boolean;
        /**
         * The number, which may be messaged again.
         */
        phone: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyOptOutView = {
    /**
     * A number opted out of the tenant.
     */
    data: {
        /**
         * The keyword as matched, upper-cased; null for `api`.
         */
        keyword?: string | null;
        /**
         * When it opted out (null for one recorded before opt-outs kept their time).
         */
        opted_out_at?: string | null;
        /**
         * E.164 number.
         */
        phone: string;
        /**
         * `keyword` (it texted STOP or a synonym) or `api` (`POST /v1/opt-outs`).
         */
        via: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyRecovering = {
    /**
     * What a recovery started.
     */
    data: {
        /**
         * Deliveries started again.
         */
        recovering: number;
    };
};
/**
 * The success envelope.
 */
export type DataBodyReleased = {
    /**
     * Answer of a lease release.
     */
    data: {
        /**
         * Leases that went back to the queue.
         */
        released: number;
    };
};
/**
 * The success envelope.
 */
export type DataBodyRevoked = {
    /**
     * Answer of a revocation.
     */
    data: {
        /**
         * Key id.
         */
        id: string;
        /**
         * Always true.
         */
        revoked: boolean;
    };
};
/**
 * The success envelope.
 */
export type DataBodySecretRotated = {
    /**
     * A webhook's new secret, shown once: the answer of a rotation.
     */
    data: {
        /**
         * Webhook id.
         */
        id: string;
        /**
         * Until when attempts are signed with the previous secret too (in `webhook-signature`).
         */
        previous_secret_expires_at: string;
        /**
         * The new signing secret (`whsec_…`): `x-service-signature` uses it from now on.
         */
        secret: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodySettingsView = {
    /**
     * A tenant's settings.
     */
    data: {
        /**
         * Texted to a number that sends HELP or INFO; null (the default) sends nothing.
         */
        help_reply?: string | null;
        /**
         * Texted to a number whose START opted it back in; null sends nothing.
         */
        opt_in_reply?: string | null;
        /**
         * Texted once to a number whose STOP opted it out; null sends nothing.
         */
        opt_out_reply?: string | null;
        /**
         * Quiet hours, in the recipient's local time.
         */
        quiet_hours: QuietHoursBody;
    };
};
/**
 * The success envelope.
 */
export type DataBodyStatus = {
    /**
     * State of a probe.
     */
    data: {
        /**
         * `ok` or `ready`.
         */
        status: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyTemplateView = {
    /**
     * A template.
     */
    data: {
        /**
         * Body.
         */
        body: string;
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Template id.
         */
        id: string;
        /**
         * Name.
         */
        name: string;
        /**
         * Last change.
         */
        updated_at: string;
        /**
         * Its variables, in order of first use.
         */
        variables: Array<string>;
    };
};
/**
 * The success envelope.
 */
export type DataBodyTenantCreated = {
    /**
     * Answer of tenant creation.
     */
    data: TenantView & {
        /**
         * Its first keys.
         */
        keys: NewTenantKeys;
    };
};
/**
 * The success envelope.
 */
export type DataBodyTenantView = {
    /**
     * A tenant as the operator sees it; limits are the ones in force.
     */
    data: {
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Tenant id (ULID).
         */
        id: string;
        /**
         * Bytes of media the account may store; null is unlimited.
         */
        media_bytes_limit?: number | null;
        /**
         * API calls allowed per UTC month; null is unlimited.
         */
        monthly_call_limit?: number | null;
        /**
         * Label.
         */
        name: string;
        /**
         * First-time recipients allowed per UTC day.
         */
        new_contact_daily_limit: number;
        /**
         * Plan.
         */
        plan: string;
        /**
         * Quiet hours.
         */
        quiet_hours: QuietHoursBody;
        /**
         * `active` or `suspended`.
         */
        status: string;
        /**
         * A subscription keeps a trial tenant in after `trial_ends_at`.
         */
        subscription_active: boolean;
        /**
         * End of the 14-day trial.
         */
        trial_ends_at: string;
        /**
         * Usage so far.
         */
        usage: UsageView;
    };
};
/**
 * The success envelope.
 */
export type DataBodyTestSent = {
    /**
     * A test event on its way.
     */
    data: {
        /**
         * The delivery: see it in `GET /v1/webhooks/{id}/deliveries`.
         */
        delivery_id: string;
        /**
         * `webhook.test`.
         */
        event: string;
        /**
         * The event's id (`webhook-id`).
         */
        event_id: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyVecJobView = {
    data: Array<{
        /**
         * Send: text; `null` for a media-only send.
         */
        body?: string | null;
        channel?: JobChannel | null;
        /**
         * Lease id (send: answer within 60 s or the job returns to the queue) or question id (detect).
         */
        job_id: string;
        /**
         * `send` or `detect`.
         */
        kind: JobKind;
        /**
         * Send: the attachments to send after the text (`[]` for a text alone), each fetched with
         * `GET /phone/v1/media/{media_id}` and checked against its `sha256`.
         */
        media?: Array<JobMedia> | null;
        /**
         * Send: message to send.
         */
        message_id?: string | null;
        /**
         * Detect: the number to check for iMessage.
         */
        phone?: string | null;
        /**
         * Send: recipient.
         */
        to?: string | null;
    }>;
};
/**
 * The success envelope.
 */
export type DataBodyVecNodeView = {
    data: Array<{
        /**
         * Where the other nodes forward its tenants' requests.
         */
        advertise_url: string;
        /**
         * The node's id (new each time it starts).
         */
        id: string;
        /**
         * When it last renewed its leases (the database's clock).
         */
        last_renewal: string;
        /**
         * When it started.
         */
        started_at: string;
        /**
         * Tenants whose live lease it holds.
         */
        tenants_owned: number;
        /**
         * Whether this is the node that answered.
         */
        this_node: boolean;
        /**
         * Its version.
         */
        version: string;
    }>;
};
/**
 * The success envelope.
 */
export type DataBodyVecOperatorPhone = {
    data: Array<{
        /**
         * What the agent says it is, from its `User-Agent` (`pigeon-agent/0.1.0`), since the node
         * started; null until it calls.
         */
        agent?: string | null;
        /**
         * The agent's token (`svc_agent_…`), in the create answer only.
         */
        agent_token?: string | null;
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Messages per UTC day.
         */
        daily_limit: number;
        /**
         * Why the phone disabled itself (phone-scoped failures in a row), in plain English; null
         * otherwise, and once the operator enables it again.
         */
        disabled_reason?: string | null;
        /**
         * `agent` or `sim`.
         */
        driver: string;
        /**
         * Chosen for sends only when true.
         */
        enabled: boolean;
        /**
         * Phone id.
         */
        id: string;
        /**
         * An agent's last call (null for a sim, or an agent not heard from yet).
         */
        last_poll_at?: string | null;
        /**
         * E.164 number.
         */
        number: string;
        /**
         * Online now (sim: the switch; agent: polled in the last 30 s).
         */
        online: boolean;
        /**
         * Messages assigned today.
         */
        sent_today: number;
        sim?: SimBody | null;
        /**
         * Owner.
         */
        tenant_id: string;
    }>;
};
/**
 * The success envelope.
 */
export type DataBodyVecTenantPhone = {
    data: Array<{
        /**
         * Messages allowed per UTC day.
         */
        daily_limit: number;
        /**
         * Why the phone disabled itself, in plain English; null otherwise.
         */
        disabled_reason?: string | null;
        /**
         * Chosen for sends only when true.
         */
        enabled: boolean;
        /**
         * Phone id.
         */
        id: string;
        /**
         * E.164 number.
         */
        number: string;
        /**
         * Online now.
         */
        online: boolean;
        /**
         * Messages assigned today (UTC).
         */
        sent_today: number;
    }>;
};
/**
 * The success envelope.
 */
export type DataBodyWebhookCreated = {
    /**
     * A webhook as registered: the only answer that shows the secret.
     */
    data: {
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Subscribed events.
         */
        events: Array<string>;
        /**
         * Webhook id.
         */
        id: string;
        /**
         * Signing secret.
         */
        secret: string;
        /**
         * Endpoint.
         */
        url: string;
    };
};
/**
 * The success envelope.
 */
export type DataBodyWebhookItem = {
    /**
     * A webhook as listed.
     */
    data: {
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Whether it gets deliveries.
         */
        enabled: boolean;
        /**
         * Subscribed events.
         */
        events: Array<string>;
        /**
         * Webhook id.
         */
        id: string;
        /**
         * `...` and the secret's last four characters.
         */
        secret_hint: string;
        /**
         * Endpoint.
         */
        url: string;
    };
};
/**
 * Answer of a deletion.
 */
export type Deleted = {
    /**
     * Always true.
     */
    deleted: boolean;
    /**
     * The id.
     */
    id: string;
};
/**
 * One event to one webhook.
 */
export type DeliveryView = {
    /**
     * Every attempt, oldest first.
     */
    attempts: Array<AttemptView>;
    /**
     * Event time.
     */
    created_at: string;
    /**
     * Current retry cycle.
     */
    cycle: number;
    /**
     * Event name.
     */
    event: string;
    /**
     * The event (stable across retries; the same for every webhook that got it).
     */
    event_id: string;
    /**
     * Delivery id.
     */
    id: string;
    /**
     * When the next attempt is due (pending only).
     */
    next_attempt_at?: string | null;
    /**
     * The payload sent (and signed).
     */
    payload: {
        [key: string]: unknown;
    };
    /**
     * `pending`, `succeeded` or `failed`.
     */
    state: string;
};
/**
 * Body of `POST /v1/detect`.
 */
export type DetectBody = {
    /**
     * E.164 number.
     */
    phone: string;
};
/**
 * Answer of a detection report.
 */
export type DetectionAck = {
    /**
     * The answer recorded.
     */
    imessage: boolean;
    /**
     * The job.
     */
    job_id: string;
    /**
     * The number it was about.
     */
    phone: string;
};
/**
 * Body of a detection answer.
 */
export type DetectionAnswer = {
    /**
     * Whether the number has iMessage.
     */
    imessage: boolean;
};
/**
 * Whether a number has iMessage.
 */
export type DetectionView = {
    /**
     * Answered from the 7-day cache.
     */
    cached: boolean;
    /**
     * When a phone checked it.
     */
    checked_at: string;
    /**
     * Has iMessage.
     */
    imessage: boolean;
    /**
     * The number.
     */
    phone: string;
};
/**
 * The error envelope.
 */
export type ErrorBody = {
    /**
     * Stable code to match on.
     */
    code: string;
    /**
     * Plain English, safe to show.
     */
    error: string;
};
/**
 * An event as a webhook gets it: these fields, then the event's own (see docs/api.md).
 */
export type EventItem = {
    /**
     * Its name, e.g. `message.delivered`.
     */
    event: string;
    /**
     * Its id, the same in every webhook delivery of it; also its cursor.
     */
    event_id: string;
    /**
     * When it happened (RFC 3339).
     */
    timestamp: string;
};
/**
 * A page of events.
 */
export type EventsBody = {
    /**
     * The events, in the order they became durable.
     */
    data: Array<EventItem>;
    /**
     * Pass as `after` to read on; never null: at the end it is the cursor to wait on.
     */
    next_cursor: string;
};
/**
 * Whose fault a failure is.
 */
export type FailureScope = 'recipient' | 'phone';
/**
 * A file's bytes, as the OpenAPI document describes them.
 */
export type FileBytes = Blob | File;
/**
 * Body of an inbound text.
 */
export type InboundBody = {
    /**
     * Text (STOP, START and their synonyms change the sender's opt-out); required unless
     * `media` is given.
     */
    body?: string | null;
    /**
     * Sender, E.164.
     */
    from: string;
    /**
     * 1–10 files this phone uploaded with `POST /phone/v1/media`, in the order received.
     */
    media?: Array<string> | null;
};
/**
 * The channel a send asks for.
 */
export type JobChannel = 'auto' | 'imessage' | 'sms';
/**
 * What a job asks of the phone.
 */
export type JobKind = 'send' | 'detect';
/**
 * An attachment of a send job.
 */
export type JobMedia = {
    /**
     * Its type.
     */
    content_type: string;
    /**
     * The name given at upload.
     */
    filename?: string | null;
    /**
     * Media id.
     */
    media_id: string;
    /**
     * SHA-256 of the bytes, lowercase hex.
     */
    sha256: string;
    /**
     * Bytes.
     */
    size: number;
};
/**
 * A job as the agent gets it: `send` (`message_id`, `to`, `body`, `channel`, `media`) or
 * `detect` (`phone`).
 */
export type JobView = {
    /**
     * Send: text; `null` for a media-only send.
     */
    body?: string | null;
    channel?: JobChannel | null;
    /**
     * Lease id (send: answer within 60 s or the job returns to the queue) or question id (detect).
     */
    job_id: string;
    /**
     * `send` or `detect`.
     */
    kind: JobKind;
    /**
     * Send: the attachments to send after the text (`[]` for a text alone), each fetched with
     * `GET /phone/v1/media/{media_id}` and checked against its `sha256`.
     */
    media?: Array<JobMedia> | null;
    /**
     * Send: message to send.
     */
    message_id?: string | null;
    /**
     * Detect: the number to check for iMessage.
     */
    phone?: string | null;
    /**
     * Send: recipient.
     */
    to?: string | null;
};
/**
 * Answer of a key switch.
 */
export type KeyActive = {
    /**
     * False while deactivated.
     */
    active: boolean;
    /**
     * Key id.
     */
    id: string;
};
/**
 * A key as created: the only answer that holds the full key.
 */
export type KeyCreated = {
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * `live` or `test`.
     */
    environment: string;
    /**
     * Key id (ULID).
     */
    id: string;
    /**
     * The full key. Store it now: it is never shown again.
     */
    key: string;
    /**
     * Label.
     */
    name: string;
    /**
     * Calls per minute; null is unlimited (scale plan).
     */
    rate_limit?: number | null;
    /**
     * What it may do: `send`, `read`, `manage`.
     */
    scopes: Array<string>;
};
/**
 * A key as listed.
 */
export type KeyItem = {
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * `live` or `test`.
     */
    environment: string;
    /**
     * Key id (ULID).
     */
    id: string;
    /**
     * `...` and the key's last four characters.
     */
    key_hint: string;
    /**
     * Last successful use; null if never used.
     */
    last_used_at?: string | null;
    /**
     * Label.
     */
    name: string;
    /**
     * Calls per minute in force; null is unlimited.
     */
    rate_limit?: number | null;
    /**
     * What it may do: `send`, `read`, `manage`.
     */
    scopes: Array<string>;
};
/**
 * The success envelope of a list.
 */
export type ListBodyCampaignView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * `{contact_ids: [...]}`, `{phones: [...]}` or `"all_contacts"`.
         */
        audience: {
            [key: string]: unknown;
        };
        /**
         * Text, if not a template.
         */
        body?: string | null;
        /**
         * Requested channel.
         */
        channel: string;
        /**
         * Messages accepted, by current status (kept current as they move).
         */
        counts: Counts;
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Shared template values.
         */
        data: {
            [key: string]: unknown;
        };
        /**
         * Completion or cancellation time.
         */
        finished_at?: string | null;
        /**
         * Campaign id.
         */
        id: string;
        /**
         * Launch time.
         */
        launched_at?: string | null;
        /**
         * Attachments of every message, links signed now (`[]` when none).
         */
        media: Array<AttachmentView>;
        /**
         * The tenant's own values given to every message (`{}` when none).
         */
        metadata: {
            [key: string]: unknown;
        };
        /**
         * Label.
         */
        name: string;
        /**
         * Recipients handled so far (sent or skipped).
         */
        processed: number;
        /**
         * Recipients not sent, by the code that refused them.
         */
        skipped: {
            [key: string]: number;
        };
        /**
         * `draft`, `running`, `completed` or `cancelled`.
         */
        status: string;
        /**
         * Template name or id, if used.
         */
        template?: string | null;
        /**
         * Recipients resolved at launch.
         */
        total: number;
        /**
         * Each message's `valid_for`, seconds.
         */
        valid_for?: number | null;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyContactView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Attributes.
         */
        attributes: {
            [key: string]: string;
        };
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Contact id.
         */
        id: string;
        /**
         * Display name.
         */
        name?: string | null;
        /**
         * The number sent STOP (and not START since).
         */
        opted_out: boolean;
        /**
         * E.164 number.
         */
        phone: string;
        /**
         * IANA zone.
         */
        timezone?: string | null;
        /**
         * Last change.
         */
        updated_at: string;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyDeliveryView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Every attempt, oldest first.
         */
        attempts: Array<AttemptView>;
        /**
         * Event time.
         */
        created_at: string;
        /**
         * Current retry cycle.
         */
        cycle: number;
        /**
         * Event name.
         */
        event: string;
        /**
         * The event (stable across retries; the same for every webhook that got it).
         */
        event_id: string;
        /**
         * Delivery id.
         */
        id: string;
        /**
         * When the next attempt is due (pending only).
         */
        next_attempt_at?: string | null;
        /**
         * The payload sent (and signed).
         */
        payload: {
            [key: string]: unknown;
        };
        /**
         * `pending`, `succeeded` or `failed`.
         */
        state: string;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyKeyItem = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * `live` or `test`.
         */
        environment: string;
        /**
         * Key id (ULID).
         */
        id: string;
        /**
         * `...` and the key's last four characters.
         */
        key_hint: string;
        /**
         * Last successful use; null if never used.
         */
        last_used_at?: string | null;
        /**
         * Label.
         */
        name: string;
        /**
         * Calls per minute in force; null is unlimited.
         */
        rate_limit?: number | null;
        /**
         * What it may do: `send`, `read`, `manage`.
         */
        scopes: Array<string>;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyMessageView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Text; `null` for a media-only message.
         */
        body?: string | null;
        /**
         * Campaign.
         */
        campaign_id?: string | null;
        /**
         * Requested channel.
         */
        channel: string;
        /**
         * Channel the phone used.
         */
        channel_used?: string | null;
        /**
         * Acceptance time.
         */
        created_at: string;
        /**
         * Delivered.
         */
        delivered_at?: string | null;
        /**
         * `outbound` or `inbound`.
         */
        direction: string;
        /**
         * Stable code of a failure (`DELIVERY_FAILED`, `RECIPIENT_OPTED_OUT`, `NO_PHONE_AVAILABLE`).
         */
        error_code?: string | null;
        /**
         * When a message no phone has taken fails `EXPIRED` (`created_at` + `valid_for`).
         */
        expires_at?: string | null;
        /**
         * Failed.
         */
        failed_at?: string | null;
        /**
         * Carrier-level detail of a failure.
         */
        failure_reason?: string | null;
        /**
         * The tenant's phone (outbound, once chosen) or the sender (inbound).
         */
        from?: string | null;
        /**
         * Attachments with signed links good for 7 days (`[]` when none).
         */
        media: Array<AttachmentView>;
        /**
         * Message id.
         */
        message_id: string;
        /**
         * The tenant's own values given at the send (`{}` when none).
         */
        metadata: {
            [key: string]: unknown;
        };
        /**
         * Read by the recipient (a read receipt).
         */
        read_at?: string | null;
        /**
         * The inbound message this one answers: the node's reply to a STOP, START or HELP.
         */
        reply_to?: string | null;
        /**
         * Held until.
         */
        scheduled_at?: string | null;
        /**
         * Sent by the phone.
         */
        sent_at?: string | null;
        /**
         * `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `cancelled` or (inbound) `received`.
         */
        status: string;
        /**
         * Template used.
         */
        template?: string | null;
        /**
         * Sent with a test key.
         */
        test: boolean;
        /**
         * Recipient (outbound) or the tenant's phone (inbound).
         */
        to: string;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyOptOutView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * The keyword as matched, upper-cased; null for `api`.
         */
        keyword?: string | null;
        /**
         * When it opted out (null for one recorded before opt-outs kept their time).
         */
        opted_out_at?: string | null;
        /**
         * E.164 number.
         */
        phone: string;
        /**
         * `keyword` (it texted STOP or a synonym) or `api` (`POST /v1/opt-outs`).
         */
        via: string;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyTemplateView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Body.
         */
        body: string;
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Template id.
         */
        id: string;
        /**
         * Name.
         */
        name: string;
        /**
         * Last change.
         */
        updated_at: string;
        /**
         * Its variables, in order of first use.
         */
        variables: Array<string>;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyTenantView = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Tenant id (ULID).
         */
        id: string;
        /**
         * Bytes of media the account may store; null is unlimited.
         */
        media_bytes_limit?: number | null;
        /**
         * API calls allowed per UTC month; null is unlimited.
         */
        monthly_call_limit?: number | null;
        /**
         * Label.
         */
        name: string;
        /**
         * First-time recipients allowed per UTC day.
         */
        new_contact_daily_limit: number;
        /**
         * Plan.
         */
        plan: string;
        /**
         * Quiet hours.
         */
        quiet_hours: QuietHoursBody;
        /**
         * `active` or `suspended`.
         */
        status: string;
        /**
         * A subscription keeps a trial tenant in after `trial_ends_at`.
         */
        subscription_active: boolean;
        /**
         * End of the 14-day trial.
         */
        trial_ends_at: string;
        /**
         * Usage so far.
         */
        usage: UsageView;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * The success envelope of a list.
 */
export type ListBodyWebhookItem = {
    /**
     * This page.
     */
    data: Array<{
        /**
         * Creation time.
         */
        created_at: string;
        /**
         * Whether it gets deliveries.
         */
        enabled: boolean;
        /**
         * Subscribed events.
         */
        events: Array<string>;
        /**
         * Webhook id.
         */
        id: string;
        /**
         * `...` and the secret's last four characters.
         */
        secret_hint: string;
        /**
         * Endpoint.
         */
        url: string;
    }>;
    /**
     * Pass as `after` for the next page; null at the end.
     */
    next_cursor?: string | null;
};
/**
 * One of a send's attachments.
 */
export type MediaItem = string | {
    /**
     * `http://` or `https://`, at most 2,048 characters, reachable as a webhook's would be.
     */
    url: string;
};
/**
 * The answer to a phone's upload (`POST /phone/v1/media`): the id to name in its inbound text.
 */
export type MediaUploaded = {
    /**
     * Media id.
     */
    media_id: string;
};
/**
 * A media record.
 */
export type MediaView = {
    /**
     * The type it was uploaded as.
     */
    content_type: string;
    /**
     * Upload time.
     */
    created_at: string;
    /**
     * The name given at upload.
     */
    filename?: string | null;
    /**
     * Media id.
     */
    media_id: string;
    /**
     * SHA-256 of the bytes, lowercase hex (also the content's ETag).
     */
    sha256: string;
    /**
     * Bytes.
     */
    size: number;
    /**
     * A link to the bytes, signed and good for 7 days, that needs no key.
     */
    url: string;
};
/**
 * A message record.
 */
export type MessageView = {
    /**
     * Text; `null` for a media-only message.
     */
    body?: string | null;
    /**
     * Campaign.
     */
    campaign_id?: string | null;
    /**
     * Requested channel.
     */
    channel: string;
    /**
     * Channel the phone used.
     */
    channel_used?: string | null;
    /**
     * Acceptance time.
     */
    created_at: string;
    /**
     * Delivered.
     */
    delivered_at?: string | null;
    /**
     * `outbound` or `inbound`.
     */
    direction: string;
    /**
     * Stable code of a failure (`DELIVERY_FAILED`, `RECIPIENT_OPTED_OUT`, `NO_PHONE_AVAILABLE`).
     */
    error_code?: string | null;
    /**
     * When a message no phone has taken fails `EXPIRED` (`created_at` + `valid_for`).
     */
    expires_at?: string | null;
    /**
     * Failed.
     */
    failed_at?: string | null;
    /**
     * Carrier-level detail of a failure.
     */
    failure_reason?: string | null;
    /**
     * The tenant's phone (outbound, once chosen) or the sender (inbound).
     */
    from?: string | null;
    /**
     * Attachments with signed links good for 7 days (`[]` when none).
     */
    media: Array<AttachmentView>;
    /**
     * Message id.
     */
    message_id: string;
    /**
     * The tenant's own values given at the send (`{}` when none).
     */
    metadata: {
        [key: string]: unknown;
    };
    /**
     * Read by the recipient (a read receipt).
     */
    read_at?: string | null;
    /**
     * The inbound message this one answers: the node's reply to a STOP, START or HELP.
     */
    reply_to?: string | null;
    /**
     * Held until.
     */
    scheduled_at?: string | null;
    /**
     * Sent by the phone.
     */
    sent_at?: string | null;
    /**
     * `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `cancelled` or (inbound) `received`.
     */
    status: string;
    /**
     * Template used.
     */
    template?: string | null;
    /**
     * Sent with a test key.
     */
    test: boolean;
    /**
     * Recipient (outbound) or the tenant's phone (inbound).
     */
    to: string;
};
/**
 * The two keys every new tenant gets.
 */
export type NewTenantKeys = {
    /**
     * `svc_live_` key, shown once.
     */
    live: KeyCreated;
    /**
     * `svc_test_` key, shown once.
     */
    test: KeyCreated;
};
/**
 * A live node of the fleet.
 */
export type NodeView = {
    /**
     * Where the other nodes forward its tenants' requests.
     */
    advertise_url: string;
    /**
     * The node's id (new each time it starts).
     */
    id: string;
    /**
     * When it last renewed its leases (the database's clock).
     */
    last_renewal: string;
    /**
     * When it started.
     */
    started_at: string;
    /**
     * Tenants whose live lease it holds.
     */
    tenants_owned: number;
    /**
     * Whether this is the node that answered.
     */
    this_node: boolean;
    /**
     * Its version.
     */
    version: string;
};
/**
 * A phone as the operator sees it.
 */
export type OperatorPhone = {
    /**
     * What the agent says it is, from its `User-Agent` (`pigeon-agent/0.1.0`), since the node
     * started; null until it calls.
     */
    agent?: string | null;
    /**
     * The agent's token (`svc_agent_…`), in the create answer only.
     */
    agent_token?: string | null;
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Messages per UTC day.
     */
    daily_limit: number;
    /**
     * Why the phone disabled itself (phone-scoped failures in a row), in plain English; null
     * otherwise, and once the operator enables it again.
     */
    disabled_reason?: string | null;
    /**
     * `agent` or `sim`.
     */
    driver: string;
    /**
     * Chosen for sends only when true.
     */
    enabled: boolean;
    /**
     * Phone id.
     */
    id: string;
    /**
     * An agent's last call (null for a sim, or an agent not heard from yet).
     */
    last_poll_at?: string | null;
    /**
     * E.164 number.
     */
    number: string;
    /**
     * Online now (sim: the switch; agent: polled in the last 30 s).
     */
    online: boolean;
    /**
     * Messages assigned today.
     */
    sent_today: number;
    sim?: SimBody | null;
    /**
     * Owner.
     */
    tenant_id: string;
};
/**
 * Answer of `DELETE /v1/opt-outs/{phone}`.
 */
export type OptOutRemoved = {
    /**
     * Always true.
     */
    deleted: boolean;
    /**
     * The number, which may be messaged again.
     */
    phone: string;
};
/**
 * A number opted out of the tenant.
 */
export type OptOutView = {
    /**
     * The keyword as matched, upper-cased; null for `api`.
     */
    keyword?: string | null;
    /**
     * When it opted out (null for one recorded before opt-outs kept their time).
     */
    opted_out_at?: string | null;
    /**
     * E.164 number.
     */
    phone: string;
    /**
     * `keyword` (it texted STOP or a synonym) or `api` (`POST /v1/opt-outs`).
     */
    via: string;
};
/**
 * Body of `PATCH /v1/contacts/{id}`; `null` clears `name` or `timezone`.
 */
export type PatchContact = {
    /**
     * Replaces every attribute.
     */
    attributes?: {
        [key: string]: string;
    } | null;
    /**
     * Display name.
     */
    name?: string | null;
    /**
     * New phone (E.164, unique).
     */
    phone?: string | null;
    /**
     * IANA zone.
     */
    timezone?: string | null;
};
/**
 * Body of `PATCH /admin/v1/phones/{id}`.
 */
export type PatchPhone = {
    /**
     * Messages per UTC day.
     */
    daily_limit?: number | null;
    /**
     * Chosen for sends only when true.
     */
    enabled?: boolean | null;
    /**
     * Sim phones only: the online switch.
     */
    online?: boolean | null;
};
/**
 * Body of `PATCH /v1/settings`: a field left out keeps its value; null turns a reply off.
 */
export type PatchSettings = {
    /**
     * 1–10,000 characters, or null.
     */
    help_reply?: string | null;
    /**
     * 1–10,000 characters, or null.
     */
    opt_in_reply?: string | null;
    /**
     * 1–10,000 characters, or null.
     */
    opt_out_reply?: string | null;
    quiet_hours?: QuietHoursPatchBody | null;
};
/**
 * Body of `PATCH /v1/templates/{id}`.
 */
export type PatchTemplate = {
    /**
     * New body.
     */
    body?: string | null;
    /**
     * New name.
     */
    name?: string | null;
};
/**
 * Body of `PATCH /admin/v1/tenants/{id}`: every field optional.
 */
export type PatchTenantBody = {
    /**
     * Override of the bytes of media the account may store; null returns to the plan's.
     */
    media_bytes_limit?: number | null;
    /**
     * Override of API calls per month; null returns to the plan's.
     */
    monthly_call_limit?: number | null;
    /**
     * Override of new contacts per day; null returns to the plan's.
     */
    new_contact_daily_limit?: number | null;
    /**
     * New plan.
     */
    plan?: string | null;
    quiet_hours?: QuietHoursPatchBody | null;
    /**
     * `active` or `suspended`.
     */
    status?: string | null;
    /**
     * Paid subscription on or off.
     */
    subscription_active?: boolean | null;
    /**
     * Move the end of the trial (RFC 3339).
     */
    trial_ends_at?: string | null;
};
/**
 * Body of `PATCH /v1/webhooks/{id}`: any of these.
 */
export type PatchWebhook = {
    /**
     * Off: no deliveries, and the pending ones stop; on again: the events that follow.
     */
    enabled?: boolean | null;
    /**
     * A new non-empty set of events.
     */
    events?: Array<string> | null;
    /**
     * A new endpoint (the same rules as at registration).
     */
    url?: string | null;
};
/**
 * Quiet-hours window, in the recipient's local time.
 */
export type QuietHoursBody = {
    /**
     * Off: messages go out at any hour.
     */
    enabled: boolean;
    /**
     * `HH:MM`, end of the quiet window.
     */
    end: string;
    /**
     * `HH:MM`, start of the quiet window.
     */
    start: string;
    /**
     * IANA zone used when the recipient's zone cannot be told (null: UTC).
     */
    timezone?: string | null;
};
/**
 * Changes to a quiet-hours window; a field left out keeps its value.
 */
export type QuietHoursPatchBody = {
    /**
     * Off: messages go out at any hour.
     */
    enabled?: boolean | null;
    /**
     * `HH:MM`, end of the quiet window.
     */
    end?: string | null;
    /**
     * `HH:MM`, start of the quiet window.
     */
    start?: string | null;
    /**
     * IANA zone used when the recipient's zone cannot be told; null: back to UTC.
     */
    timezone?: string | null;
};
/**
 * Body of `POST /v1/webhooks/{id}/recover`.
 */
export type RecoverBody = {
    /**
     * Deliveries that failed at or after this time (RFC 3339).
     */
    since: string;
    /**
     * ...and at or before this one (default: now).
     */
    until?: string | null;
};
/**
 * What a recovery started.
 */
export type Recovering = {
    /**
     * Deliveries started again.
     */
    recovering: number;
};
/**
 * Body of `POST /phone/v1/leases/release`: the messages the agent still holds. Every other lease
 * of its phone goes back to the queue at once (jobs answered to a poll the agent never read).
 */
export type ReleaseBody = {
    /**
     * Message ids the agent is still sending or has yet to report.
     */
    keep: Array<string>;
};
/**
 * Answer of a lease release.
 */
export type Released = {
    /**
     * Leases that went back to the queue.
     */
    released: number;
};
/**
 * What a phone reports.
 */
export type ReportedStatus = 'sent' | 'delivered' | 'failed' | 'read';
/**
 * The channels a send may ask for.
 */
export type RequestedChannel = 'auto' | 'imessage' | 'sms';
/**
 * Body of `POST /admin/v1/tenants/{id}/api-keys`.
 */
export type RescueKey = {
    /**
     * `live` (default) or `test`.
     */
    environment?: string | null;
    /**
     * Label, 1–100 characters.
     */
    name: string;
    /**
     * Calls per minute, 1 to the plan's ceiling; the plan's default when omitted.
     */
    rate_limit?: number | null;
    /**
     * Any of `send`, `read`, `manage` (at least one); all three when omitted.
     */
    scopes?: Array<string> | null;
};
/**
 * Answer of a revocation.
 */
export type Revoked = {
    /**
     * Key id.
     */
    id: string;
    /**
     * Always true.
     */
    revoked: boolean;
};
/**
 * A webhook's new secret, shown once: the answer of a rotation.
 */
export type SecretRotated = {
    /**
     * Webhook id.
     */
    id: string;
    /**
     * Until when attempts are signed with the previous secret too (in `webhook-signature`).
     */
    previous_secret_expires_at: string;
    /**
     * The new signing secret (`whsec_…`): `x-service-signature` uses it from now on.
     */
    secret: string;
};
/**
 * Body of `POST /v1/messages`.
 */
export type SendBody = {
    /**
     * Text, 1–10,000 characters. At most one of `body` and `template`; one of them or `media`.
     */
    body?: string | null;
    /**
     * `auto` (default), `imessage`, or `sms` (SMS even when the number has iMessage).
     */
    channel?: RequestedChannel;
    /**
     * Template values (strings, numbers or booleans).
     */
    data?: {
        [key: string]: unknown;
    } | null;
    /**
     * One of the tenant's phones (E.164): the message goes through it only.
     */
    from?: string | null;
    /**
     * 1–10 attachments, in the order they go out: ids from `POST /v1/media`, or
     * `{"url": "https://…"}` for a file the node fetches before it answers.
     */
    media?: Array<MediaItem> | null;
    /**
     * Up to 20 string values of the tenant's own (keys 1–40 of `[A-Za-z0-9_.-]`, values up to
     * 500 characters), echoed in the record and every event about the message.
     */
    metadata?: {
        [key: string]: unknown;
    } | null;
    /**
     * Send later: an RFC 3339 time in the future, at most 30 days ahead.
     */
    send_at?: string | null;
    /**
     * A template's name or id; its `{{ variables }}` come from `data`, then the recipient
     * contact's attributes.
     */
    template?: string | null;
    /**
     * Recipient, E.164: `+` then 10 to 15 digits.
     */
    to: string;
    /**
     * Seconds (10–259,200) a phone may still take the message after it is accepted; past
     * them it fails with `error_code: EXPIRED` and never reaches a phone.
     */
    valid_for?: number | null;
};
/**
 * A tenant's settings.
 */
export type SettingsView = {
    /**
     * Texted to a number that sends HELP or INFO; null (the default) sends nothing.
     */
    help_reply?: string | null;
    /**
     * Texted to a number whose START opted it back in; null sends nothing.
     */
    opt_in_reply?: string | null;
    /**
     * Texted once to a number whose STOP opted it out; null sends nothing.
     */
    opt_out_reply?: string | null;
    /**
     * Quiet hours, in the recipient's local time.
     */
    quiet_hours: QuietHoursBody;
};
/**
 * Sim behaviour.
 */
export type SimBody = {
    /**
     * Share of messages that fail, 0–1 (default 0).
     */
    failure_rate?: number;
    /**
     * Milliseconds from hand-over to delivery (default 50, at most 60,000).
     */
    latency_ms?: number;
    /**
     * Milliseconds from delivery to the recipient reading it (at most 86,400,000); unset, the
     * sim's messages are never read.
     */
    read_after_ms?: number | null;
};
/**
 * State of a probe.
 */
export type Status = {
    /**
     * `ok` or `ready`.
     */
    status: string;
};
/**
 * Body of a status report.
 */
export type StatusBody = {
    channel_used?: UsedChannel | null;
    /**
     * Carrier-level detail, for `failed`.
     */
    failure_reason?: string | null;
    failure_scope?: FailureScope | null;
    /**
     * `sent`, `delivered`, `read` or `failed`.
     */
    status: ReportedStatus;
};
/**
 * A template.
 */
export type TemplateView = {
    /**
     * Body.
     */
    body: string;
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Template id.
     */
    id: string;
    /**
     * Name.
     */
    name: string;
    /**
     * Last change.
     */
    updated_at: string;
    /**
     * Its variables, in order of first use.
     */
    variables: Array<string>;
};
/**
 * Answer of tenant creation.
 */
export type TenantCreated = TenantView & {
    /**
     * Its first keys.
     */
    keys: NewTenantKeys;
};
/**
 * A phone as its tenant sees it.
 */
export type TenantPhone = {
    /**
     * Messages allowed per UTC day.
     */
    daily_limit: number;
    /**
     * Why the phone disabled itself, in plain English; null otherwise.
     */
    disabled_reason?: string | null;
    /**
     * Chosen for sends only when true.
     */
    enabled: boolean;
    /**
     * Phone id.
     */
    id: string;
    /**
     * E.164 number.
     */
    number: string;
    /**
     * Online now.
     */
    online: boolean;
    /**
     * Messages assigned today (UTC).
     */
    sent_today: number;
};
/**
 * A tenant as the operator sees it; limits are the ones in force.
 */
export type TenantView = {
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Tenant id (ULID).
     */
    id: string;
    /**
     * Bytes of media the account may store; null is unlimited.
     */
    media_bytes_limit?: number | null;
    /**
     * API calls allowed per UTC month; null is unlimited.
     */
    monthly_call_limit?: number | null;
    /**
     * Label.
     */
    name: string;
    /**
     * First-time recipients allowed per UTC day.
     */
    new_contact_daily_limit: number;
    /**
     * Plan.
     */
    plan: string;
    /**
     * Quiet hours.
     */
    quiet_hours: QuietHoursBody;
    /**
     * `active` or `suspended`.
     */
    status: string;
    /**
     * A subscription keeps a trial tenant in after `trial_ends_at`.
     */
    subscription_active: boolean;
    /**
     * End of the 14-day trial.
     */
    trial_ends_at: string;
    /**
     * Usage so far.
     */
    usage: UsageView;
};
/**
 * A test event on its way.
 */
export type TestSent = {
    /**
     * The delivery: see it in `GET /v1/webhooks/{id}/deliveries`.
     */
    delivery_id: string;
    /**
     * `webhook.test`.
     */
    event: string;
    /**
     * The event's id (`webhook-id`).
     */
    event_id: string;
};
/**
 * What an operator sees of a tenant's usage.
 */
export type UsageView = {
    /**
     * Live API calls counted this UTC month.
     */
    api_calls_this_month: number;
    /**
     * First-time recipients today (UTC).
     */
    new_contacts_today: number;
};
/**
 * What a phone used.
 */
export type UsedChannel = 'imessage' | 'sms';
/**
 * A webhook as registered: the only answer that shows the secret.
 */
export type WebhookCreated = {
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Subscribed events.
     */
    events: Array<string>;
    /**
     * Webhook id.
     */
    id: string;
    /**
     * Signing secret.
     */
    secret: string;
    /**
     * Endpoint.
     */
    url: string;
};
/**
 * A webhook as listed.
 */
export type WebhookItem = {
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Whether it gets deliveries.
     */
    enabled: boolean;
    /**
     * Subscribed events.
     */
    events: Array<string>;
    /**
     * Webhook id.
     */
    id: string;
    /**
     * `...` and the secret's last four characters.
     */
    secret_hint: string;
    /**
     * Endpoint.
     */
    url: string;
};
export type OperatorDeactivateKeyData = {
    body?: never;
    path: {
        /**
         * key id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/api-keys/{id}/deactivate';
};
export type OperatorDeactivateKeyErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorDeactivateKeyError = OperatorDeactivateKeyErrors[keyof OperatorDeactivateKeyErrors];
export type OperatorDeactivateKeyResponses = {
    /**
     * OK
     */
    200: DataBodyKeyActive;
};
export type OperatorDeactivateKeyResponse = OperatorDeactivateKeyResponses[keyof OperatorDeactivateKeyResponses];
export type OperatorReactivateKeyData = {
    body?: never;
    path: {
        /**
         * key id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/api-keys/{id}/reactivate';
};
export type OperatorReactivateKeyErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorReactivateKeyError = OperatorReactivateKeyErrors[keyof OperatorReactivateKeyErrors];
export type OperatorReactivateKeyResponses = {
    /**
     * OK
     */
    200: DataBodyKeyActive;
};
export type OperatorReactivateKeyResponse = OperatorReactivateKeyResponses[keyof OperatorReactivateKeyResponses];
export type OperatorBackupData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/admin/v1/backup';
};
export type OperatorBackupErrors = {
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * `BACKUP_IN_PROGRESS`; `BACKUP_NOT_SUPPORTED` on PostgreSQL (use `pg_dump`).
     */
    409: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorBackupError = OperatorBackupErrors[keyof OperatorBackupErrors];
export type OperatorBackupResponses = {
    /**
     * The archive (a tar file, named in `Content-Disposition`).
     */
    200: Archive;
};
export type OperatorBackupResponse = OperatorBackupResponses[keyof OperatorBackupResponses];
export type OperatorFleetData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/admin/v1/fleet';
};
export type OperatorFleetErrors = {
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorFleetError = OperatorFleetErrors[keyof OperatorFleetErrors];
export type OperatorFleetResponses = {
    /**
     * OK
     */
    200: DataBodyVecNodeView;
};
export type OperatorFleetResponse = OperatorFleetResponses[keyof OperatorFleetResponses];
export type OperatorListPhonesData = {
    body?: never;
    path?: never;
    query: {
        /**
         * the tenant
         */
        tenant_id: string;
    };
    url: '/admin/v1/phones';
};
export type OperatorListPhonesErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such tenant
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorListPhonesError = OperatorListPhonesErrors[keyof OperatorListPhonesErrors];
export type OperatorListPhonesResponses = {
    /**
     * OK
     */
    200: DataBodyVecOperatorPhone;
};
export type OperatorListPhonesResponse = OperatorListPhonesResponses[keyof OperatorListPhonesResponses];
export type OperatorCreatePhoneData = {
    body: CreatePhone;
    path?: never;
    query?: never;
    url: '/admin/v1/phones';
};
export type OperatorCreatePhoneErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * Not Found
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorCreatePhoneError = OperatorCreatePhoneErrors[keyof OperatorCreatePhoneErrors];
export type OperatorCreatePhoneResponses = {
    /**
     * Created
     */
    201: DataBodyOperatorPhone;
};
export type OperatorCreatePhoneResponse = OperatorCreatePhoneResponses[keyof OperatorCreatePhoneResponses];
export type OperatorDeletePhoneData = {
    body?: never;
    path: {
        /**
         * phone id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/phones/{id}';
};
export type OperatorDeletePhoneErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorDeletePhoneError = OperatorDeletePhoneErrors[keyof OperatorDeletePhoneErrors];
export type OperatorDeletePhoneResponses = {
    /**
     * OK
     */
    200: DataBodyDeleted;
};
export type OperatorDeletePhoneResponse = OperatorDeletePhoneResponses[keyof OperatorDeletePhoneResponses];
export type OperatorPatchPhoneData = {
    body: PatchPhone;
    path: {
        /**
         * phone id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/phones/{id}';
};
export type OperatorPatchPhoneErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorPatchPhoneError = OperatorPatchPhoneErrors[keyof OperatorPatchPhoneErrors];
export type OperatorPatchPhoneResponses = {
    /**
     * OK
     */
    200: DataBodyOperatorPhone;
};
export type OperatorPatchPhoneResponse = OperatorPatchPhoneResponses[keyof OperatorPatchPhoneResponses];
export type OperatorListTenantsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/admin/v1/tenants';
};
export type OperatorListTenantsErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorListTenantsError = OperatorListTenantsErrors[keyof OperatorListTenantsErrors];
export type OperatorListTenantsResponses = {
    /**
     * OK
     */
    200: ListBodyTenantView;
};
export type OperatorListTenantsResponse = OperatorListTenantsResponses[keyof OperatorListTenantsResponses];
export type OperatorCreateTenantData = {
    body: CreateTenant;
    path?: never;
    query?: never;
    url: '/admin/v1/tenants';
};
export type OperatorCreateTenantErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorCreateTenantError = OperatorCreateTenantErrors[keyof OperatorCreateTenantErrors];
export type OperatorCreateTenantResponses = {
    /**
     * Created
     */
    201: DataBodyTenantCreated;
};
export type OperatorCreateTenantResponse = OperatorCreateTenantResponses[keyof OperatorCreateTenantResponses];
export type OperatorGetTenantData = {
    body?: never;
    path: {
        /**
         * tenant id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/tenants/{id}';
};
export type OperatorGetTenantErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorGetTenantError = OperatorGetTenantErrors[keyof OperatorGetTenantErrors];
export type OperatorGetTenantResponses = {
    /**
     * OK
     */
    200: DataBodyTenantView;
};
export type OperatorGetTenantResponse = OperatorGetTenantResponses[keyof OperatorGetTenantResponses];
export type OperatorPatchTenantData = {
    body: PatchTenantBody;
    path: {
        /**
         * tenant id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/tenants/{id}';
};
export type OperatorPatchTenantErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorPatchTenantError = OperatorPatchTenantErrors[keyof OperatorPatchTenantErrors];
export type OperatorPatchTenantResponses = {
    /**
     * OK
     */
    200: DataBodyTenantView;
};
export type OperatorPatchTenantResponse = OperatorPatchTenantResponses[keyof OperatorPatchTenantResponses];
export type OperatorCreateTenantKeyData = {
    body: RescueKey;
    path: {
        /**
         * tenant id
         */
        id: string;
    };
    query?: never;
    url: '/admin/v1/tenants/{id}/api-keys';
};
export type OperatorCreateTenantKeyErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * LIMIT_REACHED: 50 keys
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every attempt is refused until the minute is over (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type OperatorCreateTenantKeyError = OperatorCreateTenantKeyErrors[keyof OperatorCreateTenantKeyErrors];
export type OperatorCreateTenantKeyResponses = {
    /**
     * Created
     */
    201: DataBodyKeyCreated;
};
export type OperatorCreateTenantKeyResponse = OperatorCreateTenantKeyResponses[keyof OperatorCreateTenantKeyResponses];
export type OperationsNoopData = {
    body: SendBody;
    path?: never;
    query?: never;
    url: '/bench/noop';
};
export type OperationsNoopErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * Not Found
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
};
export type OperationsNoopError = OperationsNoopErrors[keyof OperationsNoopErrors];
export type OperationsNoopResponses = {
    /**
     * Accepted
     */
    202: DataBodyStatus;
};
export type OperationsNoopResponse = OperationsNoopResponses[keyof OperationsNoopResponses];
export type OperationsHealthzData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/healthz';
};
export type OperationsHealthzResponses = {
    /**
     * OK
     */
    200: DataBodyStatus;
};
export type OperationsHealthzResponse = OperationsHealthzResponses[keyof OperationsHealthzResponses];
export type OperationsMetricsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/metrics';
};
export type OperationsMetricsResponses = {
    /**
     * Prometheus text exposition format
     */
    200: unknown;
};
export type OperationsOpenapiData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/openapi.json';
};
export type OperationsOpenapiResponses = {
    /**
     * OpenAPI 3.1 document
     */
    200: unknown;
};
export type PhoneAgentDetectionData = {
    body: DetectionAnswer;
    path: {
        /**
         * the detect job
         */
        job_id: string;
    };
    query?: never;
    url: '/phone/v1/detections/{job_id}';
};
export type PhoneAgentDetectionErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentDetectionError = PhoneAgentDetectionErrors[keyof PhoneAgentDetectionErrors];
export type PhoneAgentDetectionResponses = {
    /**
     * OK
     */
    200: DataBodyDetectionAck;
};
export type PhoneAgentDetectionResponse = PhoneAgentDetectionResponses[keyof PhoneAgentDetectionResponses];
export type PhoneAgentInboundData = {
    body: InboundBody;
    headers?: {
        /**
         * The agent's id for this text (unique per phone): a repeat within 24 h records nothing
         */
        'Idempotency-Key'?: string;
    };
    path?: never;
    query?: never;
    url: '/phone/v1/inbound';
};
export type PhoneAgentInboundErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * IDEMPOTENCY_KEY_REUSED: the key came with another sender or text
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentInboundError = PhoneAgentInboundErrors[keyof PhoneAgentInboundErrors];
export type PhoneAgentInboundResponses = {
    /**
     * Created
     */
    201: DataBodyMessageView;
};
export type PhoneAgentInboundResponse = PhoneAgentInboundResponses[keyof PhoneAgentInboundResponses];
export type PhoneAgentJobsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * seconds to wait for work, 0–30 (default 0)
         */
        wait?: number;
    };
    url: '/phone/v1/jobs';
};
export type PhoneAgentJobsErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentJobsError = PhoneAgentJobsErrors[keyof PhoneAgentJobsErrors];
export type PhoneAgentJobsResponses = {
    /**
     * OK
     */
    200: DataBodyVecJobView;
};
export type PhoneAgentJobsResponse = PhoneAgentJobsResponses[keyof PhoneAgentJobsResponses];
export type PhoneAgentReleaseData = {
    body: ReleaseBody;
    path?: never;
    query?: never;
    url: '/phone/v1/leases/release';
};
export type PhoneAgentReleaseErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentReleaseError = PhoneAgentReleaseErrors[keyof PhoneAgentReleaseErrors];
export type PhoneAgentReleaseResponses = {
    /**
     * OK
     */
    200: DataBodyReleased;
};
export type PhoneAgentReleaseResponse = PhoneAgentReleaseResponses[keyof PhoneAgentReleaseResponses];
export type PhoneAgentMeData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/phone/v1/me';
};
export type PhoneAgentMeErrors = {
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentMeError = PhoneAgentMeErrors[keyof PhoneAgentMeErrors];
export type PhoneAgentMeResponses = {
    /**
     * OK
     */
    200: DataBodyAgentPhone;
};
export type PhoneAgentMeResponse = PhoneAgentMeResponses[keyof PhoneAgentMeResponses];
export type PhoneAgentPhoneUploadData = {
    /**
     * The file's bytes, of a type `POST /v1/media` takes.
     */
    body: FileBytes;
    path?: never;
    query?: {
        /**
         * the file's name, 1–255 characters, no `/`
         */
        filename?: string;
    };
    url: '/phone/v1/media';
};
export type PhoneAgentPhoneUploadErrors = {
    /**
     * `INVALID_MEDIA` (type, bytes), `VALIDATION_ERROR` (filename)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * `LIMIT_REACHED`: the account's media bound
     */
    409: ErrorBody;
    /**
     * `PAYLOAD_TOO_LARGE`: over the node's limit
     */
    413: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentPhoneUploadError = PhoneAgentPhoneUploadErrors[keyof PhoneAgentPhoneUploadErrors];
export type PhoneAgentPhoneUploadResponses = {
    /**
     * Created
     */
    201: DataBodyMediaUploaded;
};
export type PhoneAgentPhoneUploadResponse = PhoneAgentPhoneUploadResponses[keyof PhoneAgentPhoneUploadResponses];
export type PhoneAgentPhoneContentData = {
    body?: never;
    path: {
        /**
         * media id
         */
        id: string;
    };
    query?: never;
    url: '/phone/v1/media/{id}';
};
export type PhoneAgentPhoneContentErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * no such media among this phone's jobs and uploads; NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentPhoneContentError = PhoneAgentPhoneContentErrors[keyof PhoneAgentPhoneContentErrors];
export type PhoneAgentPhoneContentResponses = {
    /**
     * The bytes, as `Content-Type`; `ETag` is their SHA-256.
     */
    200: FileBytes;
};
export type PhoneAgentPhoneContentResponse = PhoneAgentPhoneContentResponses[keyof PhoneAgentPhoneContentResponses];
export type PhoneAgentStatusData = {
    body: StatusBody;
    path: {
        /**
         * message id
         */
        id: string;
    };
    query?: never;
    url: '/phone/v1/messages/{id}/status';
};
export type PhoneAgentStatusErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * Conflict
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)
     */
    503: ErrorBody;
};
export type PhoneAgentStatusError = PhoneAgentStatusErrors[keyof PhoneAgentStatusErrors];
export type PhoneAgentStatusResponses = {
    /**
     * OK
     */
    200: DataBodyMessageView;
};
export type PhoneAgentStatusResponse = PhoneAgentStatusResponses[keyof PhoneAgentStatusResponses];
export type OperationsReadyzData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/readyz';
};
export type OperationsReadyzErrors = {
    /**
     * Service Unavailable
     */
    503: ErrorBody;
};
export type OperationsReadyzError = OperationsReadyzErrors[keyof OperationsReadyzErrors];
export type OperationsReadyzResponses = {
    /**
     * OK
     */
    200: DataBodyStatus;
};
export type OperationsReadyzResponse = OperationsReadyzResponses[keyof OperationsReadyzResponses];
export type ApiKeysListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/api-keys';
};
export type ApiKeysListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ApiKeysListError = ApiKeysListErrors[keyof ApiKeysListErrors];
export type ApiKeysListResponses = {
    /**
     * OK
     */
    200: ListBodyKeyItem;
};
export type ApiKeysListResponse = ApiKeysListResponses[keyof ApiKeysListResponses];
export type ApiKeysCreateData = {
    body: CreateKey;
    path?: never;
    query?: never;
    url: '/v1/api-keys';
};
export type ApiKeysCreateErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * INSUFFICIENT_SCOPE; KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * LIMIT_REACHED: the account holds the most records of this kind it may
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ApiKeysCreateError = ApiKeysCreateErrors[keyof ApiKeysCreateErrors];
export type ApiKeysCreateResponses = {
    /**
     * Created
     */
    201: DataBodyKeyCreated;
};
export type ApiKeysCreateResponse = ApiKeysCreateResponses[keyof ApiKeysCreateResponses];
export type ApiKeysRevokeData = {
    body?: never;
    path: {
        /**
         * key id
         */
        id: string;
    };
    query?: never;
    url: '/v1/api-keys/{id}';
};
export type ApiKeysRevokeErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * INSUFFICIENT_SCOPE: a test key revoking a live key; KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ApiKeysRevokeError = ApiKeysRevokeErrors[keyof ApiKeysRevokeErrors];
export type ApiKeysRevokeResponses = {
    /**
     * OK
     */
    200: DataBodyRevoked;
};
export type ApiKeysRevokeResponse = ApiKeysRevokeResponses[keyof ApiKeysRevokeResponses];
export type CampaignsListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/campaigns';
};
export type CampaignsListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type CampaignsListError = CampaignsListErrors[keyof CampaignsListErrors];
export type CampaignsListResponses = {
    /**
     * OK
     */
    200: ListBodyCampaignView;
};
export type CampaignsListResponse = CampaignsListResponses[keyof CampaignsListResponses];
export type CampaignsCreateData = {
    body: CreateCampaign;
    path?: never;
    query?: never;
    url: '/v1/campaigns';
};
export type CampaignsCreateErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * CONTACT_NOT_FOUND
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * LIMIT_REACHED: the account holds the most records of this kind it may
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type CampaignsCreateError = CampaignsCreateErrors[keyof CampaignsCreateErrors];
export type CampaignsCreateResponses = {
    /**
     * Created
     */
    201: DataBodyCampaignView;
};
export type CampaignsCreateResponse = CampaignsCreateResponses[keyof CampaignsCreateResponses];
export type CampaignsGetData = {
    body?: never;
    path: {
        /**
         * campaign id
         */
        id: string;
    };
    query?: never;
    url: '/v1/campaigns/{id}';
};
export type CampaignsGetErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * CAMPAIGN_NOT_FOUND
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type CampaignsGetError = CampaignsGetErrors[keyof CampaignsGetErrors];
export type CampaignsGetResponses = {
    /**
     * OK
     */
    200: DataBodyCampaignView;
};
export type CampaignsGetResponse = CampaignsGetResponses[keyof CampaignsGetResponses];
export type CampaignsCancelData = {
    body?: never;
    path: {
        /**
         * campaign id
         */
        id: string;
    };
    query?: never;
    url: '/v1/campaigns/{id}/cancel';
};
export type CampaignsCancelErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * Conflict
     */
    409: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type CampaignsCancelError = CampaignsCancelErrors[keyof CampaignsCancelErrors];
export type CampaignsCancelResponses = {
    /**
     * OK
     */
    200: DataBodyCampaignView;
};
export type CampaignsCancelResponse = CampaignsCancelResponses[keyof CampaignsCancelResponses];
export type CampaignsLaunchData = {
    body?: never;
    path: {
        /**
         * campaign id
         */
        id: string;
    };
    query?: never;
    url: '/v1/campaigns/{id}/launch';
};
export type CampaignsLaunchErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * INVALID_STATUS_TRANSITION: not a draft
     */
    409: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type CampaignsLaunchError = CampaignsLaunchErrors[keyof CampaignsLaunchErrors];
export type CampaignsLaunchResponses = {
    /**
     * Accepted
     */
    202: DataBodyCampaignView;
};
export type CampaignsLaunchResponse = CampaignsLaunchResponses[keyof CampaignsLaunchResponses];
export type ContactsListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * E.164 number to look up
         */
        phone?: string;
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/contacts';
};
export type ContactsListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ContactsListError = ContactsListErrors[keyof ContactsListErrors];
export type ContactsListResponses = {
    /**
     * OK
     */
    200: ListBodyContactView;
};
export type ContactsListResponse = ContactsListResponses[keyof ContactsListResponses];
export type ContactsCreateData = {
    body: CreateContact;
    path?: never;
    query?: never;
    url: '/v1/contacts';
};
export type ContactsCreateErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * DUPLICATE_CONTACT, with contact_id; LIMIT_REACHED: the account holds the most records of this kind it may
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ContactsCreateError = ContactsCreateErrors[keyof ContactsCreateErrors];
export type ContactsCreateResponses = {
    /**
     * Created
     */
    201: DataBodyContactView;
};
export type ContactsCreateResponse = ContactsCreateResponses[keyof ContactsCreateResponses];
export type ContactsDeleteData = {
    body?: never;
    path: {
        /**
         * contact id
         */
        id: string;
    };
    query?: never;
    url: '/v1/contacts/{id}';
};
export type ContactsDeleteErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ContactsDeleteError = ContactsDeleteErrors[keyof ContactsDeleteErrors];
export type ContactsDeleteResponses = {
    /**
     * OK
     */
    200: DataBodyDeleted;
};
export type ContactsDeleteResponse = ContactsDeleteResponses[keyof ContactsDeleteResponses];
export type ContactsGetData = {
    body?: never;
    path: {
        /**
         * contact id
         */
        id: string;
    };
    query?: never;
    url: '/v1/contacts/{id}';
};
export type ContactsGetErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * CONTACT_NOT_FOUND
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ContactsGetError = ContactsGetErrors[keyof ContactsGetErrors];
export type ContactsGetResponses = {
    /**
     * OK
     */
    200: DataBodyContactView;
};
export type ContactsGetResponse = ContactsGetResponses[keyof ContactsGetResponses];
export type ContactsPatchData = {
    body: PatchContact;
    path: {
        /**
         * contact id
         */
        id: string;
    };
    query?: never;
    url: '/v1/contacts/{id}';
};
export type ContactsPatchErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * Conflict
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type ContactsPatchError = ContactsPatchErrors[keyof ContactsPatchErrors];
export type ContactsPatchResponses = {
    /**
     * OK
     */
    200: DataBodyContactView;
};
export type ContactsPatchResponse = ContactsPatchResponses[keyof ContactsPatchResponses];
export type MessagesDetectData = {
    body: DetectBody;
    path?: never;
    query?: never;
    url: '/v1/detect';
};
export type MessagesDetectErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * DETECTION_UNAVAILABLE; STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MessagesDetectError = MessagesDetectErrors[keyof MessagesDetectErrors];
export type MessagesDetectResponses = {
    /**
     * OK
     */
    200: DataBodyDetectionView;
};
export type MessagesDetectResponse = MessagesDetectResponses[keyof MessagesDetectResponses];
export type EventsListEventsData = {
    body?: never;
    headers?: {
        /**
         * server-sent events: resume after this id
         */
        'Last-Event-ID'?: string | null;
    };
    path?: never;
    query?: {
        /**
         * cursor from next_cursor (or an event_id); from the oldest kept without
         */
        after?: string;
        /**
         * comma-separated event names
         */
        types?: string;
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * 0–30 s: long-poll when nothing follows the cursor
         */
        wait?: number;
    };
    url: '/v1/events';
};
export type EventsListEventsErrors = {
    /**
     * VALIDATION_ERROR: a malformed cursor, an unknown type, limit or wait out of range
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * CURSOR_EXPIRED: events after the cursor were deleted
     */
    410: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type EventsListEventsError = EventsListEventsErrors[keyof EventsListEventsErrors];
export type EventsListEventsResponses = {
    /**
     * events (or, with Accept: text/event-stream, a stream of them)
     */
    200: EventsBody;
};
export type EventsListEventsResponse = EventsListEventsResponses[keyof EventsListEventsResponses];
export type MediaUploadData = {
    /**
     * The file's bytes. Types: image/jpeg, image/png, image/gif, image/heic, image/heif, image/webp, video/mp4, video/quicktime, audio/mp4, audio/mpeg, audio/x-caf, audio/aac, application/pdf, text/vcard, text/plain; the bytes must begin as the type's files do.
     */
    body: FileBytes;
    path?: never;
    query?: {
        /**
         * the file's name, 1–255 characters, no `/`
         */
        filename?: string;
    };
    url: '/v1/media';
};
export type MediaUploadErrors = {
    /**
     * `INVALID_MEDIA` (type, bytes), `VALIDATION_ERROR` (filename)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * `LIMIT_REACHED`: the account's media bound
     */
    409: ErrorBody;
    /**
     * `PAYLOAD_TOO_LARGE`: over the node's limit (25 MiB by default)
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MediaUploadError = MediaUploadErrors[keyof MediaUploadErrors];
export type MediaUploadResponses = {
    /**
     * Created
     */
    201: DataBodyMediaView;
};
export type MediaUploadResponse = MediaUploadResponses[keyof MediaUploadResponses];
export type MediaGetData = {
    body?: never;
    path: {
        /**
         * media id
         */
        id: string;
    };
    query?: never;
    url: '/v1/media/{id}';
};
export type MediaGetErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MediaGetError = MediaGetErrors[keyof MediaGetErrors];
export type MediaGetResponses = {
    /**
     * OK
     */
    200: DataBodyMediaView;
};
export type MediaGetResponse = MediaGetResponses[keyof MediaGetResponses];
export type MediaContentData = {
    body?: never;
    path: {
        /**
         * media id
         */
        id: string;
    };
    query?: {
        /**
         * a signed link's expiry (Unix seconds)
         */
        expires?: number;
        /**
         * a signed link's signature
         */
        signature?: string;
    };
    url: '/v1/media/{id}/content';
};
export type MediaContentErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * `INVALID_SIGNATURE`: a link's signature is missing, wrong or expired; KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MediaContentError = MediaContentErrors[keyof MediaContentErrors];
export type MediaContentResponses = {
    /**
     * The bytes, as `Content-Type`; `ETag` is their SHA-256.
     */
    200: FileBytes;
};
export type MediaContentResponse = MediaContentResponses[keyof MediaContentResponses];
export type MessagesListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * one status
         */
        status?: string;
        /**
         * recipient (E.164)
         */
        to?: string;
        /**
         * sender: the tenant's phone, or an inbound text's sender (E.164)
         */
        from?: string;
        /**
         * outbound or inbound
         */
        direction?: string;
        /**
         * a campaign's messages
         */
        campaign_id?: string;
        /**
         * accepted after this time (RFC 3339)
         */
        created_after?: string;
        /**
         * accepted before this time (RFC 3339)
         */
        created_before?: string;
        /**
         * asc (default: oldest first) or desc
         */
        order?: string;
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/messages';
};
export type MessagesListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MessagesListError = MessagesListErrors[keyof MessagesListErrors];
export type MessagesListResponses = {
    /**
     * OK
     */
    200: ListBodyMessageView;
};
export type MessagesListResponse = MessagesListResponses[keyof MessagesListResponses];
export type MessagesSendData = {
    body: SendBody;
    headers?: {
        /**
         * Makes a retry safe: a repeat of the same request within 24 h answers the first 202
         */
        'Idempotency-Key'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/messages';
};
export type MessagesSendErrors = {
    /**
     * VALIDATION_ERROR, INVALID_PHONE_NUMBER, INVALID_TEMPLATE, MISSING_TEMPLATE_VAR, INVALID_MEDIA, RECIPIENT_OPTED_OUT
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * IDEMPOTENCY_KEY_REUSED
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED, NEW_CONTACT_LIMIT; RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * NO_PHONE_AVAILABLE: every phone is offline or at its daily limit; OVERLOADED: the node is taking all the sends it can (with `Retry-After`: retry with backoff); STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MessagesSendError = MessagesSendErrors[keyof MessagesSendErrors];
export type MessagesSendResponses = {
    /**
     * Accepted
     */
    202: DataBodyAccepted;
};
export type MessagesSendResponse = MessagesSendResponses[keyof MessagesSendResponses];
export type MessagesCancelData = {
    body?: never;
    path: {
        /**
         * message id
         */
        id: string;
    };
    query?: never;
    url: '/v1/messages/{id}';
};
export type MessagesCancelErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * INVALID_STATUS_TRANSITION: no longer queued
     */
    409: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MessagesCancelError = MessagesCancelErrors[keyof MessagesCancelErrors];
export type MessagesCancelResponses = {
    /**
     * OK
     */
    200: DataBodyMessageView;
};
export type MessagesCancelResponse = MessagesCancelResponses[keyof MessagesCancelResponses];
export type MessagesGetData = {
    body?: never;
    path: {
        /**
         * message id
         */
        id: string;
    };
    query?: never;
    url: '/v1/messages/{id}';
};
export type MessagesGetErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MessagesGetError = MessagesGetErrors[keyof MessagesGetErrors];
export type MessagesGetResponses = {
    /**
     * OK
     */
    200: DataBodyMessageView;
};
export type MessagesGetResponse = MessagesGetResponses[keyof MessagesGetResponses];
export type OptOutsListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/opt-outs';
};
export type OptOutsListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type OptOutsListError = OptOutsListErrors[keyof OptOutsListErrors];
export type OptOutsListResponses = {
    /**
     * OK
     */
    200: ListBodyOptOutView;
};
export type OptOutsListResponse = OptOutsListResponses[keyof OptOutsListResponses];
export type OptOutsCreateData = {
    body: CreateOptOut;
    path?: never;
    query?: never;
    url: '/v1/opt-outs';
};
export type OptOutsCreateErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type OptOutsCreateError = OptOutsCreateErrors[keyof OptOutsCreateErrors];
export type OptOutsCreateResponses = {
    /**
     * already opted out: the existing record
     */
    200: DataBodyOptOutView;
    /**
     * Created
     */
    201: DataBodyOptOutView;
};
export type OptOutsCreateResponse = OptOutsCreateResponses[keyof OptOutsCreateResponses];
export type OptOutsDeleteData = {
    body?: never;
    path: {
        /**
         * E.164 number (`+` as is or `%2B`)
         */
        phone: string;
    };
    query?: never;
    url: '/v1/opt-outs/{phone}';
};
export type OptOutsDeleteErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: the number is not opted out
     */
    404: ErrorBody;
    /**
     * INVALID_STATUS_TRANSITION: opted out by keyword
     */
    409: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type OptOutsDeleteError = OptOutsDeleteErrors[keyof OptOutsDeleteErrors];
export type OptOutsDeleteResponses = {
    /**
     * OK
     */
    200: DataBodyOptOutRemoved;
};
export type OptOutsDeleteResponse = OptOutsDeleteResponses[keyof OptOutsDeleteResponses];
export type MessagesListPhonesData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/phones';
};
export type MessagesListPhonesErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type MessagesListPhonesError = MessagesListPhonesErrors[keyof MessagesListPhonesErrors];
export type MessagesListPhonesResponses = {
    /**
     * OK
     */
    200: DataBodyVecTenantPhone;
};
export type MessagesListPhonesResponse = MessagesListPhonesResponses[keyof MessagesListPhonesResponses];
export type SettingsGetData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/settings';
};
export type SettingsGetErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type SettingsGetError = SettingsGetErrors[keyof SettingsGetErrors];
export type SettingsGetResponses = {
    /**
     * OK
     */
    200: DataBodySettingsView;
};
export type SettingsGetResponse = SettingsGetResponses[keyof SettingsGetResponses];
export type SettingsPatchData = {
    body: PatchSettings;
    path?: never;
    query?: never;
    url: '/v1/settings';
};
export type SettingsPatchErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type SettingsPatchError = SettingsPatchErrors[keyof SettingsPatchErrors];
export type SettingsPatchResponses = {
    /**
     * OK
     */
    200: DataBodySettingsView;
};
export type SettingsPatchResponse = SettingsPatchResponses[keyof SettingsPatchResponses];
export type TemplatesListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/templates';
};
export type TemplatesListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type TemplatesListError = TemplatesListErrors[keyof TemplatesListErrors];
export type TemplatesListResponses = {
    /**
     * OK
     */
    200: ListBodyTemplateView;
};
export type TemplatesListResponse = TemplatesListResponses[keyof TemplatesListResponses];
export type TemplatesCreateData = {
    body: CreateTemplate;
    path?: never;
    query?: never;
    url: '/v1/templates';
};
export type TemplatesCreateErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * DUPLICATE_TEMPLATE; LIMIT_REACHED: the account holds the most records of this kind it may
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type TemplatesCreateError = TemplatesCreateErrors[keyof TemplatesCreateErrors];
export type TemplatesCreateResponses = {
    /**
     * Created
     */
    201: DataBodyTemplateView;
};
export type TemplatesCreateResponse = TemplatesCreateResponses[keyof TemplatesCreateResponses];
export type TemplatesDeleteData = {
    body?: never;
    path: {
        /**
         * template id
         */
        id: string;
    };
    query?: never;
    url: '/v1/templates/{id}';
};
export type TemplatesDeleteErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type TemplatesDeleteError = TemplatesDeleteErrors[keyof TemplatesDeleteErrors];
export type TemplatesDeleteResponses = {
    /**
     * OK
     */
    200: DataBodyDeleted;
};
export type TemplatesDeleteResponse = TemplatesDeleteResponses[keyof TemplatesDeleteResponses];
export type TemplatesGetData = {
    body?: never;
    path: {
        /**
         * template id
         */
        id: string;
    };
    query?: never;
    url: '/v1/templates/{id}';
};
export type TemplatesGetErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type TemplatesGetError = TemplatesGetErrors[keyof TemplatesGetErrors];
export type TemplatesGetResponses = {
    /**
     * OK
     */
    200: DataBodyTemplateView;
};
export type TemplatesGetResponse = TemplatesGetResponses[keyof TemplatesGetResponses];
export type TemplatesPatchData = {
    body: PatchTemplate;
    path: {
        /**
         * template id
         */
        id: string;
    };
    query?: never;
    url: '/v1/templates/{id}';
};
export type TemplatesPatchErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * Conflict
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type TemplatesPatchError = TemplatesPatchErrors[keyof TemplatesPatchErrors];
export type TemplatesPatchResponses = {
    /**
     * OK
     */
    200: DataBodyTemplateView;
};
export type TemplatesPatchResponse = TemplatesPatchResponses[keyof TemplatesPatchResponses];
export type WebhooksListData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/webhooks';
};
export type WebhooksListErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksListError = WebhooksListErrors[keyof WebhooksListErrors];
export type WebhooksListResponses = {
    /**
     * OK
     */
    200: ListBodyWebhookItem;
};
export type WebhooksListResponse = WebhooksListResponses[keyof WebhooksListResponses];
export type WebhooksCreateData = {
    body: CreateWebhook;
    path?: never;
    query?: never;
    url: '/v1/webhooks';
};
export type WebhooksCreateErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * LIMIT_REACHED: the account holds the most records of this kind it may
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksCreateError = WebhooksCreateErrors[keyof WebhooksCreateErrors];
export type WebhooksCreateResponses = {
    /**
     * Created
     */
    201: DataBodyWebhookCreated;
};
export type WebhooksCreateResponse = WebhooksCreateResponses[keyof WebhooksCreateResponses];
export type WebhooksDeleteData = {
    body?: never;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}';
};
export type WebhooksDeleteErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksDeleteError = WebhooksDeleteErrors[keyof WebhooksDeleteErrors];
export type WebhooksDeleteResponses = {
    /**
     * OK
     */
    200: DataBodyDeleted;
};
export type WebhooksDeleteResponse = WebhooksDeleteResponses[keyof WebhooksDeleteResponses];
export type WebhooksGetWebhookData = {
    body?: never;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}';
};
export type WebhooksGetWebhookErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksGetWebhookError = WebhooksGetWebhookErrors[keyof WebhooksGetWebhookErrors];
export type WebhooksGetWebhookResponses = {
    /**
     * OK
     */
    200: DataBodyWebhookItem;
};
export type WebhooksGetWebhookResponse = WebhooksGetWebhookResponses[keyof WebhooksGetWebhookResponses];
export type WebhooksUpdateWebhookData = {
    body: PatchWebhook;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}';
};
export type WebhooksUpdateWebhookErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksUpdateWebhookError = WebhooksUpdateWebhookErrors[keyof WebhooksUpdateWebhookErrors];
export type WebhooksUpdateWebhookResponses = {
    /**
     * OK
     */
    200: DataBodyWebhookItem;
};
export type WebhooksUpdateWebhookResponse = WebhooksUpdateWebhookResponses[keyof WebhooksUpdateWebhookResponses];
export type WebhooksListDeliveriesData = {
    body?: never;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: {
        /**
         * 1–100, default 50
         */
        limit?: number;
        /**
         * cursor from next_cursor
         */
        after?: string;
    };
    url: '/v1/webhooks/{id}/deliveries';
};
export type WebhooksListDeliveriesErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksListDeliveriesError = WebhooksListDeliveriesErrors[keyof WebhooksListDeliveriesErrors];
export type WebhooksListDeliveriesResponses = {
    /**
     * OK
     */
    200: ListBodyDeliveryView;
};
export type WebhooksListDeliveriesResponse = WebhooksListDeliveriesResponses[keyof WebhooksListDeliveriesResponses];
export type WebhooksRetryDeliveryData = {
    body?: never;
    path: {
        /**
         * webhook id
         */
        id: string;
        /**
         * delivery id
         */
        delivery_id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}/deliveries/{delivery_id}/retry';
};
export type WebhooksRetryDeliveryErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * INVALID_STATUS_TRANSITION: still pending
     */
    409: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksRetryDeliveryError = WebhooksRetryDeliveryErrors[keyof WebhooksRetryDeliveryErrors];
export type WebhooksRetryDeliveryResponses = {
    /**
     * Accepted
     */
    202: DataBodyDeliveryView;
};
export type WebhooksRetryDeliveryResponse = WebhooksRetryDeliveryResponses[keyof WebhooksRetryDeliveryResponses];
export type WebhooksRecoverWebhookData = {
    body: RecoverBody;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}/recover';
};
export type WebhooksRecoverWebhookErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * REQUEST_TIMEOUT: the body did not arrive within 10 s
     */
    408: ErrorBody;
    /**
     * INVALID_STATUS_TRANSITION: the webhook is turned off
     */
    409: ErrorBody;
    /**
     * PAYLOAD_TOO_LARGE: the body is over 1 MiB
     */
    413: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksRecoverWebhookError = WebhooksRecoverWebhookErrors[keyof WebhooksRecoverWebhookErrors];
export type WebhooksRecoverWebhookResponses = {
    /**
     * Accepted
     */
    202: DataBodyRecovering;
};
export type WebhooksRecoverWebhookResponse = WebhooksRecoverWebhookResponses[keyof WebhooksRecoverWebhookResponses];
export type WebhooksRotateSecretData = {
    body?: never;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}/rotate-secret';
};
export type WebhooksRotateSecretErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksRotateSecretError = WebhooksRotateSecretErrors[keyof WebhooksRotateSecretErrors];
export type WebhooksRotateSecretResponses = {
    /**
     * OK
     */
    200: DataBodySecretRotated;
};
export type WebhooksRotateSecretResponse = WebhooksRotateSecretResponses[keyof WebhooksRotateSecretResponses];
export type WebhooksSendTestEventData = {
    body?: never;
    path: {
        /**
         * webhook id
         */
        id: string;
    };
    query?: never;
    url: '/v1/webhooks/{id}/test';
};
export type WebhooksSendTestEventErrors = {
    /**
     * VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)
     */
    400: ErrorBody;
    /**
     * INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused
     */
    401: ErrorBody;
    /**
     * KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE
     */
    403: ErrorBody;
    /**
     * NOT_FOUND: no such record in this account (ids of other tenants included)
     */
    404: ErrorBody;
    /**
     * RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)
     */
    429: ErrorBody;
    /**
     * INTERNAL_ERROR: a bug; details are in the server's log
     */
    500: ErrorBody;
    /**
     * STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched
     */
    503: ErrorBody;
};
export type WebhooksSendTestEventError = WebhooksSendTestEventErrors[keyof WebhooksSendTestEventErrors];
export type WebhooksSendTestEventResponses = {
    /**
     * Accepted
     */
    202: DataBodyTestSent;
};
export type WebhooksSendTestEventResponse = WebhooksSendTestEventResponses[keyof WebhooksSendTestEventResponses];
