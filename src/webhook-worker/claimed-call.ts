/** A webhook call a worker holds under lease, with what the attempt needs to send it. */
export type ClaimedCall = {
  id: string;
  /** Names this one claim: the outcome is recorded only while the call still carries it. */
  leaseToken: string;
  webhookId: string;
  entityType: string;
  eventType: string;
  autoRetriesCount: number;
  /** The call was queued by resend_webhook. */
  manualResend: boolean;
  lastSentAt: Date | null;
  /** The auto-retry planned before a resend, kept so a failed resend does not cancel it. */
  nextRetryAt: Date | null;
  /** The webhook's settings now: every attempt uses the current ones. */
  webhook: {
    url: string;
    customPayload: string | null;
    headers: Record<string, string>;
    httpBasicUser: string | null;
    httpBasicPassword: string | null;
    enabled: boolean;
    autoRetry: boolean;
    signingSecret: string | null;
  };
  event: {
    entity: unknown;
    previousEntity: unknown;
    relatedEntities: unknown[];
    createdAt: Date;
    environment: string;
    isEnvironmentPrimary: boolean;
  };
  siteId: string;
};
