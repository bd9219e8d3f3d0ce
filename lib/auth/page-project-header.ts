/**
 * The header a dashboard tab's server actions carry: the project the tab shows (components/shell/page-project.tsx,
 * checked by lib/auth/page-project.ts). A module of its own so that client code can import it.
 */
export const PAGE_PROJECT_HEADER = "x-brynth-page-project";
