import { describe } from "vitest";
import { filesSuite } from "@/lib/disk/__tests__/files-suite";

describe("files on the local store", () => filesSuite("local"));
