import type { Metadata } from "next";
import { Toaster } from "@/components/ui/sonner";
import "./globals.css";

// Every page is rendered per request, so that each carries the nonce of its own Content-Security-Policy
// (security-headers.ts): a page prerendered at build time (only the 404 page was) has scripts no nonce can allow.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Brynth", template: "%s · Brynth" },
  description: "Back office for AI agents",
};

// System fonts only (globals.css): nothing is fetched at build or run time.
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        <Toaster />
      </body>
    </html>
  );
}
