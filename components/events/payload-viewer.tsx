"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { JsonTree } from "@/components/ui/json-tree";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { UntrustedText } from "@/components/ui/untrusted-text";

type Props = {
  /** Parsed JSON, when the body is JSON. */
  json?: unknown;
  isJson: boolean;
  /** The body exactly as received (JSON text, text, or base64 of binary); null when too large to show. */
  raw: string | null;
  encoding: "json" | "text" | "base64" | null;
  headers: Record<string, string>;
  /** Signed download link for payloads too large to show. */
  downloadUrl: string | null;
  size: string;
};

/**
 * Third-party content is only ever text here: a JSON tree, a <pre>, a table. Nothing is rendered as HTML, invisible
 * characters (a right-to-left override) are written out, and downloads are served as attachments from a sandboxed
 * response.
 */
export function PayloadViewer({ json, isJson, raw, encoding, headers, downloadUrl, size }: Props) {
  const tooLarge = raw === null;
  // The tree opens two levels; "Expand all" remounts it fully open, so nested objects need no click each.
  const [depth, setDepth] = React.useState(2);
  return (
    <Tabs defaultValue={isJson && !tooLarge ? "tree" : "raw"}>
      <TabsList>
        {isJson && <TabsTrigger value="tree">JSON</TabsTrigger>}
        <TabsTrigger value="raw">Raw</TabsTrigger>
        <TabsTrigger value="headers">Headers ({Object.keys(headers).length})</TabsTrigger>
      </TabsList>
      {isJson && (
        <TabsContent value="tree">
          {tooLarge ? (
            <TooLarge url={downloadUrl} size={size} />
          ) : (
            <div className="grid gap-2">
              <div className="flex gap-1">
                <Button
                  type="button"
                  size="xs"
                  variant="outline"
                  onClick={() => setDepth(Number.POSITIVE_INFINITY)}
                  disabled={depth === Number.POSITIVE_INFINITY}
                >
                  Expand all
                </Button>
                <Button type="button" size="xs" variant="outline" onClick={() => setDepth(1)} disabled={depth === 1}>
                  Collapse all
                </Button>
              </div>
              <JsonTree key={depth} data={json} aria-label="Payload" defaultExpandDepth={depth} />
            </div>
          )}
        </TabsContent>
      )}
      <TabsContent value="raw">
        {tooLarge ? (
          <TooLarge url={downloadUrl} size={size} />
        ) : (
          <div className="grid gap-1">
            {encoding === "base64" && <p className="text-xs text-muted-foreground">Binary body, shown as base64.</p>}
            <CodeBlock code={raw} language={encoding ?? undefined} copyLabel="Copy payload" className="max-h-[32rem] overflow-auto" />
          </div>
        )}
      </TabsContent>
      <TabsContent value="headers">
        {Object.keys(headers).length === 0 ? (
          <p className="text-sm text-muted-foreground">No headers kept for this event.</p>
        ) : (
          <div className="rounded-lg border">
            <Table>
              <TableBody>
                {Object.entries(headers).map(([k, v]) => (
                  <TableRow key={k}>
                    <TableCell className="w-64 font-mono text-xs text-muted-foreground">
                      <UntrustedText text={k} />
                    </TableCell>
                    <TableCell className="font-mono text-xs break-all whitespace-pre-wrap">
                      <UntrustedText text={v} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </TabsContent>
    </Tabs>
  );
}

function TooLarge({ url, size }: { url: string | null; size: string }) {
  return (
    <p className="text-sm text-muted-foreground">
      The payload is {size}, too large to show here.{" "}
      {url && (
        <a href={url} className="underline underline-offset-2" download>
          Download it
        </a>
      )}{" "}
      (the link is valid for one hour).
    </p>
  );
}
