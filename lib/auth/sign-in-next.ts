/** Any origin will do: only whether `next` leaves it matters. */
const HERE = "http://brynth.invalid";

/**
 * Where the browser goes after signing in (an OAuth consent page sends the owner to sign in first): a path of this
 * site, else "/". Judged as the browser will read it, not by its first characters: a URL parser drops tabs and
 * newlines and reads `\` as `/`, so `/<TAB>/evil.example` passed a `//` prefix check and went to evil.example.
 * The parsed path is what is returned, so what was checked is what the browser gets, and it is checked once more as
 * the browser reads it: dot segments collapse, so `/.//evil.example` parsed as a path of this site but came back as
 * `//evil.example`, another origin to the browser (and to the login page's redirect when already signed in).
 */
export function signInNext(next: string | undefined): string {
  if (!next?.startsWith("/")) return "/";
  const url = URL.parse(next, HERE);
  if (url?.origin !== HERE) return "/";
  const path = url.pathname + url.search + url.hash;
  return URL.parse(path, HERE)?.origin === HERE ? path : "/";
}
