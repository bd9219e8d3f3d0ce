import { describe, expect, it } from "vitest";
import { dkimRecordProblem } from "@/lib/mail/domains/dkim-record-problem";

// The DNS check verified a domain from records every receiver fails Brynth's signatures with (found by helper-111).
const key = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx";

describe("dkimRecordProblem", () => {
  it("accepts Brynth's record as published, folded or with its tags in any order", () => {
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=${key}`], key)).toBeNull();
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=${key.slice(0, 20)} ${key.slice(20)}`], key)).toBeNull();
    expect(dkimRecordProblem([`p=${key}; K=RSA; t=s`], key)).toBeNull();
    expect(dkimRecordProblem([`p=${key}`], key)).toBeNull();
  });

  it("refuses what a verifier fails: a lower-cased key, another key type or version, another key, two records", () => {
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=${key.toLowerCase()}`], key)).toBe("the published key is not Brynth's");
    expect(dkimRecordProblem([`v=DKIM1; k=ed25519; p=${key}`], key)).toBe("k=ed25519: Brynth's key is RSA (k=rsa)");
    expect(dkimRecordProblem([`v=DKIM2; p=${key}`], key)).toBe("v=DKIM2: a DKIM key record says v=DKIM1");
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=${key}x`], key)).toBe("the published key is not Brynth's");
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=OLD`, `v=DKIM1; k=rsa; p=${key}`], key)).toMatch(/^2 TXT records at the selector/);
  });
});
