import { hkdfSync } from "node:crypto";
import { appSecret } from "@/lib/crypto/app-secret";

/** next-auth's JWT secret, derived from APP_SECRET so every instance sharing it accepts the same cookies. */
export const nextAuthSecret = () => Buffer.from(hkdfSync("sha256", appSecret(), Buffer.alloc(0), "brynth:next-auth", 32)).toString("base64url");
