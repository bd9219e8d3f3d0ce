import type { NextConfig } from "next";

// Next.js sends anonymous usage data unless told not to. A self-hosted back office sends nothing anywhere: set before
// the build records anything (Next reads the variable each time it would send). .ci/run exports it as well.
process.env.NEXT_TELEMETRY_DISABLED = "1";

const nextConfig: NextConfig = {
  // Native and WASM packages must load from node_modules at run time, not from Next's bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "@node-rs/argon2",
    "smtp-server",
    "mailauth",
    "mailparser",
    "nodemailer",
    "grammy",
    "@aws-sdk/client-s3",
    "@aws-sdk/s3-request-presigner",
    "ws",
  ],
  // Separate build folders let several builds (e.g. parallel work trees) run side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The build type-checks app code only; tests are checked by `npm run typecheck` and run by vitest.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
