/**
 * The webhook benches' receiver in a process of its own (so verifying signatures does not share the deliverer's
 * CPU): lib/testing/webhook-receiver.ts with the endpoints of ENDPOINTS (JSON `{path: {secrets, answers}}`).
 * Prints `ready <port>`, then `got <path> <webhook-id> <arrival ms> <1 if verified else 0>` for every delivery;
 * arrival is performance.timeOrigin + performance.now(), comparable with the bench's own commit times.
 */
import { startWebhookReceiver, type ReceiverAnswer } from "@/lib/testing/webhook-receiver";

async function main() {
  const endpoints = JSON.parse(process.env.ENDPOINTS ?? "{}") as Record<string, { secrets: string[]; answers?: ReceiverAnswer[] }>;
  const lines: string[] = [];
  let flushing = false;
  const receiver = await startWebhookReceiver({
    keep: false,
    onDelivery: (d) => {
      lines.push(`got ${d.path} ${d.id} ${d.at.toFixed(2)} ${d.verifiedBy.length > 0 ? 1 : 0}`);
      // One write a tick, however many deliveries it saw.
      if (!flushing) {
        flushing = true;
        setImmediate(() => {
          flushing = false;
          process.stdout.write(`${lines.splice(0).join("\n")}\n`);
        });
      }
    },
  });
  for (const [path, e] of Object.entries(endpoints)) receiver.endpoint(path, e);
  process.on("SIGTERM", () => void receiver.close().then(() => process.exit(0)));
  console.log(`ready ${receiver.port}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
