import { describe, expect, it } from "vitest";
import { fileHeaders } from "@/lib/disk/http/responses";

describe("fileHeaders", () => {
  it("names a download with its invisible characters written out, in the UTF-8 name and the ASCII fallback", () => {
    const cd = fileHeaders({ name: "invoice\u202Efdp.exe", contentType: "application/pdf", sizeBytes: 1 })["content-disposition"];
    expect(cd).toBe(`attachment; filename="invoice[U+202E]fdp.exe"; filename*=UTF-8''invoice%5BU%2B202E%5Dfdp.exe`);
    expect(decodeURIComponent(cd.split("''")[1])).not.toContain("\u202E");
  });

  it("keeps a name in any script as it is", () => {
    const cd = fileHeaders({ name: "Łódź résumé 履歴書.pdf", contentType: "application/pdf", sizeBytes: 1 })["content-disposition"];
    expect(decodeURIComponent(cd.split("''")[1])).toBe("Łódź résumé 履歴書.pdf");
  });
});
