/** The LISTEN/NOTIFY channel that wakes delivery workers when calls become due. */
export const WEBHOOK_CALLS_CHANNEL = 'fieldhouse_webhook_calls';
