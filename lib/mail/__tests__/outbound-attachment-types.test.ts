import { beforeAll, describe, expect, it } from "vitest";
import type { Mailbox } from "@/lib/db/schema/mail";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { projectWithKey, refusedFields } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";

/**
 * An attachment's contentType may not be multipart/*. nodemailer built such a part as a multipart container with a
 * fresh boundary: the file's bytes sat in its preamble and the recipient got no file, while send_message answered
 * queued and get_message listed the attachment as sent (found by helper-118).
 */
let p: Awaited<ReturnType<typeof projectWithKey>>;
let box: Mailbox;
beforeAll(async () => {
  p = await projectWithKey("Attachment types");
  box = await seedMailbox(p.project.id);
});

describe("an attachment's content type", () => {
  it.each(["multipart/mixed", "Multipart/Related"])("%s is refused, naming the field", async (contentType) => {
    const content = Buffer.from("quarter,revenue\nq3,42\n").toString("base64");
    const fields = await refusedFields(sendMessage, p.mcp, {
      inboxId: box.id,
      to: ["ann@example.com"],
      subject: "numbers",
      text: "attached",
      attachments: [{ filename: "q3.csv", contentType, content }],
    });
    expect(fields).toEqual(["attachments.0.contentType"]);
  });
});
