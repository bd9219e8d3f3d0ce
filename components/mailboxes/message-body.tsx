"use client";

import * as React from "react";
import { ImageIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

type Props = {
  /** Signed /mail-html URLs: without and with remote images; null when the message has no HTML (in this view). */
  htmlUrl: string | null;
  htmlWithImagesUrl: string | null;
  remoteImages: number;
  text: string | null;
  subject: string;
};

/**
 * A message body. HTML is shown only inside a sandboxed iframe served from /mail-html (sanitised, CSP without
 * scripts or remote loads): `sandbox` never grants allow-scripts, nor allow-same-origin, so the mail cannot run
 * code or reach the dashboard's cookies and storage. Remote images load only when the owner asks.
 */
export function MessageBody({ htmlUrl, htmlWithImagesUrl, remoteImages, text, subject }: Props) {
  const [images, setImages] = React.useState(false);
  if (!htmlUrl) {
    return <pre className="max-h-[32rem] overflow-auto font-sans text-sm whitespace-pre-wrap break-words">{text || "(no text)"}</pre>;
  }
  return (
    <div className="grid gap-2">
      {remoteImages > 0 && !images && (
        <div className="flex items-center gap-2 rounded-md border bg-muted/40 px-3 py-1.5 text-xs text-muted-foreground">
          <ImageIcon className="size-3.5" aria-hidden />
          Remote images are blocked: loading them tells the sender you opened this mail.
          <Button size="sm" variant="outline" className="ml-auto h-6 px-2 text-xs" onClick={() => setImages(true)}>
            Load images
          </Button>
        </div>
      )}
      <iframe
        key={images ? "images" : "plain"}
        title={`Message: ${subject}`}
        src={images && htmlWithImagesUrl ? htmlWithImagesUrl : htmlUrl}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="no-referrer"
        className="h-[28rem] w-full rounded-md border bg-white"
      />
    </div>
  );
}
