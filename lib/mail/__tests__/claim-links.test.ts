import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { emailEventLinks } from "@/lib/mail/email-event-links";
import { serveMailHtml } from "@/lib/mail/http/serve-mail-html";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { projectAddress } from "@/lib/mail/project-address";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { addEmailSource, fakeResolver, latestEvents, sendTo } from "@/lib/mail/__tests__/helpers";

/** inbox_claim's signed URLs for a received mail: its HTML (sandboxed) and each attachment. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject();
  await addEmailSource(seeded.actor);
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
});
afterAll(async () => {
  await listener.close();
  await server.close();
});

describe("email event links", () => {
  it("signs an HTML URL served under a CSP sandbox, and attachment URLs that download without a key", async () => {
    const address = await projectAddress(await getDb(), seeded.project.id);
    await sendTo(listener.port, {
      from: "x@sender.example",
      to: address,
      subject: "With HTML",
      text: "plain",
      html: '<p onclick="steal()">Hello <img src="https://tracker.example/p.gif"><script>alert(1)</script></p>',
      attachments: [{ filename: "data.csv", content: "a,b\n1,2\n", contentType: "text/csv" }],
    });
    const [event] = await latestEvents(seeded.project.id, "email.received");
    const db = await getDb();
    const asked = Date.now();
    const links = (await emailEventLinks(db, { projectId: seeded.project.id, eventId: event.id }))!;
    const answered = Date.now();
    // An hour from when the links were made, which lies between the two readings of the clock.
    expect(new Date(links.expires_at).getTime()).toBeGreaterThanOrEqual(asked + 3600_000);
    expect(new Date(links.expires_at).getTime()).toBeLessThanOrEqual(answered + 3600_000);

    const html = await serveMailHtml(new Request(links.html_url!));
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("content-security-policy")).toMatch(/^sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none';.* img-src data:;/);
    expect(html.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await html.text()).toContain("Hello");

    // A forged or tampered token is refused, and so is another project's message id under a valid signature.
    const tampered = links.html_url!.replace(/\.([A-Za-z0-9_-]+)$/, ".AAAA$1");
    expect((await serveMailHtml(new Request(tampered))).status).toBe(410);
    const other = await seedProject();
    expect(await emailEventLinks(await getDb(), { projectId: other.project.id, eventId: event.id })).toBeNull();

    expect(links.attachments).toHaveLength(1);
    expect(links.attachments[0]).toMatchObject({ name: "data.csv", path: `${event.id}/data.csv`, content_type: "text/csv" });
    const download = await fetch(links.attachments[0].url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("a,b\n1,2\n");
  });

  it("has no links for events that are not received mail", async () => {
    expect(await emailEventLinks(await getDb(), { projectId: seeded.project.id, eventId: "evt_nope" })).toBeNull();
  });
});
