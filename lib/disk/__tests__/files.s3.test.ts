import { describe } from "vitest";
import { filesSuite } from "@/lib/disk/__tests__/files-suite";

describe("files on S3 (s3rver)", () => filesSuite("s3"));
