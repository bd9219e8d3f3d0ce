"use client";

import * as React from "react";
import { PAGE_PROJECT_HEADER } from "@/lib/auth/page-project-header";

/** The project this tab shows, for the fetch below; updated each time the layout renders (a switch, a refresh). */
let shown: string | null = null;
let installed = false;

/**
 * Sends the project this tab shows with each of its server actions (the `Next-Action` POSTs the router makes with
 * the global fetch), so the server refuses an action from a tab left on another project than the cookie's now
 * (lib/auth/page-project.ts). Other requests go out untouched.
 */
function install() {
  if (installed) return;
  installed = true;
  const original = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (!shown || !headers.has("next-action")) return original(input, init);
    headers.set(PAGE_PROJECT_HEADER, shown);
    return original(input, { ...init, headers });
  };
}

export function PageProject({ projectId }: { projectId: string }) {
  React.useEffect(() => {
    shown = projectId;
    install();
  }, [projectId]);
  return null;
}
