import { describe, expect, it } from "vitest";
import { csvField, csvHeader, csvRow, ndjsonRow } from "@/lib/ledger/export-format";
import type { LedgerEntry } from "@/lib/db/schema/ledger";

const entry: LedgerEntry = {
  id: 1,
  projectId: "prj_1",
  seq: 7,
  ts: new Date("2026-01-02T03:04:05.678Z"),
  op: "whoami",
  actorType: "key",
  actorId: "key_1",
  keyId: "key_1",
  agent: '=HYPERLINK("http://evil")',
  platform: "claude-code",
  via: "mcp",
  subject: "a,b",
  inputDigest: "sha256:aa",
  outputDigest: null,
  prevHash: "0".repeat(64),
  hash: "f".repeat(64),
};

describe("ledger export format", () => {
  it("quotes commas, quotes and newlines, and leaves plain values alone", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then\nbye')).toBe('"say ""hi"", then\nbye"');
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("neutralises agent-supplied values a spreadsheet would run as formulas", () => {
    for (const s of ["=1+1", "+1", "-1", "@SUM(A1)", " =1+1", "\n=1+1", "\t1", "\r1"]) expect(csvField(s).replace(/^"/, "")).toMatch(/^'/);
    // Where ';' separates cells (comma-decimal locales), a field holding one is quoted, so no cell starts with '='.
    expect(csvField("a;=cmd|' /C calc'!A0")).toBe(`"a;=cmd|' /C calc'!A0"`);
    expect(csvField("a\t=1")).toBe('"a\t=1"');
  });

  it("writes one row per entry in the header's column order", () => {
    expect(csvHeader()).toBe("seq,ts,op,actor_type,actor_id,key_id,agent,platform,via,subject,input_digest,output_digest,prev_hash,hash\r\n");
    const cells = csvRow(entry);
    expect(cells.startsWith('7,2026-01-02T03:04:05.678Z,whoami,key,key_1,key_1,"\'=HYPERLINK(""http://evil"")",claude-code,mcp,"a,b",sha256:aa,,')).toBe(true);
    expect(JSON.parse(ndjsonRow(entry))).toMatchObject({ seq: 7, agent: entry.agent, output_digest: null });
  });
});
