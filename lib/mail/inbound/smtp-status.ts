export type SmtpStatus = { state: "listening"; port: number } | { state: "failed"; port: number; error: string } | { state: "off" };

const g = globalThis as { __brynthSmtpStatus?: SmtpStatus };

/** This process's SMTP listener, for the Mail settings screen (same process: globalThis is shared by all bundles). */
export const smtpStatus = (): SmtpStatus | null => g.__brynthSmtpStatus ?? null;
export const setSmtpStatus = (s: SmtpStatus) => {
  g.__brynthSmtpStatus = s;
};
