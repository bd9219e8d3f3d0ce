import type { Metadata } from "next";
import { cookies } from "next/headers";
import { Toaster } from "@/components/ui/sonner";
import { readTheme, THEME_COOKIE } from "@/lib/owners/theme";
import "./globals.css";

// Every page is rendered per request, so that each carries the nonce of its own Content-Security-Policy
// (security-headers.ts): a page prerendered at build time (only the 404 page was) has scripts no nonce can allow.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Brynth", template: "%s · Brynth" },
  description: "Back office for AI agents",
};

// System fonts only (globals.css): nothing is fetched at build or run time.
// The theme is a cookie (Settings → Appearance) so the server renders its class and the first paint is right.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const theme = readTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" className={theme === "system" ? undefined : theme} data-theme={theme}>
      <body>
        {children}
        <Toaster theme={theme} />
      </body>
    </html>
  );
}
