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
    expect(dkimRecordProblem([`v=DKIM1; h=sha1:sha256; s=email; k=rsa; p=${key};`], key)).toBeNull();
    expect(dkimRecordProblem([`v=DKIM1; s=*; t=y; p=${key}`], key)).toBeNull();
  });

  it("refuses what a verifier fails: a lower-cased key, another key type or version, another key, two records", () => {
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=${key.toLowerCase()}`], key)).toBe("the published key is not Brynth's");
    expect(dkimRecordProblem([`v=DKIM1; k=ed25519; p=${key}`], key)).toBe("k=ed25519: Brynth's key is RSA (k=rsa)");
    expect(dkimRecordProblem([`v=DKIM2; p=${key}`], key)).toBe("v=DKIM2: a DKIM key record says v=DKIM1");
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=${key}x`], key)).toBe("the published key is not Brynth's");
    expect(dkimRecordProblem([`v=DKIM1; k=rsa; p=OLD`, `v=DKIM1; k=rsa; p=${key}`], key)).toMatch(/^2 TXT records at the selector/);
    // Tags a verifier reads that the first check passed over (found by helper-113).
    expect(dkimRecordProblem([`v=DKIM1; h=sha1; p=${key}`], key)).toBe("h=sha1: Brynth signs with sha256");
    expect(dkimRecordProblem([`v=DKIM1; s=web; p=${key}`], key)).toBe("s=web: the key must be for email");
    expect(dkimRecordProblem([`v=DKIM1; p=${key}; p=`], key)).toBe("p= is given twice: receivers refuse the record");
    expect(dkimRecordProblem([`k=rsa; v=DKIM1; p=${key}`], key)).toBe("v=DKIM1 must be the record's first tag");
  });
});
