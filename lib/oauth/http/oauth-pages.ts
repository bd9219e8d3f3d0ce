import { escapeHtml } from "@/lib/text/escape-html";

/** A page of the authorization endpoint's own (no Next, no scripts): its CSP allows nothing but its inline style. */
function page(status: number, title: string, body: string, head = ""): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · Brynth</title>${head}<style>body{font:15px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.2rem}a{color:#2563eb}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      // The page's URL carries the request (and, on the way back, a code): no Referer may take it elsewhere.
      "referrer-policy": "no-referrer",
    },
  });
}

/** The request cannot be trusted enough to send anything to the client: the owner reads why, here. */
export const errorPage = (status: number, message: string) =>
  page(
    status,
    "This authorization request cannot be used",
    `<p>${escapeHtml(message)}</p><p>Close this window and start the connection again from the application.</p>`,
  );

/** The owner's choices on the consent page do not fit (a mailbox of another project, no scope): go back and fix them. */
export const choicePage = (message: string) =>
  page(400, "Check your choices", `<p>${escapeHtml(message)}</p><p>Go back to the previous page, correct it, and approve again.</p>`);

/**
 * Back to the client with the answer. A 303 from a form POST would be blocked by the consent page's CSP
 * (`form-action 'self'` governs where a submission may redirect), so the answer is a page that navigates there itself:
 * a meta refresh (no script), with a link for browsers that do not follow it.
 */
export function returnToClient(url: string): Response {
  const href = escapeHtml(url);
  return page(
    200,
    "Returning to the application…",
    `<p><a href="${href}">Continue</a> if nothing happens.</p>`,
    `<meta http-equiv="refresh" content="0;url=${href}">`,
  );
}
