import type { NextConfig } from "next";

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
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
