/** What each verification means for the person setting it up, and whether Brynth may generate the secret. */
export const verificationOptions = [
  {
    value: "stripe",
    label: "Stripe",
    help: "Paste the endpoint's signing secret (whsec_…) from Stripe → Developers → Webhooks.",
    generate: false,
  },
  {
    value: "github",
    label: "GitHub",
    help: "Enter the same secret in the GitHub webhook settings; choose content type application/json.",
    generate: true,
  },
  {
    value: "hmac_sha256",
    label: "HMAC-SHA256",
    help: "The sender puts the HMAC-SHA256 of the raw body, hex or base64, in the signature header. It signs no time or id, so a captured delivery can be replayed: prefer Standard Webhooks when the sender offers it.",
    generate: true,
  },
  {
    value: "standard_webhooks",
    label: "Standard Webhooks (Svix)",
    help: "For senders that sign with webhook-id / webhook-timestamp / webhook-signature (or svix-id / svix-timestamp / svix-signature); the secret looks like whsec_….",
    generate: true,
  },
  { value: "none", label: "None", help: "Anyone who knows the URL can post events. Use it only for testing.", generate: false },
] as const;

export type VerificationValue = (typeof verificationOptions)[number]["value"];

/** A fresh secret in the form the scheme expects. */
export function generateSecret(verification: VerificationValue): string {
  const bytes = crypto.getRandomValues(new Uint8Array(verification === "standard_webhooks" ? 24 : 32));
  const b64 = btoa(String.fromCharCode(...bytes));
  return verification === "standard_webhooks" ? `whsec_${b64}` : b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
