/** Any origin will do: only whether `next` leaves it matters. */
const HERE = "http://brynth.invalid";

/**
 * Where the browser goes after signing in (an OAuth consent page sends the owner to sign in first): a path of this
 * site, else "/". Judged as the browser will read it, not by its first characters: a URL parser drops tabs and
 * newlines and reads `\` as `/`, so `/<TAB>/evil.example` passed a `//` prefix check and went to evil.example.
 * The parsed path is what is returned, so what was checked is what the browser gets.
 */
export function signInNext(next: string | undefined): string {
  if (!next?.startsWith("/")) return "/";
  const url = URL.parse(next, HERE);
  return url?.origin === HERE ? url.pathname + url.search + url.hash : "/";
}
