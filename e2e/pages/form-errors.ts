import { expect, type Locator, type Page } from "@playwright/test";
import { server } from "../fixtures";
import { ownerAuth } from "../rest";

export { ownerAuth };

/** zod's own words or a `field:` prefix: neither may reach an owner's form. */
export const RAW = /\bexpected (string|number|one of|array|object|boolean)|Too big|Too small|Invalid input|Invalid option|^\w+: /;
/** A sentence starts with a capital, or with a name spelled as it is (`example.com is…`, `whsec_… secrets`). */
const SENTENCE = /^([A-Z"“]|\S*[.@_]\S*\s)/;

/**
 * The field's error as an owner meets it: the control marked invalid, naming its error by aria-describedby, the
 * error in plain words (a string is matched exactly, a RegExp in part).
 */
export async function expectFieldError(control: Locator, text: string | RegExp) {
  await expect(control).toHaveAttribute("aria-invalid", "true");
  const id = (await control.getAttribute("aria-describedby"))?.split(" ").find((i) => i.endsWith("-error"));
  expect(id, "the control names its error").toBeTruthy();
  const error = control.page().locator(`[id="${id}"]`);
  await expect(error).toHaveText(text);
  const words = (await error.textContent())?.trim() ?? "";
  expect(words, "plain words, no zod text and no field: prefix").not.toMatch(RAW);
  expect(words, "a sentence starting with a capital").toMatch(SENTENCE);
}

/** A group (fieldset) whose error is linked the same way, for checkbox lists. */
export async function expectGroupError(group: Locator, text: string | RegExp) {
  // The group has no aria-invalid to wait on: wait for the link itself, which appears with the server's answer.
  await expect(group).toHaveAttribute("aria-describedby", /-error\b/);
  const id = (await group.getAttribute("aria-describedby"))?.split(" ").find((i) => i.endsWith("-error"));
  expect(id, "the group names its error").toBeTruthy();
  const error = group.page().locator(`[id="${id}"]`);
  await expect(error).toHaveText(text);
  expect((await error.textContent())?.trim() ?? "").not.toMatch(RAW);
}

/** Lets a test send what a hand-edited form could: the browser's maxlength is not the server's check. */
export const dropMaxLength = (control: Locator) => control.evaluate((el) => el.removeAttribute("maxlength"));

/** GET an owner REST resource (HTTP Basic) and return its JSON. */
export async function ownerGet<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(`${server.url}/api/v1${path}`, { headers: { authorization: ownerAuth } });
  expect(res.ok(), `GET ${path}`).toBe(true);
  return (await res.json()) as T;
}

/** A short unique suffix so reruns against one server do not collide. */
export const uniq = () => Math.random().toString(36).slice(2, 8);
