/** email_send's limits (brynth-mcp-tools.md). */
export const MAX_RECIPIENTS = 50;
export const SUBJECT_MAX_CHARS = 255;
export const BODY_MAX_BYTES = 256 * 1024;
export const MAX_ATTACHMENTS = 10;
export const ATTACHMENTS_MAX_BYTES = 10 * 1024 * 1024;
